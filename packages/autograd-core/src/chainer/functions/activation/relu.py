"""Rectified linear unit."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import _jit, backend, utils
from chainer.backends import cuda
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import expect_float
from chainer.functions.activation import _relu_kernels
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class ReLU(FunctionNode):
    """``max(x, 0)`` elementwise."""

    _type_check_cache_attrs = ()

    @property
    def label(self) -> str:
        return 'ReLU'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        if (type(x) is numpy.ndarray and x.size >= _KERNEL_MIN_SIZE
                and x.dtype in _jit.FLOAT_DTYPES and x.flags.c_contiguous and _jit.enabled()):
            y = numpy.empty_like(x)
            _relu_kernels.relu(x.reshape(-1), x.dtype.type(0), y.reshape(-1))
            return y,
        return utils.force_array(backend.get_array_module(x).maximum(x, 0, dtype=x.dtype)),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        y = self._retained_output_data[0]
        if not config.enable_backprop:
            g, = grad_outputs
            assert g is not None
            return Variable._new(_relu_grad(g._data, y), False),
        return ReLUGrad(y).apply(grad_outputs)

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return _relu_grad(grad_outputs[0], self._retained_output_data[0]),


# the size from which the compiled ReLU and gradient pay (below, NumPy's passes cost
# less than the call into the compiled code)
_KERNEL_MIN_SIZE = 4096


def _relu_grad(gy: NdArray, y: NdArray) -> NdArray:
    """``gy * (y > 0)`` in ``gy``'s dtype: one compiled pass where it applies."""
    if type(gy) is numpy.ndarray:
        if (gy.size >= _KERNEL_MIN_SIZE and type(y) is numpy.ndarray
                and gy.dtype == y.dtype and gy.dtype in _jit.FLOAT_DTYPES
                and gy.shape == y.shape and gy.flags.c_contiguous and y.flags.c_contiguous
                and _jit.enabled()):
            out = numpy.empty_like(gy)
            dt = gy.dtype.type
            _relu_kernels.relu_grad(gy.reshape(-1), y.reshape(-1), dt(1), dt(0),
                                    out.reshape(-1))
            return out
        g = gy * (y > 0)  # gy's dtype (times a boolean mask), a scalar for 0-dim arrays
        return g if type(g) is numpy.ndarray else utils.force_array(g, gy.dtype)
    if type(gy) is cuda.ndarray and type(y) is cuda.ndarray and gy.dtype == y.dtype:
        return _relu_kernels.relu_grad_gpu(gy, y)
    return utils.force_array(gy * (y > 0), gy.dtype)


class ReLUGrad(FunctionNode):
    """``gy * (y > 0)``, with ``y`` held as a constant (so it is linear in ``gy``)."""

    def __init__(self, y: NdArray) -> None:
        self.y = y

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = inputs
        return _relu_grad(gy, self.y),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return ReLUGrad(self.y).apply(grad_outputs)


@guarded
def relu(x: VariableOrArray) -> Variable:
    """Rectified linear unit: ``max(x, 0)``.

    Args:
        x: input variable of a float dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[-1., 0., 2.5]], np.float32)
        >>> y = F.relu(x)
        >>> y.array
        array([[0. , 0. , 2.5]], dtype=float32)
    """
    return ReLU().apply((x,))[0]


#: v7's name of the ReLU gradient node: ``ReLUGrad2(y).apply((gy,))`` gives ``gy * (y > 0)``.
ReLUGrad2 = ReLUGrad
#: v7's cuDNN variant of the ReLU gradient; one node serves every backend here.
ReLUGradCudnn = ReLUGrad
