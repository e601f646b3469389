"""Walker's alias method: O(1) sampling from a discrete distribution."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend


class WalkerAlias:
    """Samples indices ``0 .. n-1`` with probabilities proportional to ``probs``.

    The alias table costs O(n) to build; each sample costs O(1). Sampling runs
    on the device the table is on (NumPy, or CuPy after :meth:`to_gpu`).

    Args:
        probs: non-negative weights (normalized by their sum).

    Attributes:
        threshold: per index, the probability of keeping the index itself.
        values: per index, the alias returned otherwise.

    Raises:
        ValueError: for weights that are empty, negative, not finite or all zero.
    """

    def __init__(self, probs: Any) -> None:
        p = numpy.asarray(backend.CpuDevice().send(numpy.asarray(probs)) if not isinstance(
            probs, (list, tuple)) else probs, dtype=numpy.float64)
        if p.ndim != 1 or p.size == 0:
            raise ValueError(f'probs must be a non-empty 1-D sequence, not of shape {p.shape}')
        if not numpy.isfinite(p).all() or (p < 0).any():
            raise ValueError('probs must be finite and non-negative')
        total = p.sum()
        if total <= 0:
            raise ValueError('probs must not all be zero')
        n = p.size
        scaled = p * (n / total)
        threshold = numpy.ones(n, dtype=numpy.float64)
        values = numpy.arange(n, dtype=numpy.int32)
        small = [i for i in range(n) if scaled[i] < 1.0]
        large = [i for i in range(n) if scaled[i] >= 1.0]
        while small and large:
            s = small.pop()
            g = large.pop()
            threshold[s] = scaled[s]
            values[s] = g
            scaled[g] -= 1.0 - scaled[s]
            (small if scaled[g] < 1.0 else large).append(g)
        # Whatever is left has (up to rounding) probability mass exactly 1.
        for i in small + large:
            threshold[i] = 1.0
            values[i] = i
        self.threshold = threshold
        self.values = values
        self._device = backend.CpuDevice()

    @property
    def device(self) -> backend.Device:
        """The device of the alias table."""
        return self._device

    @property
    def use_gpu(self) -> bool:
        """Whether the table is on a CUDA device."""
        return self._device.xp is not numpy

    def to_device(self, device: Any) -> WalkerAlias:
        """Move the table to ``device`` (any device spec); returns self."""
        device = backend.get_device(device)
        self.threshold = device.send(self.threshold)
        self.values = device.send(self.values)
        self._device = device
        return self

    def to_gpu(self, device: Any = None) -> WalkerAlias:
        """Move the table to a CUDA device (the current one by default); returns self."""
        if device is None:
            from chainer.backends import cuda

            cuda.check_cuda_available()
            device = cuda.cupy.cuda.Device().id
        return self.to_device(f'@cupy:{int(getattr(device, "id", device))}')

    def to_cpu(self) -> WalkerAlias:
        """Move the table to the CPU; returns self."""
        return self.to_device('@numpy')

    def sample(self, shape: Any) -> Any:
        """Draw indices of the given ``shape`` (int32, on the table's device)."""
        xp = self._device.xp
        with self._device:
            n = self.threshold.shape[0]
            u = xp.random.uniform(0.0, 1.0, shape) * n
            index = xp.minimum(u.astype(numpy.int32), n - 1)
            keep = (u - index) < self.threshold[index]
            return xp.where(keep, index, self.values[index]).astype(numpy.int32)
