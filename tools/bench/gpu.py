"""Step times of the benchmark workloads on a CUDA GPU: this project (CuPy) against PyTorch.

Run where CuPy and PyTorch with CUDA are installed beside the project::

    python tools/bench/gpu.py                 # every workload
    python tools/bench/gpu.py mlp cnn --steps 50

Each step is synchronized with the device before its time is taken, so a figure is the
whole forward, backward and update of one step. The workloads of ``STATIC`` are also run
with their chain under ``chainer.static_graph`` (PyTorch runs them eager, and with
``--torch-compile`` also under ``torch.compile``). Prints a
Markdown table (median ms per step, the ratios to PyTorch) and, with ``--json FILE``,
writes the raw times too.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_data
from worker import time_steps

#: the workloads of the GPU table (the CPU table's NAME-static ones are a column here)
WORKLOADS = tuple(w for w in bench_data.WORKLOADS
                  if not bench_data.split_static(w)[1] and not bench_data.split_chainerx(w)[1])
#: the workloads also timed with their chain under static_graph
STATIC = ("overhead", "mlp", "cnn")


def _chainer_step(workload: str, static: bool = False) -> Callable[[], None]:
    import chainer_workloads
    import cupy

    import chainer
    from chainer import optimizers

    device = chainer.get_device("@cupy:0")
    device.use()
    if workload == "adam":
        values, grads = bench_data.make("adam")
        link = chainer.Link()
        with link.init_scope():
            for i, value in enumerate(bench_data.split(values)):
                setattr(link, f"p{i}", chainer.Parameter(value))
        link.to_device(device)
        for i, grad in enumerate(bench_data.split(grads)):
            getattr(link, f"p{i}").grad = cupy.asarray(grad)
        optimizer = optimizers.Adam()
        optimizer.setup(link)
        update = optimizer.update
    else:
        model, optimizer = chainer_workloads.BUILDERS[workload](static=static)
        model.to_device(device)
        optimizer.setup(model)
        x, t = (cupy.asarray(a) for a in bench_data.make(workload))

        def update() -> None:
            # v7's optimizer.update(lossfun, *args): forward, cleargrads, backward, update
            # (under static_graph, the first three run as a CUDA graph from the third step)
            optimizer.update(model, x, t)

    stream = cupy.cuda.get_current_stream()

    def step() -> None:
        update()
        stream.synchronize()

    return step


def _torch_step(workload: str, compiled: bool = False) -> Callable[[], None]:
    """PyTorch's step of *workload* (with *compiled*, the model under ``torch.compile``)."""
    import torch
    import torch_workloads
    from torch import nn

    cuda = torch.device("cuda")
    if workload == "adam":
        values, grads = bench_data.make("adam")
        params = []
        for value, grad in zip(bench_data.split(values), bench_data.split(grads), strict=True):
            param = nn.Parameter(torch.from_numpy(value).to(cuda))
            param.grad = torch.from_numpy(grad).to(cuda)
            params.append(param)
        optimizer = torch.optim.Adam(params, foreach=True)
        update = optimizer.step
    else:
        model, make_optimizer = torch_workloads._model(workload)
        model.to(cuda)
        optimizer = make_optimizer(list(model.parameters()))
        if compiled:
            model = torch.compile(model)
        x, t = bench_data.make(workload)
        tx = torch.from_numpy(x).to(cuda)
        if workload == "lstm":
            tx = tx.long()
        tt = torch.from_numpy(t).long().to(cuda)

        def update() -> None:
            loss = model(tx, tt)
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()

    def step() -> None:
        update()
        torch.cuda.synchronize()

    return step


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workloads", nargs="*", default=list(WORKLOADS))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write the raw step times to this file")
    parser.add_argument("--torch-compile", action="store_true",
                        help="also time PyTorch's models under torch.compile (slow to build)")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.workloads) - set(WORKLOADS))
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {WORKLOADS}")
    names = ["chainer", "chainer-static", "torch"]
    headers = ["this project (ms)", "static_graph (ms)", "PyTorch CUDA (ms)"]
    if args.torch_compile:
        names.append("torch-compile")
        headers.append("torch.compile (ms)")
    results: dict[str, dict[str, list[float] | str]] = {}
    for workload in args.workloads:
        results[workload] = {}
        builds: list[tuple[str, Callable[[str], Callable[[], None]]]] = [
            ("chainer", _chainer_step),
            ("torch", _torch_step),
        ]
        if workload in STATIC:
            builds.insert(1, ("chainer-static", lambda w: _chainer_step(w, static=True)))
        if args.torch_compile and workload != "adam":
            builds.append(("torch-compile", lambda w: _torch_step(w, compiled=True)))
        for name, build in builds:
            try:
                results[workload][name] = time_steps(build(workload), args.steps, args.warmup)
            except Exception as exc:  # a failing framework is reported, not fatal
                results[workload][name] = f"{type(exc).__name__}: {exc}"
    ratio_headers = ["ratio", "static ratio"] + (["static vs torch.compile"]
                                                 if args.torch_compile else [])
    print(f"| workload | {' | '.join(headers)} | {' | '.join(ratio_headers)} |")
    print("|---|" + "---|" * (len(headers) + len(ratio_headers)))
    for workload, row in results.items():
        cells = []
        medians = {}
        for name in names:
            value = row.get(name, "-")
            if value == "-":
                cells.append("-")
            elif isinstance(value, str):
                cells.append(f"error: {value}")
            else:
                medians[name] = statistics.median(value) * 1e3
                cells.append(f"{medians[name]:.3f}")
        pairs = [("chainer", "torch"), ("chainer-static", "torch")]
        if args.torch_compile:
            pairs.append(("chainer-static", "torch-compile"))
        ratios = [
            f"{medians[a] / medians[b]:.2f}x" if a in medians and b in medians else "-"
            for a, b in pairs
        ]
        print(f"| {workload} | {' | '.join(cells)} | {' | '.join(ratios)} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
