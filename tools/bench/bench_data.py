"""Random inputs of the benchmark workloads, identical in every framework (fixed seed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

WORKLOADS = (
    "overhead", "overhead-static", "overhead-chainerx", "mlp", "mlp-chainerx", "cnn", "lstm",
    "adam",
)  # fmt: skip
#: the suffix of a workload run with its chain under ``chainer.static_graph`` (PyTorch,
#: which has no such decorator, runs the plain workload for it)
STATIC = "-static"
#: the suffix of a workload run on the ChainerX device ``native:0`` (model, data and
#: optimizer; PyTorch runs the plain workload for it, Chainer 7.8.1 has no ChainerX)
CHAINERX = "-chainerx"
LSTM_VOCAB = 10000
LSTM_STEPS = 35
LSTM_BATCH = 20
# adam: the update alone, over 100 parameters of 10M floats in all (50 "weights" of
# 196,000 and 50 "biases" of 4,000)
ADAM_SIZES = (196_000,) * 50 + (4_000,) * 50


def make(workload: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(inputs, int32 labels)`` of *workload* as NumPy arrays.

    For ``adam``: ``(parameter values, gradients)``, flat float32 arrays to :func:`split`.
    """
    import numpy as np

    workload, _ = split_static(split_chainerx(workload)[0])
    rng = np.random.default_rng(seed)

    def labels(classes: int, shape: tuple[int, ...]) -> np.ndarray:
        return rng.integers(0, classes, size=shape).astype(np.int32)

    if workload == "overhead":
        return rng.standard_normal((8, 32), dtype=np.float32), labels(32, (8,))
    if workload == "mlp":
        return rng.standard_normal((100, 784), dtype=np.float32), labels(10, (100,))
    if workload == "cnn":
        return rng.standard_normal((32, 3, 32, 32), dtype=np.float32), labels(10, (32,))
    if workload == "lstm":
        shape = (LSTM_STEPS, LSTM_BATCH)
        return labels(LSTM_VOCAB, shape), labels(LSTM_VOCAB, shape)
    if workload == "adam":
        return adam_arrays(rng), adam_arrays(rng)
    raise ValueError(f"unknown workload {workload!r}; choose from {', '.join(WORKLOADS)}")


def split_chainerx(workload: str) -> tuple[str, bool]:
    """``(the plain workload, whether it runs on ChainerX)`` of a workload name."""
    if workload.endswith(CHAINERX):
        return workload[: -len(CHAINERX)], True
    return workload, False


def split_static(workload: str) -> tuple[str, bool]:
    """``(the plain workload, whether it runs under static_graph)`` of a workload name."""
    if workload.endswith(STATIC):
        return workload[: -len(STATIC)], True
    return workload, False


def adam_arrays(rng: np.random.Generator) -> np.ndarray:
    """One float32 array of ``sum(ADAM_SIZES)`` values (split into the parameters)."""
    import numpy as np

    return rng.standard_normal(sum(ADAM_SIZES), dtype=np.float32)


def split(flat: np.ndarray) -> list[np.ndarray]:
    """``flat`` cut into separate arrays of ADAM_SIZES (copies, each its own memory)."""
    out, start = [], 0
    for size in ADAM_SIZES:
        out.append(flat[start : start + size].copy())
        start += size
    return out
