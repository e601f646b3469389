"""Helpers shared by the noise functions (keyword arguments, given noise, uniform samples)."""

from __future__ import annotations

from typing import Any

import numpy

from chainer.utils import type_check


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


def expect_noise_shape(noise: Any, name: str, in_type: Any, in_name: str) -> None:
    """Type-check that a given noise array (``mask``, ``eps``) has the shape of an input."""
    shape = type_check.eval(in_type.shape)
    if tuple(noise.shape) != shape:
        raise type_check.InvalidType(f'{name} of shape {shape}', f'{name} of shape {noise.shape}',
                                     f'{name} must have the shape of {in_name}')
