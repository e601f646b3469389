"""Step times of the benchmark workloads on a CUDA GPU: this project (CuPy) against PyTorch.

Run where CuPy and PyTorch with CUDA are installed beside the project::

    python tools/bench/gpu.py                 # every workload
    python tools/bench/gpu.py mlp cnn --steps 50

Each step is synchronized with the device before its time is taken, so a figure is the
whole forward, backward and update of one step. Prints a Markdown table (median ms per
step, the ratio to PyTorch) and, with ``--json FILE``, writes the raw times too.
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


def _chainer_step(workload: str) -> Callable[[], None]:
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
        model, optimizer = chainer_workloads.BUILDERS[workload]()
        model.to_device(device)
        optimizer.setup(model)
        x, t = (cupy.asarray(a) for a in bench_data.make(workload))

        def update() -> None:
            loss = model(x, t)
            model.cleargrads()
            loss.backward()
            optimizer.update()

    stream = cupy.cuda.get_current_stream()

    def step() -> None:
        update()
        stream.synchronize()

    return step


def _torch_step(workload: str) -> Callable[[], None]:
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
    parser.add_argument("workloads", nargs="*", default=list(bench_data.WORKLOADS))
    parser.add_argument("--steps", type=int, default=30)
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--json", type=Path, help="write the raw step times to this file")
    args = parser.parse_args(argv)
    unknown = sorted(set(args.workloads) - set(bench_data.WORKLOADS))
    if unknown:
        parser.error(f"unknown workloads {unknown}; choose from {bench_data.WORKLOADS}")
    results: dict[str, dict[str, list[float] | str]] = {}
    for workload in args.workloads:
        results[workload] = {}
        for name, build in (("chainer", _chainer_step), ("torch", _torch_step)):
            try:
                results[workload][name] = time_steps(build(workload), args.steps, args.warmup)
            except Exception as exc:  # a failing framework is reported, not fatal
                results[workload][name] = f"{type(exc).__name__}: {exc}"
    print("| workload | this project (ms) | PyTorch CUDA (ms) | ratio |")
    print("|---|---|---|---|")
    for workload, row in results.items():
        cells = []
        medians = {}
        for name in ("chainer", "torch"):
            value = row[name]
            if isinstance(value, str):
                cells.append(f"error: {value}")
            else:
                medians[name] = statistics.median(value) * 1e3
                cells.append(f"{medians[name]:.3f}")
        ratio = (
            f"{medians['chainer'] / medians['torch']:.2f}x" if len(medians) == 2 else "-"
        )
        print(f"| {workload} | {cells[0]} | {cells[1]} | {ratio} |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
