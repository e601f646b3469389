"""Random inputs of the benchmark workloads, identical in every framework (fixed seed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np

WORKLOADS = ("overhead", "mlp", "cnn", "lstm")
LSTM_VOCAB = 10000
LSTM_STEPS = 35
LSTM_BATCH = 20


def make(workload: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Return ``(inputs, int32 labels)`` of *workload* as NumPy arrays."""
    import numpy as np

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
    raise ValueError(f"unknown workload {workload!r}; choose from {', '.join(WORKLOADS)}")
