"""TheanoFunction: a compiled Theano function (or any such callable) as a Chainer function.

Theano is unmaintained (its last release predates NumPy 1.26) and this Chainer does not
build Theano graphs itself (``L.TheanoFunction`` refuses, saying so). What Chainer v7's
``TheanoFunction`` did with an already compiled pair of functions does not need Theano:
call the forward function on the input arrays and the backward function on the inputs
and the output gradients. That part is provided, for Theano functions and for any
callables with the same contract.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.function import Function

if TYPE_CHECKING:
    from chainer.types import NdArray

#: Why ``L.TheanoFunction`` (which compiles Theano graphs) refuses to be built.
UNSUPPORTED = ('TheanoFunction is not supported: Theano is no longer maintained (its last '
               'release predates NumPy 1.26) and this Chainer does not integrate it. Write the '
               'computation with chainer.functions instead.')


def _to_cpu(a: Any) -> Any:
    return a if isinstance(a, numpy.ndarray) else backend.CpuDevice().send(a)


class TheanoFunction(Function):
    """A compiled forward/backward function pair as an (old-style) Chainer function.

    Both functions run on NumPy arrays (inputs on a GPU go to the host and the results
    come back to the inputs' device), as v7 ran Theano's CPU functions.

    Args:
        forward_func: called as ``forward_func(*inputs)``; returns the list of outputs.
        backward_func: called as ``backward_func(*inputs, *grad_outputs)`` (a missing
            output gradient is zeros); returns the list of input gradients.

    Raises:
        TypeError: when either function is not callable.
    """

    def __init__(self, forward_func: Callable[..., Any],
                 backward_func: Callable[..., Any]) -> None:
        if not callable(forward_func) or not callable(backward_func):
            raise TypeError('TheanoFunction needs callable forward_func and backward_func '
                            '(e.g. compiled Theano functions)')
        self.forward_func = forward_func
        self.backward_func = backward_func

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        device = backend.get_device_from_array(*inputs) if inputs else None
        outputs = self.forward_func(*[_to_cpu(x) for x in inputs])
        if not isinstance(outputs, (list, tuple)):
            outputs = [outputs]
        outputs = [numpy.asarray(y) for y in outputs]
        self._out_meta = [(y.shape, y.dtype) for y in outputs]
        if device is not None:
            outputs = [device.send(y) for y in outputs]
        return tuple(outputs)

    def backward(self, inputs: tuple[NdArray, ...],
                 grad_outputs: tuple[NdArray | None, ...]) -> tuple[NdArray | None, ...]:
        device = backend.get_device_from_array(*inputs) if inputs else None
        grads = [numpy.zeros(shape, dtype) if g is None else _to_cpu(g)
                 for g, (shape, dtype) in zip(grad_outputs, self._out_meta)]
        gxs = self.backward_func(*([_to_cpu(x) for x in inputs] + grads))
        if not isinstance(gxs, (list, tuple)):
            gxs = [gxs]
        result: list[Any] = []
        for x, g in zip(inputs, gxs):
            if g is None:
                result.append(None)
                continue
            g = numpy.asarray(g, dtype=x.dtype)
            result.append(device.send(g) if device is not None else g)
        return tuple(result)


def theano_function(forward_func: Callable[..., Any], backward_func: Callable[..., Any],
                    *inputs: Any) -> Any:
    """Apply :class:`TheanoFunction` of ``forward_func`` and ``backward_func`` to ``inputs``.

    Returns:
        The output Variable, or a tuple of them when there are several.
    """
    return TheanoFunction(forward_func, backward_func)(*inputs)
