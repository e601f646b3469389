"""Helpers of the communication functions: delegate variables and missing gradients."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend

if TYPE_CHECKING:
    from chainer.types import GradOutputs, NdArray


def delegate_array(xp: Any = numpy) -> Any:
    """The data of a delegate variable: a 0-dim float32 zero.

    A delegate variable stands for a communication in the graph. Being a scalar,
    ``delegate.backward()`` starts a backward pass from it without a given gradient.
    """
    return xp.zeros((), dtype=numpy.float32)


def dummy_input(xp: Any = numpy) -> chainer.Variable:
    """A leaf delegate that requires a gradient, so that backward reaches the function
    it is given to (whose real inputs, if any, need none)."""
    return chainer.Variable(delegate_array(xp), requires_grad=True)


def zero_grad_of(array: Any) -> chainer.Variable:
    """A zero gradient for an input holding ``array`` (keeps the graph behind it alive)."""
    return chainer.Variable(backend.get_array_module(array).zeros_like(array))


def fill_grads(grads: GradOutputs, specs: list[tuple[Any, Any, Any]]) -> list[NdArray]:
    """Gradient arrays of outputs: ``grads`` (Variables or None), None replaced by zeros.

    Args:
        grads: the output gradients.
        specs: ``(xp, shape, dtype)`` of each output.
    """
    out = []
    for g, (xp, shape, dtype) in zip(grads, specs):
        out.append(xp.zeros(shape, dtype) if g is None else g.array)
    return out


def spec(array: Any) -> tuple[Any, Any, Any]:
    """``(xp, shape, dtype)`` of ``array``, to make its zero gradient later."""
    return backend.get_array_module(array), array.shape, array.dtype


def as_variables(arrays: Any) -> tuple[chainer.Variable | None, ...]:
    """Each gradient array as a Variable (None stays None)."""
    return tuple(None if a is None else chainer.Variable(a) for a in arrays)


def xp_of(values: Any) -> Any:
    """The array module of the first array or Variable in ``values`` (NumPy if none)."""
    for v in values:
        if v is not None:
            return backend.get_array_module(v)
    return numpy


def to_xp(a: Any, xp: Any) -> Any:
    """``a`` as an array of the module ``xp`` (moved between host and GPU if needed)."""
    if backend.get_array_module(a) is xp:
        return a
    if xp is numpy:
        return a.get()
    return xp.asarray(a)
