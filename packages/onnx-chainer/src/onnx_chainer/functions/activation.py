"""Converters of chainer.functions' activations.

Also holds small graph helpers the loss and normalization converters share
(:func:`softmax_along`, :func:`reduce_op`, :func:`reshape_to`, :func:`clip`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.functions.activation.clipped_relu import ClippedReLU
    from chainer.functions.activation.crelu import CReLU
    from chainer.functions.activation.elu import ELU
    from chainer.functions.activation.hard_sigmoid import HardSigmoid
    from chainer.functions.activation.leaky_relu import LeakyReLU
    from chainer.functions.activation.log_softmax import LogSoftmax
    from chainer.functions.activation.prelu import PReLUFunction
    from chainer.functions.activation.relu import ReLU
    from chainer.functions.activation.rrelu import RReLU
    from chainer.functions.activation.sigmoid import Sigmoid
    from chainer.functions.activation.softmax import Softmax
    from chainer.functions.activation.softplus import Softplus
    from chainer.functions.activation.swish import Swish
    from chainer.functions.activation.tanh import Tanh
    from chainer.types import DTypeSpec

# the opset from which each reducing operator takes its axes as an input, not an attribute
_AXES_INPUT_SINCE = {'ReduceSum': 13}
_AXES_INPUT_DEFAULT = 18  # ReduceMean, ReduceMax, ReduceL2, ReduceSumSquare, ...


def _scalar(value: float, dtype: DTypeSpec) -> numpy.ndarray:
    return numpy.asarray(value, dtype=numpy.dtype(dtype))


def input_ndim(func: FunctionNode, index: int = 0) -> int:
    """The number of axes of the function's ``index``-th input."""
    return len(func.inputs[index].shape)


def input_dtype(func: FunctionNode, index: int = 0) -> numpy.dtype:
    """The dtype of the function's ``index``-th input."""
    return numpy.dtype(func.inputs[index].dtype)


def reduce_op(gb: onnx_helper.GraphBuilder, context: Context, opset_version: int, op_type: str,
              x: str, axes: Sequence[int] | None, keepdims: bool,
              output_names: Sequence[str] | None = None) -> str:
    """Add the reduction ``op_type`` of ``x`` over ``axes`` (None: all axes), with the axes
    as an attribute or, from the opset where the operator takes them so, as an input.

    Returns the name of the result (``output_names[0]`` when given)."""
    inputs = [x]
    attrs: dict[str, Any] = {'keepdims': int(keepdims)}
    if axes is not None:
        if opset_version >= _AXES_INPUT_SINCE.get(op_type, _AXES_INPUT_DEFAULT):
            inputs.append(context.add_const(numpy.asarray(axes, numpy.int64), 'axes'))
        else:
            attrs['axes'] = list(axes)
    if output_names is not None:
        gb.op_output_named(op_type, inputs, output_names, **attrs)
        return output_names[0]
    return gb.op(op_type, inputs, **attrs)


def reshape_to(gb: onnx_helper.GraphBuilder, context: Context, x: str,
               shape: Sequence[int]) -> str:
    """``Reshape`` of ``x`` to the constant ``shape``."""
    target = context.add_const(numpy.asarray(shape, numpy.int64), 'shape')
    return gb.op('Reshape', [x, target])


def clip(gb: onnx_helper.GraphBuilder, context: Context, opset_version: int, x: str,
         low: float | None, high: float | None, dtype: DTypeSpec,
         output_names: Sequence[str] | None = None) -> str:
    """``Clip`` of ``x`` to ``[low, high]`` (None: unbounded): attributes before opset 11,
    inputs from 11 (``opset_version`` must be the newest of 7 and 11 the caller lists)."""
    if opset_version >= 11:
        inputs = [x,
                  '' if low is None else context.add_const(_scalar(low, dtype), 'min'),
                  '' if high is None else context.add_const(_scalar(high, dtype), 'max')]
        while inputs[-1] == '':
            inputs.pop()
        attrs: dict[str, Any] = {}
    else:
        inputs = [x]
        attrs = {'min': None if low is None else float(low),
                 'max': None if high is None else float(high)}
    if output_names is not None:
        gb.op_output_named('Clip', inputs, output_names, **attrs)
        return output_names[0]
    return gb.op('Clip', inputs, **attrs)


def softmax_along(gb: onnx_helper.GraphBuilder, op_type: str, opset_version: int, x: str,
                  axis: int, ndim: int, output_names: Sequence[str] | None = None) -> str:
    """``Softmax``/``LogSoftmax`` of ``x`` along ``axis`` alone.

    From opset 13 the operator's ``axis`` is that axis. Before 13 it flattens the input
    to 2-D at ``axis``, which is the same only for the last axis: another axis is moved
    last by a ``Transpose`` and back after. ``opset_version`` must be 13 or the opset
    before it that the caller lists."""
    axis = axis % ndim
    if opset_version >= 13 or axis == ndim - 1:
        if output_names is not None:
            gb.op_output_named(op_type, [x], output_names, axis=axis)
            return output_names[0]
        return gb.op(op_type, [x], axis=axis)
    perm = [i for i in range(ndim) if i != axis] + [axis]
    inverse = [int(i) for i in numpy.argsort(perm)]
    t = gb.op('Transpose', [x], perm=perm)
    s = gb.op(op_type, [t], axis=ndim - 1)
    if output_names is not None:
        gb.op_output_named('Transpose', [s], output_names, perm=inverse)
        return output_names[0]
    return gb.op('Transpose', [s], perm=inverse)


def _weight_for(gb: onnx_helper.GraphBuilder, context: Context,
                func: PReLUFunction | Swish, w: str) -> str:
    """A weight of shape ``x.shape[1:1 + w.ndim]`` reshaped to broadcast over ``x`` from
    the right (trailing axes of size 1), as PReLU's slope and Swish's beta need."""
    x_ndim, w_shape = input_ndim(func, 0), tuple(func.inputs[1].shape)
    trailing = x_ndim - len(w_shape) - 1
    if trailing == 0:
        return w
    return reshape_to(gb, context, w, w_shape + (1,) * trailing)


@support((7, 11))
def convert_ClippedReLU(func: ClippedReLU, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ClippedReLU (``min(max(x, 0), z)``) -> Clip (bounds as inputs from opset 11)."""
    gb = onnx_helper.GraphBuilder()
    clip(gb, context, opset_version, input_names[0], 0.0, func.cap, input_dtype(func),
         output_names)
    return gb.nodes()


@support((7,))
def convert_ELU(func: ELU, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ELU -> Elu (alpha)."""
    return onnx_helper.make_node('Elu', input_names, output_names, alpha=float(func.alpha)),


@support((7,))
def convert_HardSigmoid(func: HardSigmoid, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """HardSigmoid (``clip(0.2 x + 0.5, 0, 1)``) -> HardSigmoid (alpha 0.2, beta 0.5)."""
    return onnx_helper.make_node('HardSigmoid', input_names, output_names,
                                 alpha=0.2, beta=0.5),


@support((7,))
def convert_LeakyReLU(func: LeakyReLU, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LeakyReLU -> LeakyRelu (alpha = slope)."""
    return onnx_helper.make_node('LeakyRelu', input_names, output_names,
                                 alpha=float(func.slope)),


@support((7, 13))
def convert_LogSoftmax(func: LogSoftmax, opset_version: int, input_names: list[str],
                       output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """LogSoftmax along any axis -> LogSoftmax (before opset 13 inside a Transpose pair
    unless the axis is the last)."""
    gb = onnx_helper.GraphBuilder()
    softmax_along(gb, 'LogSoftmax', opset_version, input_names[0], func.axis,
                  input_ndim(func), output_names)
    return gb.nodes()


@support((7,))
def convert_PReLUFunction(func: PReLUFunction, opset_version: int, input_names: list[str],
                          output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """PReLUFunction -> PRelu, the slope W (over axes 1..W.ndim of x) reshaped to
    broadcast from the right when x has more axes."""
    gb = onnx_helper.GraphBuilder()
    w = _weight_for(gb, context, func, input_names[1])
    gb.op_output_named('PRelu', [input_names[0], w], output_names)
    return gb.nodes()


@support((7,))
def convert_ReLU(func: ReLU, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ReLU -> Relu."""
    return onnx_helper.make_node('Relu', input_names, output_names),


@support((7,))
def convert_Sigmoid(func: Sigmoid, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Sigmoid -> Sigmoid."""
    return onnx_helper.make_node('Sigmoid', input_names, output_names),


@support((7, 13))
def convert_Softmax(func: Softmax, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Softmax along any axis -> Softmax (before opset 13 inside a Transpose pair unless
    the axis is the last)."""
    gb = onnx_helper.GraphBuilder()
    softmax_along(gb, 'Softmax', opset_version, input_names[0], func.axis, input_ndim(func),
                  output_names)
    return gb.nodes()


@support((7,))
def convert_Softplus(func: Softplus, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Softplus (``log(1 + exp(beta x)) / beta``) -> Softplus, with Mul and Div by beta
    around it when beta is not 1."""
    gb = onnx_helper.GraphBuilder()
    if func.beta == 1:
        gb.op_output_named('Softplus', input_names, output_names)
        return gb.nodes()
    beta = context.add_const(_scalar(func.beta, input_dtype(func)), 'beta')
    bx = gb.op('Mul', [input_names[0], beta])
    sp = gb.op('Softplus', [bx])
    gb.op_output_named('Div', [sp, beta], output_names)
    return gb.nodes()


@support((7,))
def convert_Tanh(func: Tanh, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Tanh -> Tanh."""
    return onnx_helper.make_node('Tanh', input_names, output_names),


@support((7,))
def convert_Swish(func: Swish, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Swish (``x * sigmoid(beta x)``, beta over axes 1..beta.ndim) -> Mul, Sigmoid, Mul."""
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    beta = _weight_for(gb, context, func, input_names[1])
    s = gb.op('Sigmoid', [gb.op('Mul', [x, beta])])
    gb.op_output_named('Mul', [x, s], output_names)
    return gb.nodes()


@support((7,))
def convert_CReLU(func: CReLU, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """CReLU (``concat(relu(x), relu(-x))`` along axis) -> Relu, Neg, Relu, Concat."""
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    pos = gb.op('Relu', [x])
    neg = gb.op('Relu', [gb.op('Neg', [x])])
    gb.op_output_named('Concat', [pos, neg], output_names,
                       axis=func.axis % input_ndim(func))
    return gb.nodes()


@support((7,))
def convert_RReLU(func: RReLU, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """RReLU -> LeakyRelu with slope ``(l + u) / 2`` (test mode, where every slope is
    that); in training mode the slopes drawn by the traced forward are frozen into a
    PRelu whose slope (of the input's shape) is an initializer ``RReLU_<n>_param_r``."""
    assert func.r is not None  # the slopes the traced forward drew
    r = to_numpy(func.r)
    mid = r.dtype.type((func.lower + func.upper) / 2)
    if r.size and bool((r == mid).all()):
        return onnx_helper.make_node('LeakyRelu', input_names, output_names,
                                     alpha=float(mid)),
    slope = context.add_param(r, 'r')
    return onnx_helper.make_node('PRelu', [input_names[0], slope], output_names),
