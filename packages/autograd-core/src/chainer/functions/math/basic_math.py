"""Elementwise arithmetic behind the Variable operators (+, -, *, /, **, @, abs)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

import numpy

import chainer
from chainer import _chainerx_bridge, backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode, backward_node
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs, retained_outputs
from chainer.functions.math.floor import floor
from chainer.functions.math.identity import Identity
from chainer.utils import type_check
from chainer.variable import Variable, _array_types

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _sum_to(gx: Any, shape: tuple[int, ...]) -> Any:
    if gx.shape == shape:
        return gx
    return chainer.functions.sum_to(gx, shape)


def _sum_to_array(gx: Any, shape: tuple[int, ...]) -> Any:
    """:func:`_sum_to` on arrays (the replay of a static graph)."""
    if gx.shape == shape:
        return gx
    return utils.force_array(utils.sum_to(gx, shape))


def _check_binary(in_types: Any) -> None:
    type_check.argname(in_types, ('lhs', 'rhs'))
    type_check.expect(in_types[0].dtype == in_types[1].dtype)
    type_check.expect_broadcast_shapes(in_types[0].shape, in_types[1].shape)


class _Binary(FunctionNode):
    _shapes: Any = None
    _type_check_cache_attrs = ()

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        _check_binary(in_types)


def _convert_value_to_string(value: Any) -> str:
    """The text of a constant operand in a label: a scalar as written, in parentheses when
    negative; ``'constant array'`` for an array (or a Variable holding one)."""
    if isinstance(value, Variable):
        value = value.array
    if isinstance(value, (int, float, numpy.number, numpy.bool_)):
        text = str(value)
        return f'({text})' if value < 0 else text
    if isinstance(value, _array_types):
        return 'constant array'
    raise ValueError(f'the constant of an arithmetic label must be a scalar or an array, '
                     f'not {type(value).__name__}')


class _WithConstant(FunctionNode):
    """An elementwise function of ``x`` and a scalar constant ``value``."""

    _label = ''  # the label, with ``{}`` standing for the value

    def __init__(self, value: Any) -> None:
        self.value = value

    @property
    def label(self) -> str:
        return self._label.format(_convert_value_to_string(self.value))


class Add(_Binary):
    """Elementwise ``lhs + rhs`` with broadcasting."""

    @property
    def label(self) -> str:
        return '_ + _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x0, x1 = inputs
        self._shapes = (x0.shape, x1.shape)
        return utils.force_array(x0 + x1),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        return tuple(_sum_to(gy, self._shapes[i]) for i in indexes)

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        return tuple([_sum_to_array(gy, self._shapes[i]) for i in indexes])


class AddConstant(_WithConstant):
    """``x + value`` for a scalar constant."""

    _label = '_ + {}'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return utils.force_array(x + self.value, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return grad_outputs

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return grad_outputs


class Sub(_Binary):
    """Elementwise ``lhs - rhs`` with broadcasting."""

    @property
    def label(self) -> str:
        return '_ - _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x0, x1 = inputs
        self._shapes = (x0.shape, x1.shape)
        return utils.force_array(x0 - x1),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return tuple(_sum_to(gy if i == 0 else -gy, self._shapes[i]) for i in indexes)

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        return tuple([_sum_to_array(gy if i == 0 else utils.force_array(-gy),
                                    self._shapes[i]) for i in indexes])


class SubFromConstant(_WithConstant):
    """``value - x`` for a scalar constant."""

    _label = '{} - _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return utils.force_array(self.value - x, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return -gy,


class Neg(FunctionNode):
    """``-x``."""

    @property
    def label(self) -> str:
        return '__neg__'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return utils.force_array(-inputs[0]),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        return -gy,

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        return utils.force_array(-grad_outputs[0]),


class Mul(_Binary):
    """Elementwise ``lhs * rhs`` with broadcasting."""

    @property
    def label(self) -> str:
        return '_ * _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        self._shapes = (x0.shape, x1.shape)
        return utils.force_array(x0 * x1),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        xs = retained_inputs(self)
        return tuple(_sum_to(gy * xs[1 - i], self._shapes[i]) for i in indexes)

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        assert inputs is not None
        return tuple([_sum_to_array(utils.force_array(gy * inputs[1 - i]), self._shapes[i])
                      for i in indexes])


class MulConstant(_WithConstant):
    """``x * value`` for a scalar constant."""

    _label = '_ * {}'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        x, = inputs
        return utils.force_array(x * self.value, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return grad_outputs[0] * self.value,

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[NdArray, ...] | None,
                        grad_outputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        gy, = grad_outputs
        return utils.force_array(gy * self.value, gy.dtype),


class Div(_Binary):
    """Elementwise ``lhs / rhs`` with broadcasting."""

    @property
    def label(self) -> str:
        return '_ / _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        self._shapes = (x0.shape, x1.shape)
        return utils.force_array(x0 / x1, x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x0, x1 = retained_inputs(self)
        gx0 = gy / x1
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to(gx0, self._shapes[0]))
            else:
                ret.append(_sum_to(-gx0 * x0 / x1, self._shapes[1]))
        return tuple(ret)


class DivFromConstant(_WithConstant):
    """``value / x`` for a scalar constant."""

    _label = '{} / _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(self.value / x, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        return grad_outputs[0] * (-self.value) / (x * x),


class PowVarVar(_Binary):
    """Elementwise ``lhs ** rhs`` with broadcasting."""

    @property
    def label(self) -> str:
        return '_ ** _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x0, x1 = inputs
        self._shapes = (x0.shape, x1.shape)
        return utils.force_array(x0 ** x1, x0.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x0, x1 = retained_inputs(self)
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(_sum_to(gy * x1 * x0 ** (x1 - 1), self._shapes[0]))
            else:
                log_x0 = chainer.functions.log(x0)
                ret.append(_sum_to(gy * x0 ** x1 * log_x0, self._shapes[1]))
        return tuple(ret)


class PowVarConst(_WithConstant):
    """``x ** value`` for a scalar constant."""

    _label = '_ ** {}'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        return utils.force_array(x ** self.value, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        x, = retained_inputs(self)
        value = self.value
        if value == 0:
            return gy * 0,
        if value == 1:
            return gy,
        if value == 2:
            return gy * x * 2,
        return gy * value * x ** (value - 1),


class PowConstVar(_WithConstant):
    """``value ** x`` for a scalar constant."""

    _label = '{} ** _'

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_outputs((0,))
        x, = inputs
        return utils.force_array(self.value ** x, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        y, = retained_outputs(self)
        return gy * y * float(numpy.log(self.value)),


class Absolute(FunctionNode):
    """Elementwise ``abs(x)``; its gradient is ``sign(x)``."""

    @property
    def label(self) -> str:
        return '|_|'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        return utils.force_array(abs(inputs[0])),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, = retained_inputs(self)
        xp = backend.get_array_module(x.array)
        return grad_outputs[0] * xp.sign(x.array).astype(x.dtype, copy=False),


def _const(x: Variable, value: Any) -> Any:
    """Normalize a right-hand operand: a Variable, or a constant cast to x's dtype (an
    array of any numeric dtype becomes a constant Variable of x's dtype, as in v7)."""
    if isinstance(value, Variable):
        return value
    if isinstance(value, _array_types):
        arr = cast('NdArray', value)  # (isinstance with a tuple of types narrows to object)
        if arr.ndim == 0:
            return x.dtype.type(arr)
        return Variable(arr.astype(x.dtype, copy=False), requires_grad=False)
    if isinstance(value, (int, float, numpy.number, numpy.bool_)):
        return x.dtype.type(value)
    if _chainerx_bridge.is_chainerx_array(value):
        # a ChainerX array: a constant Variable over it (the NumPy/CuPy array behind it)
        var = Variable(value, requires_grad=False)
        return _const(x, var._data) if var.ndim == 0 else Variable._init_unchecked(
            value.astype(x.dtype, copy=False), requires_grad=False)
    raise TypeError(f'unsupported operand type for Variable arithmetic: {type(value).__name__}')


@guarded
def add(*xs: VariableOrArray) -> Variable:
    """Elementwise sum of any number of variables (with broadcasting).

    Args:
        xs: one or more variables or arrays of one float dtype.

    Returns:
        Their sum, of the broadcast shape.

    Raises:
        ValueError: without inputs.
        chainer.utils.type_check.InvalidType: on a dtype or shape mismatch.
    """
    if not xs:
        raise ValueError('add needs at least one input')
    if len(xs) == 1:
        # a new output node, as v7 gives: never the input Variable itself
        return Identity().apply(xs)[0]
    y = xs[0]
    for x in xs[1:]:
        y = _add(y, x)
    return y if isinstance(y, Variable) else Variable(y, requires_grad=False)


def _binary(self: Any, rhs: Any, node: Callable[[], FunctionNode],
            const_node: Callable[[Any], FunctionNode], reflected: bool = False) -> Variable:
    """``node()`` applied to ``(self, rhs)`` (``(rhs, self)`` when ``reflected``), or
    ``const_node(c)`` applied to ``self`` when ``rhs`` is a constant (``c``, of ``self``'s
    dtype)."""
    rhs = _const(self, rhs)
    if isinstance(rhs, Variable):
        return node().apply((rhs, self) if reflected else (self, rhs))[0]
    return const_node(rhs).apply((self,))[0]


def _add(self: VariableOrArray,
         rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    return _binary(self, rhs, Add, AddConstant)


def install_variable_arithmetics() -> None:
    """Install the arithmetic operators on :class:`~chainer.Variable`."""
    v = Variable
    v.__add__ = _add
    v.__radd__ = _add
    v.__sub__ = sub
    v.__rsub__ = rsub
    v.__mul__ = mul
    v.__rmul__ = mul
    v.__truediv__ = div
    v.__rtruediv__ = rdiv
    v.__floordiv__ = floordiv
    v.__rfloordiv__ = rfloordiv
    v.__pow__ = pow
    v.__rpow__ = rpow
    v.__neg__ = neg
    v.__pos__ = lambda self: self
    v.__abs__ = absolute
    v.__matmul__ = matmul
    v.__rmatmul__ = rmatmul


@guarded
def absolute(self: VariableOrArray) -> Variable:
    """Elementwise absolute value (its gradient is ``sign(x)``, zero at zero).

    Args:
        self: input variable of a float dtype (named as in Chainer v7).

    Returns:
        A variable of the same shape and dtype.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([-1.5, 0., 2.], np.float32)
        >>> print(F.absolute(x).array)
        [1.5 0.  2. ]
    """
    return Absolute().apply((self,))[0]


# The operator functions under their Chainer v7 names (``Variable.__sub__`` is ``sub``...),
# elementwise with broadcasting (but matmul). ``self`` is a Variable (or a float array);
# ``rhs`` a Variable, an array or a scalar.

_OPERANDS = """

    Args:
        self: a Variable or float array.
        rhs: a Variable, an array or a scalar (a constant takes ``self``'s dtype).
    """


def _operator(f: Callable[[Any, Any], Variable]) -> Callable[[Any, Any], Variable]:
    """Document the operands of the binary operator function ``f`` (their shared text)."""
    f.__doc__ = (f.__doc__ or '') + _OPERANDS
    return f


def neg(self: VariableOrArray) -> Variable:
    """``-self``, elementwise (the ``-`` prefix operator of Variable)."""
    return Neg().apply((self,))[0]


@_operator
def sub(self: VariableOrArray, rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``self - rhs``."""
    return _binary(self, rhs, Sub, lambda c: AddConstant(-c))


@_operator
def rsub(self: VariableOrArray,
         rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``rhs - self`` (the reflected ``-``)."""
    return _binary(self, rhs, Sub, SubFromConstant, reflected=True)


@_operator
def mul(self: VariableOrArray, rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``self * rhs``."""
    return _binary(self, rhs, Mul, MulConstant)


@_operator
def div(self: VariableOrArray, rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``self / rhs``."""
    return _binary(self, rhs, Div, lambda c: MulConstant(self.dtype.type(1) / c))


@_operator
def rdiv(self: VariableOrArray,
         rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``rhs / self`` (the reflected ``/``)."""
    return _binary(self, rhs, Div, DivFromConstant, reflected=True)


@_operator
def floordiv(self: VariableOrArray,
             rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``floor(self / rhs)`` (differentiable: its gradient is zero)."""

    return floor(div(self, rhs))


@_operator
def rfloordiv(self: VariableOrArray,
              rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``floor(rhs / self)`` (the reflected ``//``)."""

    return floor(rdiv(self, rhs))


@_operator
def pow(self: VariableOrArray, rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``self ** rhs``."""
    return _binary(self, rhs, PowVarVar, PowVarConst)


@_operator
def rpow(self: VariableOrArray,
         rhs: VariableOrArray | float | complex | numpy.generic) -> Variable:
    """``rhs ** self`` (the reflected ``**``)."""
    return _binary(self, rhs, PowVarVar, PowConstVar, reflected=True)


@_operator
def matmul(self: VariableOrArray, rhs: VariableOrArray) -> Variable:
    """The matrix product ``self @ rhs``."""
    return chainer.functions.matmul(self, rhs)


@_operator
def rmatmul(self: VariableOrArray, rhs: VariableOrArray) -> Variable:
    """The matrix product ``rhs @ self`` (the reflected ``@``)."""
    return chainer.functions.matmul(rhs, self)


class MultiAdd(FunctionNode):
    """The sum of any number of inputs of one dtype (shapes broadcast together).

    Each input's gradient is the output gradient, summed down to the input's shape.
    """

    @property
    def label(self) -> str:
        return '_ + _ + _'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.expect(in_types.size() >= 1)
        for t in in_types[1:]:
            type_check.expect(t.dtype == in_types[0].dtype)
        type_check.expect_broadcast_shapes(*[t.shape for t in in_types])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self._in_shapes = [x.shape for x in inputs]
        y = inputs[0]
        for x in inputs[1:]:
            y = y + x
        return utils.force_array(y, inputs[0].dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        return tuple(_sum_to(gy, self._in_shapes[i]) for i in indexes)


AbsoluteGrad = backward_node(
    Absolute, doc='The gradient of :class:`Absolute`: ``(x, gy)`` to ``gy * sign(x)``.')
DivGrad = backward_node(Div, n_in=2, doc=(
    'The gradients of :class:`Div`: ``(x0, x1, gy)`` to ``(gy / x1, -gy x0 / x1 ** 2)``.'))
PowVarVarGrad = backward_node(
    PowVarVar, n_in=2,
    doc='The gradients of :class:`PowVarVar`: ``(x0, x1, gy)`` to ``(gx0, gx1)``.')


class _ConstantGrad(BackwardNode):
    """The gradient node of a primal that takes one constant, ``value``."""

    primal_class: Callable[[Any], FunctionNode]  # a node class taking the constant

    def __init__(self, value: Any) -> None:
        self.value = value

    def primal(self) -> FunctionNode:
        return self.primal_class(self.value)


class DivFromConstantGrad(_ConstantGrad):
    """The gradient of :class:`DivFromConstant`: ``(x, gy)`` to ``-gy value / x ** 2``.

    Args:
        value: the constant numerator.
    """

    primal_class = DivFromConstant


class PowVarConstGrad(_ConstantGrad):
    """The gradient of :class:`PowVarConst`: ``(x, gy)`` to ``gy value x ** (value - 1)``.

    Args:
        value: the constant exponent.
    """

    primal_class = PowVarConst


class PowConstVarGrad(_ConstantGrad):
    """The gradient of :class:`PowConstVar`: ``(x, gy)`` to ``gy log(value) value ** x``.

    Args:
        value: the constant base.
    """

    primal_class = PowConstVar
