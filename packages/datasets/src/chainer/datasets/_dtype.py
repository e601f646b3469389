"""The default float dtype of the datasets: ``chainer.config.dtype`` when available."""

from __future__ import annotations

from typing import Any

import numpy


def get_dtype(dtype: Any = None) -> numpy.dtype:
    """``dtype`` as a NumPy dtype; ``None`` means Chainer's default float type.

    Resolved by ``chainer.get_dtype`` (which follows ``chainer.config.dtype`` and maps
    ``'mixed16'``) when chainer-autograd-core is installed; otherwise ``None`` is
    float32.
    """
    try:
        from chainer import get_dtype as chainer_get_dtype  # layout: optional[config]
    except ImportError:
        return numpy.dtype(numpy.float32 if dtype is None else dtype)
    return numpy.dtype(chainer_get_dtype(dtype))
