"""N-dimensional transposed convolution (``deconvolution_nd``, ``_1d``, ``_3d``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.connection import _conv_core
from chainer.functions.connection import convolution_nd as _convolution_nd  # its backward
from chainer.functions.math.sum import sum as _sum
from chainer.utils import conv, type_check
from chainer.utils.numeric_args import as_int
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, ShapeSpec, VariableOrArray

    # an output size: per axis, or None (or a None entry) for the size computed from x
    OutsizeSpec = int | Sequence[int | None] | None


def deconv_out_size(in_size: tuple[int, ...], ksize: tuple[int, ...],
                    stride: tuple[int, ...], pad: tuple[int, ...],
                    dilate: tuple[int, ...]) -> tuple[int, ...]:
    """The output lengths of a transposed convolution whose ``outsize`` is not given.

    Raises:
        chainer.utils.conv.ConvolutionArgumentError: (a ValueError, and an
            AssertionError as in v7) when a length would not be positive.
    """
    out = tuple(conv.get_deconv_outsize(s, k, st, p, d=d)
                for s, k, st, p, d in zip(in_size, ksize, stride, pad, dilate))
    if any(o <= 0 for o in out):
        raise conv.ConvolutionArgumentError(
            f'the output size {out} of the transposed convolution is not positive: '
            f'pad={pad} is too large for the input {in_size} and the kernel {ksize}')
    return out


def _outsize_spec(outsize: OutsizeSpec, ndim: int) -> tuple[int | None, ...] | None:
    """``outsize`` as an ``ndim``-tuple whose None entries are computed from the input
    (v7's ``deconvolution_2d`` took ``(None, None)``, its link's default, and a None for
    one axis); None when no entry is given.

    Raises:
        chainer.utils.conv.ConvolutionArgumentError: for a sequence of another length.
    """
    if outsize is None:
        return None
    if isinstance(outsize, Sequence) and any(o is None for o in outsize):
        if len(outsize) != ndim:
            raise conv.ConvolutionArgumentError(
                f'outsize must be an int or a sequence of {ndim} ints, not {outsize}')
        if all(o is None for o in outsize):
            return None
        return tuple(None if o is None else as_int(o, 'outsize') for o in outsize)
    return conv.as_tuple(cast('ShapeSpec', outsize), ndim, 'outsize')  # no None in it


class DeconvolutionND(FunctionNode):
    """N-d transposed convolution of ``x`` (n, c, s...) with ``W`` (c, o / groups, k...)."""

    _type_check_cache_attrs = ('ndim', 'groups', 'outsize', 'stride', 'pad', 'dilate')
    # whether a bias must have x's dtype (v7's 2-d deconvolution) or any float dtype
    _bias_of_x_dtype = False

    def __init__(self, ndim: int, stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                 outsize: OutsizeSpec = None, dilate: ShapeSpec = 1, groups: int = 1) -> None:
        self.ndim = int(ndim)
        self.stride, self.pad, self.dilate, self.groups = _convolution_nd.conv_params(
            self.ndim, stride, pad, dilate, groups)
        self.outsize = _outsize_spec(outsize, self.ndim)

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        # the inputs unnamed in messages (in_types[0]...), as in v7
        n_in = in_types.size()
        type_check.expect(n_in >= 2, n_in <= 3)
        n_in = type_check.eval(n_in)
        x_type, w_type = in_types[0], in_types[1]
        type_check.expect(
            x_type.dtype.kind == 'f',
            w_type.dtype.kind == 'f',
            x_type.ndim == self.ndim + 2,
            w_type.ndim == self.ndim + 2,
            x_type.shape[1] == w_type.shape[0],
        )
        if self.groups > 1:
            type_check.expect(w_type.shape[0] % self.groups == 0)
        if self.outsize is not None:
            for i, (o, s, p, d) in enumerate(zip(self.outsize, self.stride, self.pad,
                                                 self.dilate)):
                if o is None:
                    continue
                # an Expr (an int in light mode): get_conv_outsize's arithmetic builds
                # an expression from it, as v7's check did
                k: Any = w_type.shape[i + 2]
                # the sizes whose convolution (with or without cover_all) has x's size
                lower = conv.get_conv_outsize(o, k, s, p, d=d)
                upper = conv.get_conv_outsize(o, k, s, p, cover_all=True, d=d)
                type_check.expect(lower <= x_type.shape[i + 2],
                                  x_type.shape[i + 2] <= upper)
        if n_in == 3:
            b_type = in_types[2]
            # any float dtype (v7's deconvolution_nd) or x's (its deconvolution_2d); added
            # in x's dtype, its gradient in its own
            type_check.expect(b_type.dtype == x_type.dtype if self._bias_of_x_dtype
                              else b_type.dtype.kind == 'f',
                              b_type.ndim == 1,
                              b_type.shape[0] == w_type.shape[1] * self.groups)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        given = self.outsize
        size: tuple[int, ...]
        if given is None or None in given:
            computed = deconv_out_size(x.shape[2:], W.shape[2:], self.stride, self.pad,
                                       self.dilate)
            size = computed if given is None else tuple(
                c if o is None else o for o, c in zip(given, computed))
        else:
            size = tuple(o for o in given if o is not None)
        y = _conv_core.backward_data(x, W, self.stride, self.pad, self.dilate, self.groups,
                                     size, x.dtype)
        if len(inputs) == 3:
            _conv_core.add_bias(y, inputs[2])
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if not config.enable_backprop:
            return self._backward_arrays(indexes, gy.array)
        x, W = retained_inputs(self)
        ret: list[Any] = []
        if 0 in indexes:
            ret.append(_convolution_nd.forced(self, x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            ret.append(_convolution_nd.ConvolutionNDGradW(self, W.shape[2:], W.dtype)
                       .apply((gy, x))[0])
        if 2 in indexes:

            ret.append(_sum(gy, axis=(0,) + tuple(range(2, gy.ndim))))
        return tuple(ret)

    def _backward_arrays(self, indexes: Any, gy: Any) -> tuple[Variable, ...]:
        x, W = self.inputs[0].data, self.inputs[1].data
        ret = []
        for i in indexes:
            if i == 0:
                g = _conv_core.forward(gy, W, self.stride, self.pad, self.dilate, self.groups,
                                       x.shape[2:], x.dtype).astype(x.dtype, copy=False)
            elif i == 1:
                g = _conv_core.backward_filter(gy, x, W.shape[2:], self.stride, self.pad,
                                               self.dilate, self.groups, W.dtype)
                g = g.astype(W.dtype, copy=False)
            else:
                g = _conv_core.bias_grad(gy, self.inputs[2].dtype)
            ret.append(Variable._new(g, False))
        return tuple(ret)


@guarded
def deconvolution_nd(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                     stride: ShapeSpec = 1, pad: ShapeSpec = 0, outsize: OutsizeSpec = None,
                     dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """N-dimensional transposed convolution (deconvolution).

    The adjoint of :func:`~chainer.functions.convolution_nd` in its input:
    ``y[n, o, s * i + d * k - p] += W[c, o, k] x[n, c, i]`` (+ ``b[o]``), for
    input channel ``c`` and output channel ``o`` of the same group.

    Args:
        x: input of shape ``(n, c_I, d_1, ..., d_N)``.
        W: filters of shape ``(c_I, c_O / groups, k_1, ..., k_N)``.
        b: bias of shape ``(c_O,)`` or None.
        stride, pad, dilate: ints or N-tuples, as for the convolution this transposes.
        outsize: the output lengths ``(o_1, ..., o_N)``; by default
            ``get_deconv_outsize(d_i, k_i, s_i, p_i, d=dilate_i)``. Another valid
            value is one whose convolution with ``cover_all=True`` has ``x``'s size.
        groups: number of channel groups (``c_I`` and ``c_O`` are multiples of it).

    Returns:
        Output of shape ``(n, c_O, o_1, ..., o_N)``, of ``x``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks, channel counts
            or an ``outsize`` that does not fit ``x``.
        ValueError: for bad ``stride``, ``pad``, ``dilate``, ``groups``, or an
            estimated output size that is not positive (also an AssertionError).
    """
    ndim = len(x.shape[2:])
    args = (x, W) if b is None else (x, W, b)
    return DeconvolutionND(ndim, stride, pad, outsize, dilate, groups).apply(args)[0]


@guarded
def deconvolution_1d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                     stride: ShapeSpec = 1, pad: ShapeSpec = 0, outsize: OutsizeSpec = None,
                     dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """1-dimensional :func:`deconvolution_nd`.

    Raises:
        ValueError: when ``x`` is not 3-dimensional ``(n, c, w)``.
    """
    _convolution_nd.check_ndim('deconvolution_1d', x, 1)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)


@guarded
def deconvolution_3d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                     stride: ShapeSpec = 1, pad: ShapeSpec = 0, outsize: OutsizeSpec = None,
                     dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """3-dimensional :func:`deconvolution_nd`.

    Raises:
        ValueError: when ``x`` is not 5-dimensional ``(n, c, d, h, w)``.
    """
    _convolution_nd.check_ndim('deconvolution_3d', x, 3)
    return deconvolution_nd(x, W, b, stride, pad, outsize, dilate, groups)
