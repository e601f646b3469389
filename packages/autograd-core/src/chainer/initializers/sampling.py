"""Initializers for up- and down-sampling convolution filters."""

from __future__ import annotations

from typing import Any

import numpy

from chainer import backend
from chainer.initializer import Initializer


def _bilinear_kernel(size: int) -> numpy.ndarray:
    factor = (size + 1) // 2
    center = factor - 1 if size % 2 == 1 else factor - 0.5
    og = numpy.arange(size)
    return 1 - numpy.abs(og - center) / factor


class _ChannelwiseFilter(Initializer):
    """A filter applying one 2-D kernel to each channel separately (a diagonal filter)."""

    _normalize = False

    def __init__(self, interpolation: str = 'linear', dtype: Any = None) -> None:
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
        if c0 != c1:
            raise ValueError(f'input and output channels differ: {c0} != {c1}')
        if self.interpolation == 'linear':
            kernel = numpy.outer(_bilinear_kernel(kh), _bilinear_kernel(kw))
        else:
            kernel = numpy.ones((kh, kw))
        if self._normalize:
            kernel = kernel / kernel.sum()
        w = numpy.zeros(array.shape)
        w[range(c0), range(c1)] = kernel
        xp = backend.get_array_module(array)
        xp.copyto(array, xp.asarray(w, dtype=array.dtype))


class UpsamplingDeconvFilter(_ChannelwiseFilter):
    """Fills a deconvolution filter that upsamples each channel separately.

    ``interpolation='linear'`` gives a bilinear kernel, ``'nearest'`` a box of
    ones. Input channel ``i`` maps to output channel ``i`` only.

    Raises:
        ValueError: for an unknown interpolation, a non-4-D filter, or differing
            numbers of input and output channels.
    """


class DownsamplingConvFilter(_ChannelwiseFilter):
    """Fills a convolution filter that averages each channel separately.

    ``interpolation='linear'`` gives a normalized bilinear kernel,
    ``'nearest'`` a normalized box.

    Raises:
        ValueError: as for :class:`UpsamplingDeconvFilter`.
    """

    _normalize = True
