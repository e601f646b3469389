"""Helpers shared by the noise functions (keyword arguments, uniform samples)."""

from __future__ import annotations

from typing import Any

import numpy


def parse_kwargs(fname: str, kwargs: dict[str, Any], **defaults: Any) -> tuple[Any, ...]:
    """Pop the known keyword arguments of ``fname`` (in ``defaults`` order).

    Raises:
        ValueError: for ``train`` (removed in Chainer v2: use ``chainer.using_config``).
        TypeError: for any other unknown keyword argument.
    """
    if 'train' in kwargs:
        raise ValueError('train argument is not supported anymore. '
                         "Use chainer.using_config('train', ...)")
    values = tuple(kwargs.pop(k, v) for k, v in defaults.items())
    if kwargs:
        raise TypeError(f'{fname}() got unexpected keyword argument(s): {", ".join(kwargs)}')
    return values


def uniform(xp: Any, shape: tuple[int, ...]) -> Any:
    """Uniform samples in [0, 1) from the global random state of ``xp``."""
    if xp is numpy:
        return numpy.random.random_sample(shape)
    return xp.random.random_sample(shape, dtype=numpy.float32)
