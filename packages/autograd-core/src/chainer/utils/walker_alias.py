"""Walker's alias method: O(1) sampling from a discrete distribution."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.types import DeviceSpec, NdArray, ShapeSpec


class WalkerAlias:
    """Samples indices ``0 .. n-1`` with probabilities proportional to ``probs``.

    The alias table costs O(n) to build; each sample costs O(1). Sampling runs
    on the device the table is on (NumPy, or CuPy after :meth:`to_gpu`).

    The table is laid out as Chainer v7 lays it out, so that the same NumPy seed
    draws the same samples: the weights are normalized in float32 and taken in
    increasing order (ties by index); slot ``j`` keeps its own index
    ``values[2j]`` with probability ``threshold[j]`` and gives the alias
    ``values[2j + 1]`` otherwise.

    Args:
        probs: non-negative weights (normalized by their sum).

    Attributes:
        threshold: per slot, the probability of keeping its own index (float32).
        values: per slot ``j``, its own index at ``2j`` and its alias at ``2j + 1``
            (int32, twice as long as ``threshold``).

    Raises:
        ValueError: for weights that are empty, negative, not finite or all zero.
    """

    def __init__(self, probs: NdArray | Sequence[float]) -> None:
        p = numpy.asarray(backend.CpuDevice().send(numpy.asarray(probs)) if not isinstance(
            probs, (list, tuple)) else probs, dtype=numpy.float64)
        if p.ndim != 1 or p.size == 0:
            raise ValueError(f'probs must be a non-empty 1-D sequence, not of shape {p.shape}')
        if not numpy.isfinite(p).all() or (p < 0).any():
            raise ValueError('probs must be finite and non-negative')
        if p.sum() <= 0:
            raise ValueError('probs must not all be zero')
        n = p.size
        p32 = p.astype(numpy.float32)
        prob = p32 / p32.sum()
        threshold = numpy.zeros(n, dtype=numpy.float32)
        values = numpy.zeros(2 * n, dtype=numpy.int32)
        # Slots fill in increasing order of probability; an index with more than one
        # slot's worth of mass first tops up (as their alias) the earlier slots left
        # short, then keeps the rest in a slot of its own.
        short = 0
        for slot, i in enumerate(numpy.argsort(prob, kind='stable').tolist()):
            mass = float(prob[i]) * n
            while mass > 1.0 and short < slot:
                values[2 * short + 1] = i
                mass -= 1.0 - float(threshold[short])
                short += 1
            threshold[slot] = mass
            values[2 * slot] = i
        self.threshold = threshold
        self.values = values
        self._device: backend.Device = backend.CpuDevice()

    @property
    def device(self) -> backend.Device:
        """The device of the alias table."""
        return self._device

    @property
    def use_gpu(self) -> bool:
        """Whether the table is on a CUDA device."""
        return self._device.xp is not numpy

    def to_device(self, device: DeviceSpec) -> WalkerAlias:
        """Move the table to ``device`` (any device spec); returns self."""
        target = backend.get_device(device)
        self.threshold = target.send(self.threshold)
        self.values = target.send(self.values)
        self._device = target
        return self

    def to_gpu(self, device: DeviceSpec | None = None) -> WalkerAlias:
        """Move the table to a CUDA device (the current one by default); returns self."""
        if device is None:
            from chainer.backends import cuda

            cuda.check_cuda_available()
            device = cuda.cupy.cuda.Device().id
        device_id: Any = getattr(device, 'id', device)  # a cupy.cuda.Device or an id
        return self.to_device(f'@cupy:{int(device_id)}')

    def to_cpu(self) -> WalkerAlias:
        """Move the table to the CPU; returns self."""
        return self.to_device('@numpy')

    def sample(self, shape: ShapeSpec) -> Any:
        """Draw indices of the given ``shape`` (int32, on the table's device)."""
        xp = self._device.xp
        with self._device:
            n = self.threshold.shape[0]
            u = xp.random.uniform(0, n, shape)  # n * [0, 1), as random_sample(shape) * n
            slot = u.astype(numpy.int32)
            alias = (u - slot) >= self.threshold[slot]
            return self.values[2 * slot + alias.astype(numpy.int32)]
