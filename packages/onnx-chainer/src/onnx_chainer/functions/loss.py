"""Converters of chainer.functions.loss."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy
import onnx
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions.activation import (
    clip,
    input_dtype,
    input_ndim,
    reduce_op,
    softmax_along,
)
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.functions.loss.absolute_error import AbsoluteError
    from chainer.functions.loss.huber_loss import HuberLoss
    from chainer.functions.loss.mean_absolute_error import MeanAbsoluteError
    from chainer.functions.loss.mean_squared_error import MeanSquaredError
    from chainer.functions.loss.sigmoid_cross_entropy import SigmoidCrossEntropy
    from chainer.functions.loss.softmax_cross_entropy import SoftmaxCrossEntropy
    from chainer.functions.loss.squared_error import SquaredError


def _onnx_type(dtype: Any) -> int:
    return onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(dtype))


def _valid_mask(gb: onnx_helper.GraphBuilder, context: Context, t: str, t_dtype: Any,
                ignore_label: int, to: Any) -> str:
    """``t != ignore_label`` cast to the dtype ``to``."""
    ignore = context.add_const(numpy.asarray(ignore_label, t_dtype), 'ignore_label')
    valid = gb.op('Not', [gb.op('Equal', [t, ignore])])
    return gb.op('Cast', [valid], to=_onnx_type(to))


def _mean_over(gb: onnx_helper.GraphBuilder, context: Context, opset_version: int, loss: str,
               count: str | None, n: int, dtype: Any, output_names: list[str]) -> None:
    """``sum(loss) / max(sum(count), 1)`` (normalized: ``count`` the mask of counted
    elements) or ``sum(loss) / max(n, 1)`` (``count`` None), into ``output_names``."""
    total = reduce_op(gb, context, opset_version, 'ReduceSum', loss, None, False)
    if count is None:
        den = context.add_const(numpy.asarray(max(n, 1), dtype), 'n')
    else:
        counted = reduce_op(gb, context, opset_version, 'ReduceSum', count, None, False)
        den = clip(gb, context, opset_version, counted, 1.0, None, dtype)
    gb.op_output_named('Div', [total, den], output_names)


@support((9, 11, 12, 13))
def convert_SoftmaxCrossEntropy(func: SoftmaxCrossEntropy, opset_version: int,
                                input_names: list[str],
                                output_names: list[str], context: Context
                                ) -> tuple[NodeProto, ...]:
    """SoftmaxCrossEntropy -> from opset 12 SoftmaxCrossEntropyLoss (reduction 'none',
    ignore_index, class weights) for integer labels; before 12, and for soft (float)
    labels, LogSoftmax over axis 1 with OneHot (opset 9) and ReduceSum.

    ``reduce='mean'`` is Chainer's: the sum divided by the number of labels that are not
    ``ignore_label`` (at least 1) when ``normalize``, else by the batch size; an all-
    ignored batch gives 0 as in Chainer (ONNX's own 'mean' would give NaN, and divides by
    the sum of class weights, not the count). ``soft_target_loss='kl-divergence'`` is not
    exported (ValueError)."""
    x, t = input_names
    dtype, t_dtype = input_dtype(func, 0), input_dtype(func, 1)
    ndim, n_class = input_ndim(func), func.inputs[0].shape[1]
    soft = t_dtype.kind == 'f'
    if soft and func.soft_target_loss != 'cross-entropy':
        raise ValueError(f'SoftmaxCrossEntropy with soft_target_loss='
                         f'{func.soft_target_loss!r} cannot be exported to ONNX')
    gb = onnx_helper.GraphBuilder()
    cw = None
    class_weight = func.class_weight
    if class_weight is not None:
        cw = context.add_const(to_numpy(class_weight).astype(dtype), 'class_weight')
    each = output_names if func.reduce == 'no' else None
    if soft:
        log_y = softmax_along(gb, 'LogSoftmax', opset_version, x, 1, ndim)
        tw = t
        if class_weight is not None:
            shape = (n_class,) + (1,) * (ndim - 2)
            cw_r = context.add_const(to_numpy(class_weight).astype(dtype).reshape(shape),
                                     'class_weight_axis1')
            tw = gb.op('Mul', [t, cw_r])
        picked = reduce_op(gb, context, opset_version, 'ReduceSum',
                           gb.op('Mul', [tw, log_y]), [1], False)
        if each is not None:
            gb.op_output_named('Neg', [picked], each)
            return gb.nodes()
        loss = gb.op('Neg', [picked])
        size = int(numpy.prod(func.inputs[0].shape)) // max(n_class, 1)
        _mean_over(gb, context, opset_version, loss, None, size, dtype, output_names)
        return gb.nodes()

    if opset_version >= 12:
        inputs = [x, t] + ([cw] if cw is not None else [])
        attrs: dict[str, Any] = {'reduction': 'none', 'ignore_index': int(func.ignore_label)}
        if each is not None:
            gb.op_output_named('SoftmaxCrossEntropyLoss', inputs, each, **attrs)
            return gb.nodes()
        loss = gb.op('SoftmaxCrossEntropyLoss', inputs, **attrs)
    else:
        valid = _valid_mask(gb, context, t, t_dtype, func.ignore_label, dtype)
        t_safe = gb.op('Mul', [t, gb.op('Cast', [valid], to=_onnx_type(t_dtype))])
        t_safe = gb.op('Cast', [t_safe], to=onnx.TensorProto.INT64)  # onnxruntime's OneHot
        log_y = softmax_along(gb, 'LogSoftmax', opset_version, x, 1, ndim)
        depth = context.add_const(numpy.asarray([n_class], numpy.int64), 'depth')
        values = context.add_const(numpy.asarray([0, 1], dtype), 'onehot_values')
        onehot = gb.op('OneHot', [t_safe, depth, values], axis=1)
        picked = reduce_op(gb, context, opset_version, 'ReduceSum',
                           gb.op('Mul', [log_y, onehot]), [1], False)
        weight = valid if cw is None else gb.op('Mul', [valid, gb.op('Gather', [cw, t_safe])])
        weighted = gb.op('Mul', [picked, weight])
        if each is not None:
            gb.op_output_named('Neg', [weighted], each)
            return gb.nodes()
        loss = gb.op('Neg', [weighted])
    count = None
    if func.normalize:
        count = _valid_mask(gb, context, t, t_dtype, func.ignore_label, dtype)
    _mean_over(gb, context, opset_version, loss, count, func.inputs[0].shape[0], dtype,
               output_names)
    return gb.nodes()


@support((7, 11, 13))
def convert_SigmoidCrossEntropy(func: SigmoidCrossEntropy, opset_version: int,
                                input_names: list[str],
                                output_names: list[str], context: Context
                                ) -> tuple[NodeProto, ...]:
    """SigmoidCrossEntropy -> ``(softplus(-|x|) + relu(x) - x t) * (t != ignore_label)``
    (Softplus, Neg, Abs, Relu, Mul, Sub, Add, Equal, Not, Cast), reduced as Chainer's
    ``reduce='mean'`` (ReduceSum, Div by the count of labels not ignored, at least 1,
    when ``normalize``, else by the batch size)."""
    x, t = input_names
    dtype, t_dtype = input_dtype(func, 0), input_dtype(func, 1)
    gb = onnx_helper.GraphBuilder()
    valid = _valid_mask(gb, context, t, t_dtype, func.ignore_label, dtype)
    xt = gb.op('Mul', [x, gb.op('Cast', [t], to=_onnx_type(dtype))])
    log_term = gb.op('Softplus', [gb.op('Neg', [gb.op('Abs', [x])])])
    raw = gb.op('Sub', [gb.op('Add', [log_term, gb.op('Relu', [x])]), xt])
    if func.reduce == 'no':
        gb.op_output_named('Mul', [raw, valid], output_names)
        return gb.nodes()
    loss = gb.op('Mul', [raw, valid])
    shape = func.inputs[0].shape
    _mean_over(gb, context, opset_version, loss, valid if func.normalize else None,
               shape[0] if shape else 1, dtype, output_names)
    return gb.nodes()


def _difference(gb: onnx_helper.GraphBuilder, input_names: list[str]) -> str:
    return gb.op('Sub', input_names[:2])


@support((7,))
def convert_MeanSquaredError(func: MeanSquaredError, opset_version: int, input_names: list[str],
                             output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """MeanSquaredError -> Sub, Mul, ReduceMean over all axes."""
    gb = onnx_helper.GraphBuilder()
    d = _difference(gb, input_names)
    reduce_op(gb, context, opset_version, 'ReduceMean', gb.op('Mul', [d, d]), None, False,
              output_names)
    return gb.nodes()


@support((7,))
def convert_MeanAbsoluteError(func: MeanAbsoluteError, opset_version: int, input_names: list[str],
                              output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """MeanAbsoluteError -> Sub, Abs, ReduceMean over all axes."""
    gb = onnx_helper.GraphBuilder()
    d = _difference(gb, input_names)
    reduce_op(gb, context, opset_version, 'ReduceMean', gb.op('Abs', [d]), None, False,
              output_names)
    return gb.nodes()


@support((7,))
def convert_SquaredError(func: SquaredError, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SquaredError -> Sub, Mul."""
    gb = onnx_helper.GraphBuilder()
    d = _difference(gb, input_names)
    gb.op_output_named('Mul', [d, d], output_names)
    return gb.nodes()


@support((7,))
def convert_AbsoluteError(func: AbsoluteError, opset_version: int, input_names: list[str],
                          output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """AbsoluteError -> Sub, Abs."""
    gb = onnx_helper.GraphBuilder()
    gb.op_output_named('Abs', [_difference(gb, input_names)], output_names)
    return gb.nodes()


@support((7, 11, 13))
def convert_HuberLoss(func: HuberLoss, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """HuberLoss -> ``m (|d| - m / 2)`` with ``d = x - t`` and ``m = min(|d|, delta)``
    (Sub, Abs, Clip, Mul, Sub, Mul: ``d^2 / 2`` within delta, ``delta (|d| - delta / 2)``
    beyond), then ReduceSum over axis 1 for ``reduce='sum_along_second_axis'``."""
    dtype = input_dtype(func)
    gb = onnx_helper.GraphBuilder()
    a = gb.op('Abs', [_difference(gb, input_names)])
    m = clip(gb, context, opset_version, a, None, func.delta, dtype)
    half = context.add_const(numpy.asarray(0.5, dtype), 'half')
    inner = gb.op('Sub', [a, gb.op('Mul', [m, half])])
    if func.reduce == 'no':
        gb.op_output_named('Mul', [m, inner], output_names)
        return gb.nodes()
    loss = gb.op('Mul', [m, inner])
    reduce_op(gb, context, opset_version, 'ReduceSum', loss, [1], False, output_names)
    return gb.nodes()


@support((7,))
def convert_SafeSqrt(func: FunctionNode, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SafeSqrt (the square root of the distances in contrastive and discriminative
    losses; only its gradient differs at 0) -> Sqrt."""
    return onnx_helper.make_node('Sqrt', input_names, output_names),
