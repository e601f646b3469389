"""Hurwitz zeta function (needs SciPy on the CPU)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import array_of, expect_float, special_call, sum_grad
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.utils.type_check import TypeInfoTuple


class Zeta(FunctionNode):
    """Elementwise Hurwitz zeta ``sum_k (k + q) ** -x`` for a constant ``x``."""

    def __init__(self, x: float | NdArray) -> None:
        self.x = x

    @property
    def label(self) -> str:
        return 'zeta'

    def check_type_forward(self, in_types: TypeInfoTuple) -> None:
        expect_float(in_types, ('q',))

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        q, = inputs
        x = self.x
        if hasattr(x, 'dtype'):
            xp = backend.get_array_module(q)
            x = xp.asarray(x)
            if x.dtype.kind != 'f':
                x = x.astype(q.dtype)
        y = special_call('zeta', q.dtype, x, q)
        return utils.force_array(y, q.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        q, = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        # d/dq zeta(x, q) = -x zeta(x + 1, q)
        x = self.x
        z = Zeta(x + 1).apply((q,))[0]
        g = gy * z * _neg_const(x, z)
        return sum_grad(g, q.shape),


def _neg_const(x: Any, like: Variable) -> Any:
    if hasattr(x, 'dtype'):
        xp = backend.get_array_module(like.array)
        return Variable(xp.asarray(-x, dtype=like.dtype), requires_grad=False)
    return -x


@guarded
def zeta(x: float | VariableOrArray, q: VariableOrArray) -> Variable:
    """Elementwise Hurwitz zeta function ``zeta(x, q) = sum_{k>=0} (k + q) ** -x``.

    Differentiable with respect to ``q``; ``x`` is a constant. Computed with
    ``scipy.special`` on the CPU and ``cupyx.scipy.special`` on the GPU.

    Args:
        x: the exponent: a scalar or an array (not differentiated) broadcasting with ``q``.
        q: input variable of a float dtype.

    Returns:
        A variable of the broadcast shape and the dtype of ``q``.

    Raises:
        ImportError: on the CPU without SciPy (``pip install chainer-autograd-core[scipy]``).
    """
    return Zeta(array_of(x) if isinstance(x, Variable) else x).apply((q,))[0]
