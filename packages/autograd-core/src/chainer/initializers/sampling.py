"""Initializers for up- and down-sampling convolution filters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.initializer import Initializer

if TYPE_CHECKING:
    from chainer.types import DTypeSpec


def _bilinear_kernel(size: int) -> numpy.ndarray:
    factor = (size + 1) // 2
    center = factor - 1 if size % 2 == 1 else factor - 0.5
    og = numpy.arange(size)
    return 1 - numpy.abs(og - center) / factor


class _ChannelwiseFilter(Initializer):
    """A filter applying one 2-D kernel to each channel separately.

    A filter of shape ``(c, c, kh, kw)`` is diagonal in the channels; one of
    shape ``(c, 1, kh, kw)`` (a depthwise filter, for ``groups=c``) holds the
    kernel once per channel.
    """

    _normalize = False

    def __init__(self, interpolation: str = 'linear', dtype: DTypeSpec | None = None) -> None:
        super().__init__(dtype)
        if interpolation not in ('linear', 'nearest'):
            raise ValueError(f"interpolation must be 'linear' or 'nearest', not "
                             f'{interpolation!r}')
        self.interpolation = interpolation

    def __call__(self, array: Any) -> None:
        self._check_dtype(array)
        if array.ndim != 4:
            raise ValueError(f'a 2-D convolution filter (4 dimensions) is needed, not shape '
                             f'{array.shape}')
        c0, c1, kh, kw = array.shape
        if c1 != 1 and c0 != c1:
            raise ValueError(f'the filter must map each channel to itself: its first two '
                             f'dimensions must be equal, or the second 1 (depthwise), not '
                             f'{c0} and {c1}')
        if self.interpolation == 'linear':
            kernel = numpy.outer(_bilinear_kernel(kh), _bilinear_kernel(kw))
        else:
            kernel = numpy.ones((kh, kw))
        if self._normalize:
            kernel = kernel / kernel.sum()
        w = numpy.zeros(array.shape)
        if c1 == 1:
            w[:, 0] = kernel  # depthwise: one kernel per channel
        else:
            w[range(c0), range(c1)] = kernel
        xp = backend.get_array_module(array)
        xp.copyto(array, xp.asarray(w, dtype=array.dtype))


class UpsamplingDeconvFilter(_ChannelwiseFilter):
    """Fills a deconvolution filter that upsamples each channel separately.

    ``interpolation='linear'`` gives a bilinear kernel, ``'nearest'`` a box of
    ones. Input channel ``i`` maps to output channel ``i`` only: the filter
    has the shape ``(c, c, kh, kw)``, or ``(c, 1, kh, kw)`` for a depthwise
    (``groups=c``) deconvolution.

    Raises:
        ValueError: for an unknown interpolation, a non-4-D filter, or a shape
            other than ``(c, c, kh, kw)`` and ``(c, 1, kh, kw)``.
    """


class DownsamplingConvFilter(_ChannelwiseFilter):
    """Fills a convolution filter that averages each channel separately.

    ``interpolation='linear'`` gives a normalized bilinear kernel,
    ``'nearest'`` a normalized box.

    Raises:
        ValueError: as for :class:`UpsamplingDeconvFilter`.
    """

    _normalize = True
