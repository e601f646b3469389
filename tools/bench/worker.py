"""Time one workload in one framework; run inside that framework's venv by run.py.

Prints one line ``BENCH-RESULT {json}`` with ``status`` ok (``times`` in seconds, one per
timed step), unsupported (a missing feature: ImportError, AttributeError,
NotImplementedError) or error, and a ``reason``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import time
from collections.abc import Callable

MARK = "BENCH-RESULT "
MISSING_FEATURE = (ImportError, AttributeError, NotImplementedError)


def time_steps(step: Callable[[], None], steps: int, warmup: int) -> list[float]:
    """Seconds of each of *steps* calls of *step*, after *warmup* untimed calls."""
    for _ in range(warmup):
        step()
    times = []
    for _ in range(steps):
        start = time.perf_counter()
        step()
        times.append(time.perf_counter() - start)
    return times


def measure(framework: str, workload: str, steps: int, warmup: int) -> dict:
    """Build the workload, run *warmup* untimed steps, then time *steps* steps."""
    try:
        module = importlib.import_module(f"{framework}_workloads")
        if framework == "torch":
            import torch

            torch.set_num_threads(int(os.environ.get("OMP_NUM_THREADS", "2")))
        times = time_steps(module.build(workload), steps, warmup)
    except MISSING_FEATURE as exc:
        return {"status": "unsupported", "reason": f"{type(exc).__name__}: {exc}"}
    except Exception as exc:
        return {"status": "error", "reason": f"{type(exc).__name__}: {exc}"}
    return {"status": "ok", "times": times, "version": module.version()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--framework", choices=["chainer", "torch"], required=True)
    parser.add_argument("--workload", required=True)
    parser.add_argument("--steps", type=int, default=10)
    parser.add_argument("--warmup", type=int, default=3)
    args = parser.parse_args()
    result = measure(args.framework, args.workload, args.steps, args.warmup)
    print(MARK + json.dumps(result), flush=True)


if __name__ == "__main__":
    main()
