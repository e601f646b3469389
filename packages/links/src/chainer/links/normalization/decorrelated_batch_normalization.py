"""DecorrelatedBatchNormalization: ZCA whitening over the batch, with running statistics."""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import functions
from chainer.link import Link
from chainer.links.normalization.batch_normalization import finetune_argument
from chainer.serializer import Deserializer

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.types import DTypeSpec, NdArray, VariableOrArray
    from chainer.variable import Variable

_STATISTICS = ('avg_mean', 'avg_projection')



def _fix_statistic(name: str, array: Any, groups: int, ndim: int) -> Any:
    if array.ndim == ndim:
        return array
    if array.ndim != ndim - 1:
        raise ValueError(f'{name} must have {ndim} axes (or {ndim - 1}, as saved by Chainer '
                         f'before v6), not shape {array.shape}')
    if groups != 1:
        warnings.warn(f'{name} of shape {array.shape} (saved by an older Chainer) is used as '
                      f'the statistic of each of the {groups} groups', UserWarning, stacklevel=3)
    xp = chainer.backend.get_array_module(array)
    return xp.broadcast_to(array, (groups,) + array.shape).copy()


def fix_avg_mean(avg_mean: NdArray, groups: int) -> NdArray:
    """``avg_mean`` with the group axis: ``(groups, C // groups)``.

    A running mean saved by Chainer before v6 has shape ``(C // groups,)``; it is
    repeated over the groups (with a warning when there are several). One already of
    two axes is returned as it is.

    Raises:
        ValueError: for neither one nor two axes.
    """
    return _fix_statistic('avg_mean', avg_mean, groups, 2)


def fix_avg_projection(avg_projection: NdArray, groups: int) -> NdArray:
    """``avg_projection`` with the group axis: ``(groups, C // groups, C // groups)``.

    As :func:`fix_avg_mean`, for the running whitening matrices (two axes before v6).

    Raises:
        ValueError: for neither two nor three axes.
    """
    return _fix_statistic('avg_projection', avg_projection, groups, 3)


class _GroupedStatisticsLoader(Deserializer):
    """A deserializer proxy that accepts statistics saved without the group axis.

    Models saved by Chainer before v6 stored ``avg_mean`` of shape ``(C,)`` and
    ``avg_projection`` of shape ``(C, C)``; they are repeated over the groups.
    """

    def __init__(self, inner: Deserializer, link: DecorrelatedBatchNormalization) -> None:
        self._inner = inner
        self._link = link

    def __getitem__(self, key: str) -> AbstractSerializer:
        return self._inner[key]

    def describe(self, key: str) -> str:
        """The inner deserializer's name of the entry ``key``."""
        return self._inner.describe(key)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)

    def __call__(self, key: str, value: Any) -> Any:
        if key not in _STATISTICS or value is None:
            return self._inner(key, value)
        loaded = self._inner(key, None)
        if loaded is None or getattr(loaded, 'ndim', None) != value.ndim - 1:
            return self._inner(key, value)
        if loaded.shape != value.shape[1:]:
            raise ValueError(f'cannot load {key} of shape {loaded.shape} into a '
                             f'DecorrelatedBatchNormalization statistic of shape {value.shape}')
        groups = self._link.groups
        if groups != 1:
            warnings.warn(
                f'{key} of shape {loaded.shape} (saved by an older Chainer) is loaded as the '
                f'statistic of each of the {groups} groups', UserWarning)
        array = numpy.broadcast_to(numpy.asarray(loaded, dtype=value.dtype), value.shape)
        return self._link.device.send(array.copy())


class DecorrelatedBatchNormalization(Link):
    """Decorrelated batch normalization layer (Huang et al., 2018).

    In training mode the channels of each of the ``groups`` groups are
    whitened with the statistics of the batch (see
    :func:`chainer.functions.decorrelated_batch_normalization`), and the
    running averages ``avg_mean`` and ``avg_projection`` are updated; in test
    mode the running averages are used.

    Args:
        size: the number of channels (axis 1 of the input).
        groups: the number of groups; it must divide ``size``.
        decay: the decay rate of the running statistics.
        eps: added to the diagonal of the covariance.
        dtype: the dtype of the statistics.

    Attributes:
        avg_mean: running mean, of shape ``(groups, size // groups)``.
        avg_projection: running whitening matrices, of shape
            ``(groups, size // groups, size // groups)``.
        N: the number of batches seen in fine-tuning.

    Raises:
        ValueError: when ``groups`` does not divide ``size``.
    """

    def __init__(self, size: int, groups: int = 16, decay: float = 0.9, eps: float = 2e-5,
                 dtype: DTypeSpec = numpy.float32) -> None:
        super().__init__()
        size = operator.index(size)
        groups = operator.index(groups)
        if groups <= 0 or size % groups:
            raise ValueError(f'groups ({groups}) must be a positive divisor of size ({size})')
        channels = size // groups
        dtype = chainer.get_dtype(dtype)
        self.size = size
        self.groups = groups
        self.decay = decay
        self.eps = eps
        self.avg_mean = numpy.zeros((groups, channels), dtype=dtype)
        self.register_persistent('avg_mean')
        self.avg_projection = numpy.broadcast_to(
            numpy.eye(channels, dtype=dtype), (groups, channels, channels)).copy()
        self.register_persistent('avg_projection')
        self.N = 0
        self.register_persistent('N')

    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """The size, groups, decay and eps."""
        yield 'size', self.size
        yield 'groups', self.groups
        yield 'decay', self.decay
        yield 'eps', self.eps

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the statistics; loading also accepts the pre-v6 shapes (with a warning)."""
        if isinstance(serializer, Deserializer):
            serializer = _GroupedStatisticsLoader(serializer, self)
        super().serialize(serializer)

    def forward(self, x: VariableOrArray, **kwargs: Any) -> Variable:
        """Whiten ``x`` of shape ``(N, size, ...)``.

        Args:
            x: the input.
            finetune: (keyword) if True, in training mode, make the statistics
                the average over all the batches seen.

        Raises:
            ValueError: for the removed ``test`` argument.
            TypeError: for another keyword argument.
        """
        finetune = finetune_argument(kwargs)
        if not chainer.config.train:
            return functions.fixed_decorrelated_batch_normalization(
                x, self.avg_mean, self.avg_projection, groups=self.groups)
        if chainer.config.in_recomputing:
            # forget() runs the forward pass again: the statistics were updated once.
            avg_mean = avg_projection = None
            decay = self.decay
        else:
            avg_mean, avg_projection = self.avg_mean, self.avg_projection
            if finetune:
                self.N += 1
                decay = 1. - 1. / self.N
            else:
                decay = self.decay
        return functions.decorrelated_batch_normalization(
            x, groups=self.groups, eps=self.eps, running_mean=avg_mean,
            running_projection=avg_projection, decay=decay)
