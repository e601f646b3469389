"""Converters of chainer.functions.normalization."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy
import onnx.helper
from onnx import NodeProto

from chainer.functions.normalization.batch_normalization import compute_axes
from onnx_chainer import onnx_helper
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions.activation import (
    clip,
    input_dtype,
    input_ndim,
    reduce_op,
    reshape_to,
)
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.functions.normalization.batch_normalization import (
        BatchNormalization,
        FixedBatchNormalization,
    )
    from chainer.functions.normalization.batch_renormalization import BatchRenormalizationFunction
    from chainer.functions.normalization.decorrelated_batch_normalization import (
        FixedDecorrelatedBatchNormalization,
    )
    from chainer.functions.normalization.group_normalization import GroupNormalization
    from chainer.functions.normalization.l2_normalization import NormalizeL2
    from chainer.functions.normalization.layer_normalization import LayerNormalization
    from chainer.functions.normalization.local_response_normalization import (
        LocalResponseNormalization,
    )


def _normalized(gb: onnx_helper.GraphBuilder, context: Context, opset_version: int, x: str,
                axes: Sequence[int], eps: float, dtype: Any) -> str:
    """``(x - mean) / sqrt(var + eps)`` with the mean and the (biased) variance over
    ``axes``: ReduceMean, Sub, Mul, ReduceMean, Add, Sqrt, Div."""
    mean = reduce_op(gb, context, opset_version, 'ReduceMean', x, axes, True)
    d = gb.op('Sub', [x, mean])
    var = reduce_op(gb, context, opset_version, 'ReduceMean', gb.op('Mul', [d, d]), axes, True)
    eps_c = context.add_const(numpy.asarray(eps, dtype), 'eps')
    std = gb.op('Sqrt', [gb.op('Add', [var, eps_c])])
    return gb.op('Div', [d, std])


def _broadcastable(gb: onnx_helper.GraphBuilder, context: Context, p: str, x_shape: Sequence[int],
                   aggr: Sequence[int]) -> str:
    """A parameter over the axes of ``x`` that are not in ``aggr``, reshaped (when it is
    not already) to broadcast over ``x`` from the right."""
    ndim = len(x_shape)
    key = [i for i in range(ndim) if i not in aggr]
    if key == list(range(ndim - len(key), ndim)):  # the trailing axes: broadcasts as is
        return p
    return reshape_to(gb, context, p, [1 if i in aggr else x_shape[i] for i in range(ndim)])


def _affine(gb: onnx_helper.GraphBuilder, context: Context, x_hat: str, gamma: str, beta: str,
            x_shape: Sequence[int], aggr: Sequence[int], output_names: list[str]) -> None:
    g = _broadcastable(gb, context, gamma, x_shape, aggr)
    b = _broadcastable(gb, context, beta, x_shape, aggr)
    gb.op_output_named('Add', [gb.op('Mul', [x_hat, g]), b], output_names)


def _link_statistic(context: Context, input_names: list[str], stat: str, default: Any) -> Any:
    """The link's ``avg_mean``/``avg_var`` (found next to its ``gamma`` or ``beta``:
    the exporter runs the model with ``in_recomputing``, where the link passes no running
    statistics to the function), else ``default``."""
    for name in input_names[1:3]:
        base, _, last = name.rpartition('_')
        if name.startswith('param_') and last in ('gamma', 'beta'):
            found = context.model_array(f'{base}_{stat}')
            if found is not None:
                return found
    return default


@support((7, 18))
def convert_BatchNormalization(func: BatchNormalization, opset_version: int,
                               input_names: list[str],
                               output_names: list[str], context: Context
                               ) -> tuple[NodeProto, ...]:
    """BatchNormalization (training mode: the batch's statistics) -> ReduceMean, Sub, Mul,
    ReduceMean, Add, Sqrt, Div, Mul, Add: the mean and variance are computed in the graph
    from its input, so the output is right for any input, not only the traced one
    (onnxruntime ignores BatchNormalization's ``training_mode``).

    The running statistics are kept as initializers, as v7 did: the link's ``avg_mean``
    and ``avg_var`` (``param_<path>_avg_mean``/``_avg_var``), or for ``F.batch_normalization``
    without running statistics the traced batch's (``BatchNormalization_<n>_param_avg_mean``
    /``_avg_var``); the train-mode graph does not read them."""
    x, gamma, beta = input_names
    x_shape = tuple(func.inputs[0].shape)
    aggr, _ = compute_axes(len(x_shape), len(func.inputs[1].shape), func.axis)
    inv_std = to_numpy(func.inv_std)
    traced = {'avg_mean': func.running_mean if func.running_mean is not None
              else to_numpy(func.mean),
              'avg_var': func.running_var if func.running_var is not None
              else 1 / (inv_std * inv_std) - inv_std.dtype.type(func.eps)}
    for stat, value in traced.items():
        context.add_param(_link_statistic(context, input_names, stat, value), stat)
    gb = onnx_helper.GraphBuilder()
    x_hat = _normalized(gb, context, opset_version, x, aggr, func.eps, input_dtype(func))
    _affine(gb, context, x_hat, gamma, beta, x_shape, aggr, output_names)
    return gb.nodes()


def _name_implicit_stat(func: Any, input_names: list[str], context: Context, index: int,
                        name: str) -> None:
    """An array given to the function inside the model (not a model parameter nor a graph
    input) becomes the initializer ``<function>_param_<name>``, v7's name for the
    statistics of fixed batch normalization."""
    old = input_names[index]
    if old != f'{context.func_name}_in_{index}' or old not in context.initializers:
        return
    new = context.add_param(context.initializers.pop(old), name)
    context.set_name(func.inputs[index], new)
    input_names[index] = new


@support((7, 18))
def convert_FixedBatchNormalization(func: FixedBatchNormalization, opset_version: int,
                                    input_names: list[str],
                                    output_names: list[str], context: Context
                                    ) -> tuple[NodeProto, ...]:
    """FixedBatchNormalization (given mean and variance: test mode) -> BatchNormalization
    (epsilon) when the parameters are per channel (axis 1), else ``(x - mean) * gamma /
    sqrt(var + eps) + beta`` with the parameters reshaped to broadcast (Sub, Add, Sqrt,
    Div, Mul, Add)."""
    _name_implicit_stat(func, input_names, context, 3, 'avg_mean')
    _name_implicit_stat(func, input_names, context, 4, 'avg_var')
    x, gamma, beta, mean, var = input_names
    x_shape = tuple(func.inputs[0].shape)
    aggr, key = compute_axes(len(x_shape), len(func.inputs[1].shape), func.axis)
    gb = onnx_helper.GraphBuilder()
    if key == (1,):
        gb.op_output_named('BatchNormalization', input_names, output_names,
                           epsilon=float(func.eps))
        return gb.nodes()
    eps = context.add_const(numpy.asarray(func.eps, input_dtype(func, 4)), 'eps')
    std = gb.op('Sqrt', [gb.op('Add', [var, eps])])
    scale = gb.op('Div', [gamma, std])
    d = gb.op('Sub', [x, _broadcastable(gb, context, mean, x_shape, aggr)])
    _affine(gb, context, d, scale, beta, x_shape, aggr, output_names)
    return gb.nodes()


@support((7, 18, 21))
def convert_GroupNormalization(func: GroupNormalization, opset_version: int,
                               input_names: list[str],
                               output_names: list[str], context: Context
                               ) -> tuple[NodeProto, ...]:
    """GroupNormalization -> GroupNormalization (num_groups, epsilon; per-channel scale and
    bias) from opset 21; before, Reshape to (N, groups, -1), the normalization over the
    last axis (ReduceMean, Sub, Mul, ReduceMean, Add, Sqrt, Div), Reshape back (Shape) and
    Mul, Add by the per-channel gamma and beta."""
    x, gamma, beta = input_names
    gb = onnx_helper.GraphBuilder()
    if opset_version >= 21:
        gb.op_output_named('GroupNormalization', input_names, output_names,
                           num_groups=int(func.groups), epsilon=float(func.eps))
        return gb.nodes()
    x_shape = tuple(func.inputs[0].shape)
    grouped = reshape_to(gb, context, x, [0, int(func.groups), -1])
    x_hat = _normalized(gb, context, opset_version, grouped, [2], func.eps, input_dtype(func))
    x_hat = gb.op('Reshape', [x_hat, gb.op('Shape', [x])])
    aggr = [0] + list(range(2, len(x_shape)))
    _affine(gb, context, x_hat, gamma, beta, x_shape, aggr, output_names)
    return gb.nodes()


@support((7, 17))
def convert_LayerNormalization(func: LayerNormalization, opset_version: int,
                               input_names: list[str],
                               output_names: list[str], context: Context
                               ) -> tuple[NodeProto, ...]:
    """LayerNormalization (over every axis but the first) -> LayerNormalization (axis 1,
    epsilon) from opset 17; before, ReduceMean, Sub, Mul, ReduceMean, Add, Sqrt, Div, Mul,
    Add."""
    gb = onnx_helper.GraphBuilder()
    if opset_version >= 17:
        gb.op_output_named('LayerNormalization', input_names, output_names, axis=1,
                           epsilon=float(func.eps))
        return gb.nodes()
    x, gamma, beta = input_names
    x_shape = tuple(func.inputs[0].shape)
    x_hat = _normalized(gb, context, opset_version, x, list(range(1, len(x_shape))),
                        func.eps, input_dtype(func))
    _affine(gb, context, x_hat, gamma, beta, x_shape, [0], output_names)
    return gb.nodes()


@support((7,))
def convert_LocalResponseNormalization(func: LocalResponseNormalization, opset_version: int,
                                       input_names: list[str],
                                       output_names: list[str], context: Context
                                       ) -> tuple[NodeProto, ...]:
    """LocalResponseNormalization -> LRN.

    Chainer divides by ``(k + alpha * s)^beta``, ``s`` the sum of squares over channels
    ``c - n // 2 .. c + n // 2``; ONNX by ``(bias + alpha / size * s)^beta`` over the
    window of ``size`` channels around ``c``. So ``size = 2 (n // 2) + 1`` (``n`` when odd),
    ``alpha = alpha * size``, ``bias = k``. An input of other than 4 axes is reshaped to
    (N, C, -1, 1) and back around it."""
    size = 2 * (func.n // 2) + 1
    attrs: dict[str, Any] = {'size': size, 'alpha': float(func.alpha) * size,
                             'beta': float(func.beta), 'bias': float(func.k)}
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    if input_ndim(func) == 4:
        gb.op_output_named('LRN', [x], output_names, **attrs)
        return gb.nodes()
    y = gb.op('LRN', [reshape_to(gb, context, x, [0, 0, -1, 1])], **attrs)
    gb.op_output_named('Reshape', [y, gb.op('Shape', [x])], output_names)
    return gb.nodes()


@support((7, 18))
def convert_NormalizeL2(func: NormalizeL2, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """NormalizeL2 (``x / (||x||_2 + eps)``, the norm over ``axis``) -> ReduceL2, Add,
    Div (ONNX's LpNormalization has no eps)."""
    ndim = input_ndim(func)
    axis = func.axis
    axes = sorted({int(a) % ndim for a in ((axis,) if isinstance(axis, int) else axis)})
    gb = onnx_helper.GraphBuilder()
    x = input_names[0]
    norm = reduce_op(gb, context, opset_version, 'ReduceL2', x, axes, True)
    eps = context.add_const(numpy.asarray(func.eps, input_dtype(func)), 'eps')
    gb.op_output_named('Div', [x, gb.op('Add', [norm, eps])], output_names)
    return gb.nodes()


@support((7, 11, 18))
def convert_BatchRenormalizationFunction(func: BatchRenormalizationFunction, opset_version: int,
                                         input_names: list[str], output_names: list[str],
                                         context: Context) -> tuple[NodeProto, ...]:
    """BatchRenormalizationFunction (training mode) -> ``((x - mean) / std * r + d) *
    gamma + beta`` with the batch's mean and std computed in the graph (ReduceMean, Sub,
    Mul, ReduceMean, Add, Sqrt, Div) and ``r = clip(std / running_std, 1 / rmax,
    rmax)``, ``d = clip((mean - running_mean) / running_std, -dmax, dmax)`` (Div, Sub,
    Clip: bounds as inputs from 11), the running statistics as initializers (the
    link's ``param_<path>_avg_mean``/``_avg_var``). The exporter's pass leaves them
    unchanged; an ``F.batch_renormalization`` that updates them in its forward is
    exported with the updated values."""
    x, gamma, beta = input_names
    x_shape = tuple(func.inputs[0].shape)
    aggr, _ = compute_axes(len(x_shape), len(func.inputs[1].shape), None)
    dtype = input_dtype(func)
    gb = onnx_helper.GraphBuilder()
    mean = reduce_op(gb, context, opset_version, 'ReduceMean', x, aggr, True)
    diff = gb.op('Sub', [x, mean])
    var = reduce_op(gb, context, opset_version, 'ReduceMean', gb.op('Mul', [diff, diff]),
                    aggr, True)
    eps = context.add_const(numpy.asarray(func.eps, dtype), 'eps')
    std = gb.op('Sqrt', [gb.op('Add', [var, eps])])
    # the traced forward set both (given or made)
    assert func.running_mean is not None and func.running_var is not None
    running_mean = _broadcastable(gb, context, context.add_param(func.running_mean, 'avg_mean'),
                                  x_shape, aggr)
    running_var = _broadcastable(gb, context, context.add_param(func.running_var, 'avg_var'),
                                 x_shape, aggr)
    running_std = gb.op('Sqrt', [gb.op('Add', [running_var, eps])])
    r = clip(gb, context, opset_version, gb.op('Div', [std, running_std]), 1 / func.rmax,
             func.rmax, dtype)
    d = clip(gb, context, opset_version,
             gb.op('Div', [gb.op('Sub', [mean, running_mean]), running_std]), -func.dmax,
             func.dmax, dtype)
    x_hat = gb.op('Add', [gb.op('Mul', [gb.op('Div', [diff, std]), r]), d])
    _affine(gb, context, x_hat, gamma, beta, x_shape, aggr, output_names)
    return gb.nodes()


@support((7,))
def convert_FixedDecorrelatedBatchNormalization(func: FixedDecorrelatedBatchNormalization,
                                                opset_version: int, input_names: list[str],
                                                output_names: list[str],
                                                context: Context) -> tuple[NodeProto, ...]:
    """FixedDecorrelatedBatchNormalization (test mode: ``projection @ (x - mean)`` per
    group of channels) -> Reshape of x to ``(n, groups, C // groups, -1)``, Sub of the
    mean as ``(groups, C // groups, 1)``, MatMul by the projection ``(groups, C //
    groups, C // groups)`` (broadcast over n), Reshape back."""
    x, mean, projection = input_names
    x_shape = tuple(func.inputs[0].shape)
    groups = func.groups
    per = x_shape[1] // groups
    dtype = input_dtype(func)
    gb = onnx_helper.GraphBuilder()
    if input_dtype(func, 1) != dtype:
        mean = gb.op('Cast', [mean], to=onnx.helper.np_dtype_to_tensor_dtype(dtype))
    if input_dtype(func, 2) != dtype:
        projection = gb.op('Cast', [projection],
                           to=onnx.helper.np_dtype_to_tensor_dtype(dtype))
    xg = reshape_to(gb, context, x, [0, groups, per, -1])
    centred = gb.op('Sub', [xg, reshape_to(gb, context, mean, [groups, per, 1])])
    y = gb.op('MatMul', [projection, centred])
    gb.op_output_named('Reshape', [y, gb.op('Shape', [x])], output_names)
    return gb.nodes()
