"""Converters of chainer.functions.math.

Constants (the ``value`` of :class:`AddConstant` and its kin, clip bounds, axes) are
``Constant`` nodes of the input's dtype, not initializers. ``value`` is read as an
attribute of the node, so a user function wrapped by :mod:`onnx_chainer.replace_func`
under one of these names converts the same way when its argument is named ``value``.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy
import onnx
import onnx.numpy_helper
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions.array import scatter_add_flat
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.functions.math.basic_math import MultiAdd
    from chainer.functions.math.batch_l2_norm_squared import BatchL2NormSquared
    from chainer.functions.math.clip import Clip
    from chainer.functions.math.cumsum import Cumsum
    from chainer.functions.math.det import Det
    from chainer.functions.math.einsum import EinSum
    from chainer.functions.math.erfc import Erfc
    from chainer.functions.math.exponential import Log
    from chainer.functions.math.exponential_m1 import Expm1
    from chainer.functions.math.fix import Fix
    from chainer.functions.math.fmod import Fmod
    from chainer.functions.math.identity import Identity
    from chainer.functions.math.linear_interpolate import LinearInterpolate
    from chainer.functions.math.logarithm_1p import Log1p
    from chainer.functions.math.matmul import MatMul
    from chainer.functions.math.sparse_matmul import CooMatMul
    from chainer.functions.math.sqrt import RsqrtGPU
    from chainer.functions.math.square import Square
    from chainer.functions.math.squared_difference import SquaredDifference
    from chainer.functions.math.tensordot import TensorDot
    from chainer.functions.math.trigonometric import Arctan2

Converter = Callable[..., tuple[NodeProto, ...]]


# -- helpers ----------------------------------------------------------------------
def _op(gb: onnx_helper.GraphBuilder, op_type: str, inputs: Sequence[str],
        **attrs: Any) -> str:
    """``gb.op`` of a one-output operator: the name of its output."""
    out = gb.op(op_type, inputs, **attrs)
    assert isinstance(out, str)
    return out


def _dtype(func: Any, index: int = 0) -> numpy.dtype:
    return numpy.dtype(func.inputs[index].dtype)


def _ndim(func: Any, index: int = 0) -> int:
    return len(func.inputs[index].shape)


def _const(context: Context, value: Any, dtype: Any, name: str) -> str:
    """A Constant node holding ``value`` cast to ``dtype``."""
    return context.add_const(numpy.asarray(value, dtype=dtype), name)


def _axes(axis: int | Sequence[int] | None, ndim: int) -> list[int] | None:
    """``axis`` (None, an int or a tuple, negatives allowed) as sorted non-negative axes."""
    if axis is None:
        return None
    if isinstance(axis, (int, numpy.integer)):
        axis = (int(axis),)
    return sorted(int(a) % ndim if ndim else int(a) for a in axis)


def _elementwise(op_type: str, first_opset: int, chainer_name: str) -> Converter:
    """A converter writing one ``op_type`` node over all the function's inputs."""
    @support((first_opset,))
    def convert(func: Any, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
        return onnx_helper.make_node(op_type, input_names, output_names),
    convert.__doc__ = f'{chainer_name} -> {op_type} (opset {first_opset}).'
    convert.__name__ = f'convert_{chainer_name}'
    return convert


def _with_constant(op_type: str, constant_first: bool, chainer_name: str) -> Converter:
    """A converter of a node ``x op value`` (``value op x`` when ``constant_first``) whose
    ``value`` attribute becomes a Constant of x's dtype."""
    @support((7,))
    def convert(func: Any, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
        c = _const(context, func.value, _dtype(func), 'value')
        x = input_names[0]
        inputs = [c, x] if constant_first else [x, c]
        return onnx_helper.make_node(op_type, inputs, output_names),
    side = 'value, x' if constant_first else 'x, value'
    convert.__doc__ = f'{chainer_name} -> {op_type}({side}), value a Constant (opset 7).'
    convert.__name__ = f'convert_{chainer_name}'
    return convert


def _reduce_node(op_type: str, x: str, axes: list[int] | None, keepdims: bool,
                 axes_as_input: bool, output_names: list[str], context: Context) -> NodeProto:
    """One reduction node over ``axes`` (None: every axis), ``axes`` an attribute or, with
    ``axes_as_input``, a Constant input."""
    inputs = [x]
    attrs: dict[str, Any] = {'keepdims': int(keepdims)}
    if axes_as_input:
        if axes is not None:
            inputs.append(context.add_const(numpy.array(axes, numpy.int64), 'axes'))
    else:
        attrs['axes'] = axes
    return onnx_helper.make_node(op_type, inputs, output_names, **attrs)


def _reduce(op_type: str, axes_input_from: int, has_keepdims: bool,
            chainer_name: str) -> Converter:
    """A converter of a reduction over ``func.axis`` (None: every axis) with
    ``func.keepdims``; ``axes`` is an attribute before ``axes_input_from``, an input from it."""
    @support((7, axes_input_from))
    def convert(func: Any, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
        keepdims = bool(func.keepdims) if has_keepdims else False
        return _reduce_node(op_type, input_names[0], _axes(func.axis, _ndim(func)), keepdims,
                            opset_version >= axes_input_from, output_names, context),
    convert.__doc__ = (f'{chainer_name} -> {op_type} (opset 7; axes an input from opset '
                       f'{axes_input_from}).')
    convert.__name__ = f'convert_{chainer_name}'
    return convert


def _transpose_last(gb: onnx_helper.GraphBuilder, x: str, ndim: int) -> str:
    perm = list(range(ndim))
    perm[-2], perm[-1] = perm[-1], perm[-2]
    return _op(gb, 'Transpose', [x], perm=perm)


# -- arithmetic -------------------------------------------------------------------
convert_Add = _elementwise('Add', 7, 'Add')
convert_Sub = _elementwise('Sub', 7, 'Sub')
convert_Mul = _elementwise('Mul', 7, 'Mul')
convert_Div = _elementwise('Div', 7, 'Div')
convert_Neg = _elementwise('Neg', 7, 'Neg')
convert_Absolute = _elementwise('Abs', 7, 'Absolute')
convert_PowVarVar = _elementwise('Pow', 7, 'PowVarVar')
convert_Maximum = _elementwise('Max', 7, 'Maximum')
convert_Minimum = _elementwise('Min', 7, 'Minimum')

convert_AddConstant = _with_constant('Add', False, 'AddConstant')
convert_SubFromConstant = _with_constant('Sub', True, 'SubFromConstant')
convert_MulConstant = _with_constant('Mul', False, 'MulConstant')
convert_DivFromConstant = _with_constant('Div', True, 'DivFromConstant')
convert_PowVarConst = _with_constant('Pow', False, 'PowVarConst')
convert_PowConstVar = _with_constant('Pow', True, 'PowConstVar')


@support((7, 8))
def convert_MultiAdd(func: MultiAdd, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """MultiAdd -> Sum (broadcasting from opset 8); a chain of Add at opset 7."""
    if opset_version >= 8 or len(input_names) == 1:
        return onnx_helper.make_node('Sum', input_names, output_names),
    gb = onnx_helper.GraphBuilder()
    y = input_names[0]
    for x in input_names[1:]:
        y = _op(gb, 'Add', [y, x])
    return gb.nodes(output_names)


@support((7,))
def convert_Identity(func: Identity, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Identity (any number of inputs) -> one Identity per input."""
    return tuple(onnx_helper.make_node('Identity', [x], [y])
                 for x, y in zip(input_names, output_names))


@support((7,))
def convert_Square(func: Square, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Square -> Mul(x, x)."""
    x = input_names[0]
    return onnx_helper.make_node('Mul', [x, x], output_names),


@support((7,))
def convert_SquaredDifference(func: SquaredDifference, opset_version: int, input_names: list[str],
                              output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SquaredDifference -> Sub, then Mul of the difference by itself."""
    gb = onnx_helper.GraphBuilder()
    d = _op(gb, 'Sub', input_names)
    gb.op_output_named('Mul', [d, d], output_names)
    return gb.nodes()


@support((7,))
def convert_LinearInterpolate(func: LinearInterpolate, opset_version: int, input_names: list[str],
                              output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LinearInterpolate (p, x, y) -> p * (x - y) + y with Sub, Mul and Add."""
    p, x, y = input_names
    gb = onnx_helper.GraphBuilder()
    d = _op(gb, 'Sub', [x, y])
    t = _op(gb, 'Mul', [p, d])
    gb.op_output_named('Add', [t, y], output_names)
    return gb.nodes()


@support((10,))
def convert_Fmod(func: Fmod, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Fmod -> Mod with fmod=1 (opset 10)."""
    return onnx_helper.make_node('Mod', input_names, output_names, fmod=1),


@support((7, 11))
def convert_Clip(func: Clip, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Clip -> Clip (bounds as attributes before opset 11, Constant inputs from 11); bounds
    that are arrays -> Max and Min with Constants of x's shape."""
    x = input_names[0]
    dtype = _dtype(func)
    bounds = [func.x_min, func.x_max]
    if any(b is not None and numpy.ndim(b) > 0 for b in bounds):
        shape = tuple(func.inputs[0].shape)
        gb = onnx_helper.GraphBuilder()
        y = x
        for bound, op_type, name in zip(bounds, ('Max', 'Min'), ('min', 'max')):
            if bound is not None:
                c = _const(context, numpy.broadcast_to(numpy.asarray(bound, dtype), shape),
                           dtype, name)
                y = _op(gb, op_type, [y, c])
        return gb.nodes(output_names)
    if opset_version >= 11:
        inputs = [x] + ['' if b is None else _const(context, b, dtype, name)
                        for b, name in zip(bounds, ('min', 'max'))]
        while inputs[-1] == '':
            inputs.pop()
        return onnx_helper.make_node('Clip', inputs, output_names),
    return onnx_helper.make_node(
        'Clip', [x], output_names, min=None if func.x_min is None else float(func.x_min),
        max=None if func.x_max is None else float(func.x_max)),


# -- elementwise functions ----------------------------------------------------------
convert_Arccos = _elementwise('Acos', 7, 'Arccos')
convert_Arcsin = _elementwise('Asin', 7, 'Arcsin')
convert_Arctan = _elementwise('Atan', 7, 'Arctan')
convert_Arctanh = _elementwise('Atanh', 9, 'Arctanh')
convert_Sin = _elementwise('Sin', 7, 'Sin')
convert_Cos = _elementwise('Cos', 7, 'Cos')
convert_Tan = _elementwise('Tan', 7, 'Tan')
convert_Sinh = _elementwise('Sinh', 9, 'Sinh')
convert_Cosh = _elementwise('Cosh', 9, 'Cosh')
convert_Exp = _elementwise('Exp', 7, 'Exp')
convert_Sqrt = _elementwise('Sqrt', 7, 'Sqrt')
convert_Erf = _elementwise('Erf', 9, 'Erf')
convert_Sign = _elementwise('Sign', 9, 'Sign')
convert_Floor = _elementwise('Floor', 7, 'Floor')
convert_Ceil = _elementwise('Ceil', 7, 'Ceil')


@support((7,))
def convert_Log(func: Log, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Log (base e, 2 or 10) -> Log, divided by a Constant ln(base) for base 2 and 10."""
    base = getattr(func, 'base', 'e')
    if base == 'e':
        return onnx_helper.make_node('Log', input_names, output_names),
    gb = onnx_helper.GraphBuilder()
    y = _op(gb, 'Log', input_names)
    c = _const(context, math.log(float(base)), _dtype(func), 'log_base')
    gb.op_output_named('Div', [y, c], output_names)
    return gb.nodes()


@support((7,))
def convert_Log1p(func: Log1p, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Log1p -> Log(x + 1) (less exact than log1p for |x| << 1)."""
    gb = onnx_helper.GraphBuilder()
    t = _op(gb, 'Add', [input_names[0], _const(context, 1, _dtype(func), 'one')])
    gb.op_output_named('Log', [t], output_names)
    return gb.nodes()


@support((7,))
def convert_Expm1(func: Expm1, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Expm1 -> Exp(x) - 1 (less exact than expm1 for |x| << 1)."""
    gb = onnx_helper.GraphBuilder()
    t = _op(gb, 'Exp', input_names)
    gb.op_output_named('Sub', [t, _const(context, 1, _dtype(func), 'one')], output_names)
    return gb.nodes()


@support((7,))
def convert_RsqrtGPU(func: RsqrtGPU, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """RsqrtGPU (F.rsqrt as one node) -> Reciprocal(Sqrt(x))."""
    gb = onnx_helper.GraphBuilder()
    t = _op(gb, 'Sqrt', input_names)
    gb.op_output_named('Reciprocal', [t], output_names)
    return gb.nodes()


@support((9,))
def convert_Erfc(func: Erfc, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Erfc -> 1 - Erf(x) (opset 9; less exact than erfc where erf(x) is near 1)."""
    gb = onnx_helper.GraphBuilder()
    t = _op(gb, 'Erf', input_names)
    gb.op_output_named('Sub', [_const(context, 1, _dtype(func), 'one'), t], output_names)
    return gb.nodes()


@support((9,))
def convert_Fix(func: Fix, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Fix (round toward zero) -> Sign(x) * Floor(Abs(x)) (opset 9)."""
    x = input_names[0]
    gb = onnx_helper.GraphBuilder()
    s = _op(gb, 'Sign', [x])
    f = _op(gb, 'Floor', [_op(gb, 'Abs', [x])])
    gb.op_output_named('Mul', [s, f], output_names)
    return gb.nodes()


# -- reductions and scans -------------------------------------------------------------
convert_Sum = _reduce('ReduceSum', 13, True, 'Sum')
convert_Mean = _reduce('ReduceMean', 18, True, 'Mean')
convert_Prod = _reduce('ReduceProd', 18, True, 'Prod')
convert_Max = _reduce('ReduceMax', 18, True, 'Max')
convert_Min = _reduce('ReduceMin', 18, True, 'Min')
convert_LogSumExp = _reduce('ReduceLogSumExp', 18, False, 'LogSumExp')


@support((7, 18))
def convert_BatchL2NormSquared(func: BatchL2NormSquared, opset_version: int,
                               input_names: list[str],
                               output_names: list[str], context: Context
                               ) -> tuple[NodeProto, ...]:
    """BatchL2NormSquared -> ReduceSumSquare over every axis but the first (axes an input
    from opset 18)."""
    axes = list(range(1, _ndim(func)))
    return _reduce_node('ReduceSumSquare', input_names[0], axes, False, opset_version >= 18,
                        output_names, context),


def _arg_reduce(op_type: str, chainer_name: str) -> Converter:
    @support((7, 13))
    def convert(func: Any, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
        gb = onnx_helper.GraphBuilder()
        x = input_names[0]
        if func.axis is None:
            # (1, size), its index along axis 1, then the leading axis squeezed away; no
            # int64 shape constant, which would be an initializer before opset 9
            flat = _op(gb, 'Flatten', [x], axis=0)
            i = _op(gb, op_type, [flat], axis=1, keepdims=0)
            if opset_version >= 13:
                zero = context.add_const(numpy.array([0], numpy.int64), 'axes')
                i = _op(gb, 'Squeeze', [i, zero])
            else:
                i = _op(gb, 'Squeeze', [i], axes=[0])
        else:
            i = _op(gb, op_type, [x], axis=int(func.axis) % _ndim(func), keepdims=0)
        gb.op_output_named('Cast', [i], output_names, to=onnx.TensorProto.INT32)
        return gb.nodes()
    convert.__doc__ = (f'{chainer_name} -> {op_type} (keepdims=0) and Cast to int32; axis '
                       'None: Flatten to (1, size) first and Squeeze after (axes an input '
                       'from opset 13).')
    convert.__name__ = f'convert_{chainer_name}'
    return convert


convert_ArgMax = _arg_reduce('ArgMax', 'ArgMax')
convert_ArgMin = _arg_reduce('ArgMin', 'ArgMin')


@support((11,))
def convert_Cumsum(func: Cumsum, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Cumsum -> CumSum with the axis a Constant input (opset 11)."""
    axis = context.add_const(numpy.array(int(func.axis), numpy.int64), 'axis')
    return onnx_helper.make_node('CumSum', [input_names[0], axis], output_names),


# -- linear algebra ---------------------------------------------------------------------
@support((7,))
def convert_MatMul(func: MatMul, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """MatMul and BatchMatMul (transa, transb) -> MatMul, with a Transpose of the last two
    axes of each transposed operand."""
    gb = onnx_helper.GraphBuilder()
    a, b = input_names
    if func.transa:
        a = _transpose_last(gb, a, _ndim(func, 0))
    if func.transb:
        b = _transpose_last(gb, b, _ndim(func, 1))
    gb.op_output_named('MatMul', [a, b], output_names)
    return gb.nodes()


convert_BatchMatMul = convert_MatMul


@support((11,))
def convert_Det(func: Det, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Det and BatchDet -> Det, which takes batches too (opset 11)."""
    return onnx_helper.make_node('Det', input_names, output_names),


convert_BatchDet = convert_Det


@support((12,))
def convert_EinSum(func: EinSum, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """EinSum -> Einsum with the same equation (opset 12)."""
    equation = ','.join(func.in_subs) + '->' + func.out_sub
    return onnx_helper.make_node('Einsum', input_names, output_names, equation=equation),


@support((12,))
def convert_TensorDot(func: TensorDot, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """TensorDot -> Einsum contracting a_axes with b_axes (opset 12)."""
    a_ndim, b_ndim = _ndim(func, 0), _ndim(func, 1)
    letters = iter('abcdefghijklmnopqrstuvwxyz')
    a_sub = [next(letters) for _ in range(a_ndim)]
    b_sub = ['' for _ in range(b_ndim)]
    for i, j in zip(func.a_axes, func.b_axes):
        b_sub[int(j) % b_ndim] = a_sub[int(i) % a_ndim]
    for j in range(b_ndim):
        if not b_sub[j]:
            b_sub[j] = next(letters)
    contracted = {a_sub[int(i) % a_ndim] for i in func.a_axes}
    out = [c for c in a_sub if c not in contracted] + [c for c in b_sub if c not in contracted]
    equation = f'{"".join(a_sub)},{"".join(b_sub)}->{"".join(out)}'
    return onnx_helper.make_node('Einsum', input_names, output_names, equation=equation),


@support((9,))
def convert_Arctan2(func: Arctan2, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Arctan2 (``arctan2(x1, x2)``, the angle of ``(x2, x1)``) -> Atan of ``x1 / x2``
    plus ``pi`` (``-pi`` where ``x1 < 0``) where ``x2 < 0``, and 0 where both are 0
    (Div, Atan, Less, Where, Add; And, Not, Greater for the origin); Where needs opset 9.
    Signed zeros are not told apart (``arctan2(-0., -1.)`` gives ``pi``, not ``-pi``)."""
    x1, x2 = input_names
    dtype = numpy.result_type(_dtype(func, 0), _dtype(func, 1))
    gb = onnx_helper.GraphBuilder()
    zero = _const(context, 0, dtype, 'zero')
    pi = _const(context, math.pi, dtype, 'pi')
    angle = _op(gb, 'Atan', [_op(gb, 'Div', [x1, x2])])
    turn = _op(gb, 'Where', [_op(gb, 'Less', [x1, zero]), _op(gb, 'Neg', [pi]), pi])
    shifted = _op(gb, 'Add', [angle, _op(gb, 'Where', [_op(gb, 'Less', [x2, zero]), turn,
                                                        zero])])

    def is_zero(x: str) -> str:
        return _op(gb, 'Not', [_op(gb, 'Or', [_op(gb, 'Less', [x, zero]),
                                               _op(gb, 'Greater', [x, zero])])])

    origin = _op(gb, 'And', [is_zero(x1), is_zero(x2)])
    gb.op_output_named('Where', [origin, zero, shifted], output_names)
    return gb.nodes()


@support((11, 16))
def convert_CooMatMul(func: CooMatMul, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """CooMatMul (F.sparse_matmul of a COO matrix and a dense one) -> the dense ``op(S)``
    built from the values (padding entries dropped by a Gather) at the constant positions
    of the pattern (ConstantOfShape of zeros, ScatterElements: repeated entries summed with
    ``reduction='add'`` from opset 16, raising ValueError before it), Reshape, MatMul with
    ``op(D)`` (Transpose for ``transb``), Transpose for ``transc``; Cast to the output
    dtype where the inputs differ from it."""
    data, dense = input_names
    row, col = to_numpy(func.sp_row), to_numpy(func.sp_col)
    rows, cols = (col, row) if func.transa else (row, col)
    n_rows, n_cols = func.sp_shape[::-1] if func.transa else func.sp_shape
    batched = row.ndim == 2
    n_batch = row.shape[0] if batched else 1
    rows, cols = rows.reshape(n_batch, -1), cols.reshape(n_batch, -1)
    valid = ((rows >= 0) & (cols >= 0)).reshape(-1)
    positions = (numpy.arange(n_batch)[:, None] * (n_rows * n_cols) + rows * n_cols
                 + cols).reshape(-1)[valid]
    out_dtype = numpy.dtype(func.dtype) if func.dtype is not None else numpy.result_type(
        _dtype(func, 0), _dtype(func, 1))
    to = onnx.helper.np_dtype_to_tensor_dtype(out_dtype)
    gb = onnx_helper.GraphBuilder()
    values = _op(gb, 'Reshape', [data, context.add_const(numpy.array([-1], numpy.int64),
                                                         'flat')])
    if not valid.all():
        values = _op(gb, 'Gather', [values, context.add_const(
            numpy.flatnonzero(valid).astype(numpy.int64), 'valid')], axis=0)
    if _dtype(func, 0) != out_dtype:
        values = _op(gb, 'Cast', [values], to=to)
    size = context.add_const(numpy.array([n_batch * n_rows * n_cols], numpy.int64), 'size')
    zeros = _op(gb, 'ConstantOfShape', [size],
                value=onnx.numpy_helper.from_array(numpy.zeros(1, out_dtype)))
    sparse = scatter_add_flat(gb, context, opset_version, zeros, positions, values,
                              'CooMatMul', base_is_zero=True)
    shape = (n_batch, n_rows, n_cols) if batched else (n_rows, n_cols)
    sparse = _op(gb, 'Reshape', [sparse, context.add_const(numpy.array(shape, numpy.int64),
                                                           'sparse_shape')])
    if _dtype(func, 1) != out_dtype:
        dense = _op(gb, 'Cast', [dense], to=to)
    swap = [0, 2, 1] if batched else [1, 0]
    if func.transb:
        dense = _op(gb, 'Transpose', [dense], perm=swap)
    if func.transc:
        y = _op(gb, 'MatMul', [sparse, dense])
        gb.op_output_named('Transpose', [y], output_names, perm=swap)
    else:
        gb.op_output_named('MatMul', [sparse, dense], output_names)
    return gb.nodes()
