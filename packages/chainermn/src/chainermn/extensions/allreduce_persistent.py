"""Averaging the persistent values of a model (e.g. batch statistics) over processes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend
from chainer.training import extension

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.training.trainer import Trainer
    from chainermn.communicators.communicator_base import CommunicatorBase


def _float_persistents(model: Link) -> list[tuple[Any, str]]:
    """``(link, name)`` of every floating-point array persistent of ``model``, by path."""
    found = []
    for _, link in sorted(model.namedlinks(), key=lambda item: item[0]):
        for name in sorted(link._persistent):
            value = getattr(link, name)
            if hasattr(value, 'dtype') and getattr(value.dtype, 'kind', '') == 'f':
                found.append((link, name))
    return found


class AllreducePersistent(extension.Extension):
    """Trainer extension that replaces each floating-point persistent array of ``model``
    (e.g. ``avg_mean`` / ``avg_var`` of batch normalization) by its mean over the
    processes. Integer persistents are left as they are.

    Call it before saving or evaluating the model; it can also be called directly.

    Args:
        model: the link.
        comm: a ChainerMN communicator.
    """

    trigger = (1, 'epoch')
    priority = extension.PRIORITY_WRITER + 1  # before the evaluators and writers

    def __init__(self, model: Link, comm: CommunicatorBase) -> None:
        self.model = model
        self.comm = comm

    def __call__(self, trainer: Trainer | None = None) -> None:
        """Average the persistents (collective)."""
        for link, name in _float_persistents(self.model):
            value = getattr(link, name)
            mean = self.comm.allreduce(value) / self.comm.size
            xp = backend.get_array_module(value)
            value[...] = xp.asarray(mean, dtype=value.dtype)
