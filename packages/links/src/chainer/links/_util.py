"""Helpers shared by the links of ``chainer.links``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chainer import initializers
from chainer.utils.numeric_args import as_int
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.types import InitializerSpec, ShapeSpec


class ShapeMismatchError(ValueError, AssertionError):
    """An initial array whose shape does not fit the parameter.

    A ``ValueError``; also an ``AssertionError``, which v7 raised in these cases.
    """


class ArgumentCountError(TypeError, AssertionError):
    """A link called with the wrong number of inputs.

    A ``TypeError``; also an ``AssertionError``, which v7 raised in these cases.
    """


def pair(x: Any) -> tuple[Any, Any]:
    """``(x, x)`` for a scalar, ``tuple(x)`` for a pair."""
    if isinstance(x, Sequence):
        return tuple(x)
    return x, x


def ntuple(x: Any, n: int) -> tuple[Any, ...]:
    """``(x,) * n`` for a scalar, ``tuple(x)`` for a sequence."""
    if isinstance(x, Sequence):
        return tuple(x)
    return (x,) * (n if type(n) is int else as_int(n, 'ndim'))  # numpy.int64(2) too


def shift_channels(in_channels: Any, out_channels: Any,
                   ksize: ShapeSpec | None) -> tuple[Any, Any, Any]:
    """v7's shorthand ``Link(out_channels, ksize)``: with ``ksize`` None, the first two
    arguments are the output channels and the kernel size, and the input size is lazy.

    Returns:
        ``(in_channels, out_channels, ksize)``.
    """
    if ksize is None:
        return None, in_channels, out_channels
    return in_channels, out_channels, ksize


def bias_parameter(nobias: bool, initial_bias: InitializerSpec | None, size: Any,
                   default: Any = 0) -> Any:
    """The bias Parameter of ``size`` (None when ``nobias``); zero by default."""
    if nobias:
        return None
    if initial_bias is None:
        initial_bias = default
    return Parameter(initializers._get_initializer(initial_bias), size)


def check_initial_array(name: str, initial: Any, shape: tuple[int, ...]) -> None:
    """Check that an array given as the initial value of parameter ``name`` has ``shape``.

    Raises:
        ShapeMismatchError: when it has another shape.
    """
    got = getattr(initial, 'shape', None)
    if got is not None and tuple(got) != tuple(shape):
        raise ShapeMismatchError(
            f'the initial value of {name} has shape {tuple(got)}, expected {tuple(shape)}')


def input_size_error(link: Link, name: str, expected: Any, got: Any) -> ValueError:
    """The error for an input whose size does not match the link's fixed size."""
    return ValueError(
        f'{type(link).__name__}: the input has {name} {got}, but the link was '
        f'initialized for {name} {expected}')


def inputs_with_parameter(link: Link, name: str, xs: tuple[Any, ...]) -> tuple[Any, Any]:
    """``(x, param)`` for a link that learns ``name``, else the two inputs given."""
    if name in link._params:
        if len(xs) != 1:
            raise ArgumentCountError(
                f'{type(link).__name__} learns {name}: call it with one input, not {len(xs)}')
        return xs[0], getattr(link, name)
    if len(xs) != 2:
        raise ArgumentCountError(
            f'{type(link).__name__} has no learned {name}: call it with two inputs '
            f'(x, {name}), not {len(xs)}')
    return xs[0], xs[1]
