"""Helpers shared by the normalization links: dtypes, parameters and statistics."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import initializers
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.types import DTypeSpec, InitializerSpec


def highprec_dtype(dtype: DTypeSpec | None) -> numpy.dtype:
    """The dtype of the parameters for ``dtype`` (None: ``config.dtype``; mixed16: float32)."""
    return chainer.get_dtype(dtype, map_mixed16=numpy.float32)


def initializer_of(value: Any, default: float, dtype: numpy.dtype) -> Any:
    """The initializer of a normalization parameter, producing ``dtype`` values.

    Args:
        value: None (the constant ``default``), a scalar, an array or an initializer
            (whose ``dtype`` is set to ``dtype``, as Chainer does).
        default: the constant used when ``value`` is None.
        dtype: the dtype the parameter must have.

    Raises:
        TypeError: when ``value`` is not an initializer-like.
    """
    init = initializers._get_initializer(default if value is None else value)
    if hasattr(init, 'dtype'):
        init.dtype = numpy.dtype(dtype)
    return init


def affine_params(link: Link, shape: Any, dtype: numpy.dtype, use_gamma: bool = True,
                  use_beta: bool = True, initial_gamma: InitializerSpec | None = None,
                  initial_beta: InitializerSpec | None = None) -> None:
    """Register ``gamma`` (ones by default) and ``beta`` (zeros) on ``link``.

    Each is None when its ``use_*`` flag is False; with ``shape`` None they
    stay uninitialized until :meth:`Parameter.initialize` is called.
    """
    with link.init_scope():
        link.gamma = (Parameter(initializer_of(initial_gamma, 1, dtype), shape)
                      if use_gamma else None)
        link.beta = (Parameter(initializer_of(initial_beta, 0, dtype), shape)
                     if use_beta else None)


def statistic(link: Link, value: Any, default: float, shape: tuple[int, ...],
              dtype: numpy.dtype) -> Any:
    """An array of ``shape`` on ``link``'s device, filled from ``value`` (or ``default``)."""
    init = initializer_of(value, default, dtype)
    return initializers.generate_array(init, shape, link.xp, dtype=dtype, device=link.device)


def gamma_beta(link: Link, shape: tuple[int, ...], dtype: DTypeSpec) -> tuple[Any, Any]:
    """``link.gamma`` and ``link.beta``, or ones and zeros for those not used."""
    gamma, beta = getattr(link, 'gamma'), getattr(link, 'beta')  # noqa: B009  # a norm link's
    if gamma is None or beta is None:
        xp = link.xp
        with chainer.using_device(link.device):
            if gamma is None:
                gamma = xp.ones(shape, dtype=dtype)
            if beta is None:
                beta = xp.zeros(shape, dtype=dtype)
    return gamma, beta
