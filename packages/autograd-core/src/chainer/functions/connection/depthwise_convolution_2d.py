"""Two-dimensional depthwise convolution (``depthwise_convolution_2d``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.array.reshape import reshape
from chainer.functions.array.transpose import transpose
from chainer.functions.connection import _conv_core
from chainer.functions.connection.convolution_nd import (
    ConvolutionNDGradW,
    conv_params,
    out_size,
    transposed,
)
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray


def _grouped(W: Any) -> Any:
    # (m, c, kh, kw) -> the grouped-convolution weight (c * m, 1, kh, kw) whose
    # output channel c * m + j applies W[j, c] to input channel c
    m, c = W.shape[:2]
    return W.transpose(1, 0, 2, 3).reshape(c * m, 1, *W.shape[2:])


class DepthwiseConvolution2D(FunctionNode):
    """Depthwise 2-D convolution: each input channel convolved with its own ``m`` filters.

    A grouped convolution with one group per input channel (one batched matrix
    product over the batch and the channels).
    """

    _type_check_cache_attrs = ()

    def __init__(self, stride: ShapeSpec = 1, pad: ShapeSpec = 0) -> None:
        self.ndim = 2
        self.stride, self.pad, self.dilate, _ = conv_params(2, stride, pad, 1, 1)
        self.sy, self.sx = self.stride
        self.ph, self.pw = self.pad

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        n_in = type_check.eval(in_types.size())
        if n_in not in (2, 3):
            raise type_check.InvalidType('2 or 3 arguments (x, W[, b])', f'{n_in} arguments')
        type_check.argname(in_types, ('x', 'W', 'b')[:n_in])
        x_type, w_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == 4,
            w_type.ndim == 4,
            x_type.shape[1] == w_type.shape[1],
        )
        if n_in == 3:
            b_type = in_types[2]
            type_check.expect(b_type.dtype == x_type.dtype, b_type.ndim == 1,
                              b_type.shape[0] == w_type.shape[0] * w_type.shape[1])

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        self.groups = x.shape[1]  # one group per input channel
        size = out_size(self.label, x.shape[2:], W.shape[2:], self.stride, self.pad,
                        self.dilate, False)
        y = _conv_core.forward(x, _grouped(W), self.stride, self.pad, self.dilate,
                               self.groups, size, x.dtype,
                               inputs[2] if len(inputs) == 3 else None)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if not config.enable_backprop:
            return self._backward_arrays(indexes, gy.array)

        x, W = retained_inputs(self)
        m, c = W.shape[:2]
        ret: list[Any] = []
        if 0 in indexes:
            Wg = reshape(transpose(W, (1, 0, 2, 3)), (c * m, 1) + W.shape[2:])
            ret.append(transposed(self, x.shape[2:]).apply((gy, Wg))[0])
        if 1 in indexes:
            gWg = ConvolutionNDGradW(self, W.shape[2:], W.dtype).apply((x, gy))[0]
            ret.append(transpose(reshape(gWg, (c, m) + W.shape[2:]), (1, 0, 2, 3)))
        if 2 in indexes:
            ret.append(_sum(gy, axis=(0, 2, 3)))
        return tuple(ret)

    def _backward_arrays(self, indexes: Any, gy: Any) -> tuple[Variable, ...]:
        x, W = self.inputs[0].data, self.inputs[1].data
        m, c = W.shape[:2]
        shared: dict = {}
        ret = []
        for i in indexes:
            if i == 0:
                g = _conv_core.backward_data(gy, _grouped(W), self.stride, self.pad,
                                             self.dilate, c, x.shape[2:], x.dtype, shared)
                g = g.astype(x.dtype, copy=False)
            elif i == 1:
                g = _conv_core.backward_filter(x, gy, W.shape[2:], self.stride, self.pad,
                                               self.dilate, c, W.dtype, shared)
                g = g.reshape((c, m) + W.shape[2:]).transpose(1, 0, 2, 3)
                g = g.astype(W.dtype, copy=False)
            else:
                g = _conv_core.bias_grad(gy, self.inputs[2].dtype)
            ret.append(Variable._new(g, False))
        return tuple(ret)


@guarded
def depthwise_convolution_2d(x: VariableOrArray, W: VariableOrArray,
                             b: VariableOrArray | None = None, stride: ShapeSpec = 1,
                             pad: ShapeSpec = 0) -> Variable:
    """Two-dimensional depthwise convolution.

    Each input channel ``c`` is convolved with its own ``m`` filters
    ``W[:, c]``: ``y[n, c * m + j] = conv(x[n, c], W[j, c]) + b[c * m + j]``.

    Args:
        x: input of shape ``(n, c_I, h, w)``.
        W: filters of shape ``(m, c_I, k_H, k_W)`` (``m``: channel multiplier).
        b: bias of shape ``(m * c_I,)`` or None.
        stride: int or pair ``(s_y, s_x)``.
        pad: zero padding, int or pair ``(p_h, p_w)``.

    Returns:
        Output of shape ``(n, c_I * m, h_O, w_O)``, of ``x``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks or channel counts.
        ValueError: when the kernel is larger than the padded input, or for bad
            ``stride`` or ``pad``.
    """
    args = (x, W) if b is None else (x, W, b)
    return DepthwiseConvolution2D(stride, pad).apply(args)[0]
