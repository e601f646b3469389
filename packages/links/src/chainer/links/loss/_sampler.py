"""The noise sampler shared by the sampled-softmax losses (BlackOut, NegativeSampling)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer.link import Link
from chainer.utils.walker_alias import WalkerAlias

if TYPE_CHECKING:
    from chainer.device_resident import DeviceResidentsVisitor


class SamplingLink(Link):
    """A link with a :class:`~chainer.utils.WalkerAlias` ``sampler`` that follows it
    from device to device."""

    sampler: WalkerAlias

    def _make_sampler(self, weights: Any) -> None:
        self.sampler = WalkerAlias(numpy.asarray(weights, dtype=numpy.float32))

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Visit the parameters, then move the sampler to the link's device."""
        super().device_resident_accept(visitor)
        sampler = self.__dict__.get('sampler')
        if sampler is not None and sampler.device != self.device:
            sampler.to_device(self.device)
