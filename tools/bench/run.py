"""Benchmark training steps of this project against PyTorch CPU and Chainer 7.8.1.

Usage: ``python tools/bench/run.py [WORKLOAD ...] [--steps N] [--reps R] ...``
(``nox -s bench -- overhead mlp`` passes its arguments here).

Each framework runs in its own venv (see envs.py). For each workload, repetition and
framework in turn, a fresh worker process runs 3 untimed warm-up steps and then the timed
steps, with 2 threads (OMP/MKL/OpenBLAS variables, ``torch.set_num_threads``). The table
gives the median step time over all timed steps of all repetitions and its ratio to
PyTorch (above 1 is slower than PyTorch). A workload a framework lacks a feature for
prints ``unsupported``. ``overhead-static`` is ``overhead`` with its chain under
``chainer.static_graph`` (PyTorch, which has no such decorator, runs ``overhead`` for it).
``NAME-chainerx`` is NAME on the ChainerX device ``native:0`` (PyTorch runs NAME; Chainer
7.8.1's wheels have no ChainerX); when NAME ran too, its step time's ratio to NAME's is
printed under the table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_data import WORKLOADS, split_chainerx
from envs import FRAMEWORKS, prepare
from worker import MARK

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent

DEFAULT_STEPS = {
    "overhead": 100,
    "overhead-static": 100,
    "overhead-chainerx": 100,
    "mlp": 20,
    "mlp-chainerx": 20,
    "cnn": 10,
    "lstm": 3,
    "adam": 10,
}
THREAD_VARIABLES = ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "OPENBLAS_NUM_THREADS")


@dataclass
class Outcome:
    """What one framework did on one workload, over all repetitions."""

    status: str = "ok"
    times: list[float] = field(default_factory=list)
    reason: str = ""
    version: str = ""

    @property
    def median_ms(self) -> float | None:
        return statistics.median(self.times) * 1e3 if self.status == "ok" else None


def run_worker(
    python: Path, worker: str, workload: str, steps: int, warmup: int, threads: int,
    extra_env: tuple[tuple[str, str], ...] = (),
) -> dict:
    """Run one worker process and return its parsed result."""
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", **dict(extra_env))
    env.update({name: str(threads) for name in THREAD_VARIABLES})
    env.pop("PYTHONPATH", None)
    cmd = [str(python), str(HERE / "worker.py"), "--framework", worker]
    cmd += ["--workload", workload, "--steps", str(steps), "--warmup", str(warmup)]
    with tempfile.TemporaryDirectory(prefix="bench-") as cwd:
        done = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True)
    for line in reversed(done.stdout.splitlines()):
        if line.startswith(MARK):
            return json.loads(line[len(MARK) :])
    last = (done.stderr.strip().splitlines() or ["no output"])[-1]
    return {"status": "error", "reason": f"worker exited {done.returncode}: {last}"}


def format_table(results: dict[str, dict[str, Outcome]], labels: dict[str, str]) -> str:
    """Render workload, framework, median step time and ratio to PyTorch."""
    rows = [("workload", "framework", "step (ms)", "vs pytorch")]
    for workload, by_framework in results.items():
        reference = by_framework.get("torch", Outcome(status="missing")).median_ms
        for key, outcome in by_framework.items():
            ms = outcome.median_ms
            if ms is None:
                rows.append((workload, labels[key], outcome.status, "-"))
                continue
            ratio = f"{ms / reference:.2f}x" if reference else "-"
            rows.append((workload, labels[key], f"{ms:.3f}", ratio))
    widths = [max(len(row[i]) for row in rows) for i in range(4)]
    lines = []
    for n, row in enumerate(rows):
        cells = [row[0].ljust(widths[0]), row[1].ljust(widths[1])]
        cells += [row[2].rjust(widths[2]), row[3].rjust(widths[3])]
        lines.append("  ".join(cells))
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    return "\n".join(lines)


def chainerx_ratios(results: dict[str, dict[str, Outcome]], labels: dict[str, str]
                    ) -> list[str]:
    """Lines ``NAME-chainerx / NAME, LABEL: R.RRx`` for each framework that ran both."""
    lines = []
    for workload, by_framework in results.items():
        plain, on_chainerx = split_chainerx(workload)
        if not on_chainerx or plain not in results:
            continue
        for key, outcome in by_framework.items():
            ms = outcome.median_ms
            base = results[plain].get(key, Outcome(status="missing")).median_ms
            if ms is not None and base:
                lines.append(f"  {workload} / {plain}, {labels[key]}: {ms / base:.2f}x")
    return lines


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD",
                        help=f"any of {', '.join(WORKLOADS)} (default: all)")  # fmt: skip
    parser.add_argument("--steps", type=int, help="timed steps per run (default: per workload)")
    parser.add_argument("--reps", type=int, default=3, help="interleaved repetitions (3)")
    parser.add_argument("--warmup", type=int, default=3, help="untimed steps first (3)")
    parser.add_argument("--threads", type=int, default=2, help="threads per framework (2)")
    parser.add_argument(
        "--frameworks", default=",".join(FRAMEWORKS), help="comma-separated subset of "
        + ", ".join(FRAMEWORKS)
    )  # fmt: skip
    parser.add_argument("--wheels", type=Path, help="install this project from these wheels")
    parser.add_argument("--envs", type=Path, default=ROOT / ".bench", help="venv folder")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args(argv)
    unknown = [w for w in args.workloads if w not in WORKLOADS]
    if unknown:
        parser.error(f"unknown workload(s) {', '.join(unknown)}; choose from {WORKLOADS}")
    args.frameworks = [f.strip() for f in args.frameworks.split(",") if f.strip()]
    bad = [f for f in args.frameworks if f not in FRAMEWORKS]
    if bad:
        parser.error(f"unknown framework(s) {', '.join(bad)}; choose from {list(FRAMEWORKS)}")
    args.workloads = args.workloads or list(WORKLOADS)
    return args


def main(argv: list[str] | None = None) -> int:
    """Prepare the envs, run the interleaved benchmark and print the table."""
    args = parse_args(argv)
    pythons = {}
    labels = {key: FRAMEWORKS[key].label for key in args.frameworks}
    for key in args.frameworks:
        try:
            pythons[key] = prepare(key, args.envs, ROOT, args.wheels)
        except RuntimeError as exc:
            print(f"bench: {labels[key]} is not available: {exc}", file=sys.stderr)
    results: dict[str, dict[str, Outcome]] = {}
    for workload in args.workloads:
        steps = args.steps or DEFAULT_STEPS[workload]
        outcomes = {key: Outcome() for key in args.frameworks}
        for key in args.frameworks:
            if key not in pythons:
                outcomes[key] = Outcome(status="no env", reason="environment setup failed")
        for rep in range(args.reps):
            for key, python in pythons.items():
                outcome = outcomes[key]
                if outcome.status != "ok":
                    continue
                got = run_worker(python, FRAMEWORKS[key].worker, workload, steps,
                                 args.warmup, args.threads, FRAMEWORKS[key].env)  # fmt: skip
                if got["status"] != "ok":
                    outcomes[key] = Outcome(status=got["status"], reason=got["reason"])
                    continue
                outcome.times.extend(got["times"])
                outcome.version = got["version"]
                ms = statistics.median(got["times"]) * 1e3
                print(f"bench: {workload} rep {rep + 1}/{args.reps} {labels[key]}: {ms:.3f} ms",
                      file=sys.stderr, flush=True)  # fmt: skip
        results[workload] = outcomes
    print()
    print(f"median step time after {args.warmup} warm-ups; {args.reps} interleaved "
          f"repetitions; {args.threads} threads per framework")  # fmt: skip
    print(format_table(results, labels))
    ratios = chainerx_ratios(results, labels)
    if ratios:
        print("\nChainerX (native:0) against NumPy (@numpy), step time ratio:")
        print("\n".join(ratios))
    notes = [
        f"  {workload} / {labels[key]}: {o.status}: {o.reason}"
        for workload, by_framework in results.items()
        for key, o in by_framework.items()
        if o.status != "ok"
    ]
    if notes:
        print("\nnot measured:")
        print("\n".join(notes))
    versions = {labels[k]: o.version for r in results.values() for k, o in r.items() if o.version}
    if versions:
        print("\nversions: " + ", ".join(f"{k} = {v}" for k, v in versions.items()))
    if args.json:
        data = {w: {k: vars(o) for k, o in r.items()} for w, r in results.items()}
        args.json.write_text(json.dumps(data, indent=1))
    errors = [o for r in results.values() for o in r.values() if o.status in ("error", "no env")]
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
