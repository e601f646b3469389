"""Polygamma functions (needs SciPy on the CPU)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import array_of, special_call, sum_grad
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class PolyGamma(FunctionNode):
    """Elementwise ``n``-th derivative of the digamma function."""

    @property
    def label(self) -> str:
        return 'polygamma'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('n', 'x'))
        n, x = in_types
        type_check.expect(n.dtype.kind == 'i', x.dtype.kind == 'f')
        type_check.expect_broadcast_shapes(n.shape, x.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        n, x = inputs
        return special_call('polygamma', x.dtype, n, x),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        n, x = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        ret: list[Variable | None] = []
        for i in indexes:
            if i == 0:
                ret.append(None)
            else:
                g = gy * PolyGamma().apply((utils.force_array(n.array + 1), x))[0]
                ret.append(sum_grad(g, x.shape))
        return tuple(ret)


@guarded
def polygamma(n: int | VariableOrArray, x: VariableOrArray) -> Variable:
    """Elementwise polygamma function ``psi^(n)(x)``, the ``n``-th derivative of digamma.

    Computed with ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        n: order: an int or an integer array (not differentiated), broadcasting with ``x``.
        x: input variable of a float dtype.

    Returns:
        A variable of the broadcast shape and the dtype of ``x``.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
        chainer.utils.type_check.InvalidType: for a non-integer ``n`` or a non-float ``x``.
    """
    na = array_of(n) if isinstance(n, Variable) else n
    if isinstance(na, (int, numpy.generic)) or not hasattr(na, 'dtype'):  # a scalar
        xp = backend.get_array_module(array_of(x))
        order = xp.asarray(na, dtype=numpy.int64 if isinstance(na, (int, numpy.integer))
                           else None)
    else:
        order = na
    return PolyGamma().apply((order, x))[0]
