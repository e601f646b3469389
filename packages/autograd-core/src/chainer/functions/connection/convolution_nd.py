"""N-dimensional convolution (``convolution_nd``, ``convolution_1d``, ``convolution_3d``)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Protocol

from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.connection import _conv_core
from chainer.functions.connection import deconvolution_nd as _deconvolution_nd  # its backward
from chainer.functions.math.sum import sum as _sum
from chainer.utils import conv, type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import (
        DTypeSpec,
        GradInputs,
        GradOutputs,
        NdArray,
        ShapeSpec,
        VariableOrArray,
    )



class ConvGeometry(Protocol):
    """What a convolution-family node holds of its geometry (``ConvolutionND``,
    ``DeconvolutionND`` and their gradient nodes): the spatial rank, per-axis stride,
    padding and dilation, and the channel group count."""

    ndim: int
    stride: tuple[int, ...]
    pad: tuple[int, ...]
    dilate: tuple[int, ...]
    groups: int


def conv_params(ndim: int, stride: ShapeSpec, pad: ShapeSpec, dilate: ShapeSpec,
                groups: int) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], int]:
    """Validate the geometry arguments shared by the convolution family.

    Returns:
        ``(stride, pad, dilate, groups)`` as ``ndim``-tuples and an int.

    Raises:
        ValueError: for a sequence of the wrong length, a stride, dilation or
            group count below 1, or a negative padding (naming the argument).
    """
    stride = conv.as_tuple(stride, ndim, 'stride')
    pad = conv.as_tuple(pad, ndim, 'pad')
    dilate = conv.as_tuple(dilate, ndim, 'dilate')
    if min(stride, default=1) < 1:
        raise ValueError(f'stride must be positive, not {stride}')
    if min(dilate, default=1) < 1:
        raise ValueError(f'dilate must be positive, not {dilate}')
    if min(pad, default=0) < 0:
        raise ValueError(f'pad must be non-negative, not {pad}')
    if int(groups) != groups or groups < 1:
        raise ValueError(f'groups must be a positive int, not {groups!r}')
    return stride, pad, dilate, int(groups)


def out_size(label: str, in_size: tuple[int, ...], ksize: tuple[int, ...],
             stride: tuple[int, ...], pad: tuple[int, ...], dilate: tuple[int, ...],
             cover_all: bool) -> tuple[int, ...]:
    """The output lengths of a convolution.

    Raises:
        ValueError: when the (dilated) kernel is larger than the padded input.
    """
    out = tuple(conv.get_conv_outsize(s, k, st, p, cover_all, d)
                for s, k, st, p, d in zip(in_size, ksize, stride, pad, dilate))
    if any(o <= 0 for o in out):
        raise ValueError(
            f'{label}: the kernel {ksize} (dilate={dilate}) is larger than the input '
            f'{in_size} padded by pad={pad}: the output size {out} is not positive')
    return out


def check_conv_types(in_types: type_check.TypeInfoTuple, ndim: int, groups: int,
                     bias_of_x_dtype: bool = False) -> None:
    """Type-check ``(x, W[, b])`` of a convolution with weight ``(o, c / groups, k...)``
    (the inputs unnamed in messages, ``in_types[0]``..., as in v7). The bias may have any
    float dtype (v7's ``convolution_nd``), or only x's with ``bias_of_x_dtype`` (v7's
    ``convolution_2d``)."""
    n_in = in_types.size()
    type_check.expect(n_in >= 2, n_in <= 3)
    n_in = type_check.eval(n_in)
    x_type, w_type = in_types[0], in_types[1]
    type_check.expect(
        x_type.dtype.kind == 'f',
        w_type.dtype.kind == 'f',
        x_type.ndim == ndim + 2,
        w_type.ndim == ndim + 2,
        x_type.shape[1] == w_type.shape[1] * groups,
    )
    if groups > 1:
        type_check.expect(w_type.shape[0] % groups == 0)
    if n_in == 3:
        b_type = in_types[2]
        # added to the output in x's dtype; its gradient in its own
        type_check.expect(b_type.dtype == x_type.dtype if bias_of_x_dtype
                          else b_type.dtype.kind == 'f',
                          b_type.ndim == 1, b_type.shape[0] == w_type.shape[0])


class ConvolutionND(FunctionNode):
    """N-d convolution of ``x`` (n, c, s...) with ``W`` (o, c / groups, k...) (+ ``b``)."""

    _type_check_cache_attrs = ('ndim', 'groups')
    # the output size, when set by the transposed convolution's backward
    _forced_out_size: tuple[int, ...] | None = None
    # whether a bias must have x's dtype (v7's 2-d convolution) or any float dtype
    _bias_of_x_dtype = False

    def __init__(self, ndim: int, stride: ShapeSpec = 1, pad: ShapeSpec = 0,
                 cover_all: bool = False, dilate: ShapeSpec = 1, groups: int = 1) -> None:
        self.ndim = int(ndim)
        self.stride, self.pad, self.dilate, self.groups = conv_params(
            self.ndim, stride, pad, dilate, groups)
        self.cover_all = bool(cover_all)

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        check_conv_types(in_types, self.ndim, self.groups, self._bias_of_x_dtype)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, W = inputs[0], inputs[1]
        size = self._forced_out_size
        if size is None:
            size = out_size(self.label, x.shape[2:], W.shape[2:], self.stride, self.pad,
                            self.dilate, self.cover_all)
        y = _conv_core.forward(x, W, self.stride, self.pad, self.dilate, self.groups, size,
                               x.dtype, inputs[2] if len(inputs) == 3 else None)
        return y.astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if not config.enable_backprop:
            return self._backward_arrays(indexes, gy.array)
        x, W = retained_inputs(self)
        ret: list[Any] = []
        if 0 in indexes:
            ret.append(transposed(self, x.shape[2:]).apply((gy, W))[0])
        if 1 in indexes:
            ret.append(ConvolutionNDGradW(self, W.shape[2:], W.dtype).apply((x, gy))[0])
        if 2 in indexes:

            ret.append(_sum(gy, axis=(0,) + tuple(range(2, gy.ndim))))
        return tuple(ret)

    def _backward_arrays(self, indexes: Any, gy: Any) -> tuple[Variable, ...]:
        # First-order backward: no graph is needed, so no gradient nodes either.
        inputs = self.inputs
        b_dtype = inputs[2].dtype if len(inputs) == 3 else None
        return tuple([Variable._new(g, False) for g in self._grads(
            indexes, inputs[0].data, inputs[1].data, b_dtype, gy)])

    def _array_backward(self, indexes: tuple[int, ...], inputs: tuple[Any, ...] | None,
                        grad_outputs: tuple[Any, ...]) -> tuple[Any, ...]:
        assert inputs is not None
        b_dtype = inputs[2].dtype if len(inputs) == 3 else None
        return self._grads(indexes, inputs[0], inputs[1], b_dtype, grad_outputs[0])

    def _grads(self, indexes: Any, x: Any, W: Any, b_dtype: Any, gy: Any) -> tuple[Any, ...]:
        """The first-order gradients (arrays) for ``indexes``."""
        shared: dict = {}
        ret = []
        for i in indexes:
            if i == 0:
                g = _conv_core.backward_data(gy, W, self.stride, self.pad, self.dilate,
                                             self.groups, x.shape[2:], x.dtype, shared)
                g = g.astype(x.dtype, copy=False)
            elif i == 1:
                g = _conv_core.backward_filter(x, gy, W.shape[2:], self.stride, self.pad,
                                               self.dilate, self.groups, W.dtype, shared)
                g = g.astype(W.dtype, copy=False)
            else:
                g = _conv_core.bias_grad(gy, b_dtype)
            ret.append(g)
        return tuple(ret)


def transposed(f: ConvGeometry, outsize: tuple[int, ...]) -> FunctionNode:
    """The transposed convolution (deconvolution) node with the geometry of ``f``."""
    return _deconvolution_nd.DeconvolutionND(f.ndim, f.stride, f.pad, outsize, f.dilate,
                                             f.groups)


def forced(f: ConvGeometry, size: tuple[int, ...]) -> ConvolutionND:
    """The convolution node with the geometry of ``f`` and output size ``size``."""
    node = ConvolutionND(f.ndim, f.stride, f.pad, False, f.dilate, f.groups)
    node._forced_out_size = tuple(size)
    return node


class ConvolutionNDGradW(FunctionNode):
    """The filter gradient of a convolution: ``(x, gy) -> gW`` (twice differentiable)."""

    def __init__(self, f: ConvGeometry, ksize: tuple[int, ...], w_dtype: DTypeSpec) -> None:
        self.ndim = f.ndim
        self.stride, self.pad, self.dilate, self.groups = f.stride, f.pad, f.dilate, f.groups
        self.ksize = tuple(ksize)
        self.W_dtype = w_dtype

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0, 1))
        x, gy = inputs
        gW = _conv_core.backward_filter(x, gy, self.ksize, self.stride, self.pad,
                                        self.dilate, self.groups, self.W_dtype)
        return gW.astype(self.W_dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, gy = retained_inputs(self)
        ggW, = grad_outputs
        ret = []
        if 0 in indexes:
            ret.append(transposed(self, x.shape[2:]).apply((gy, ggW))[0])
        if 1 in indexes:
            ret.append(forced(self, gy.shape[2:]).apply((x, ggW))[0])
        return tuple(ret)


def check_ndim(name: str, x: VariableOrArray, ndim: int) -> None:
    """Raise ValueError unless ``x`` has ``ndim`` spatial axes (after n and c)."""
    if len(x.shape[2:]) != ndim:
        raise ValueError(
            f"The number of dimensions under channel dimension of the input 'x' should be "
            f'{ndim}. But the actual ndim was {len(x.shape[2:])}. ({name})')


@guarded
def convolution_nd(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                   stride: ShapeSpec = 1, pad: ShapeSpec = 0, cover_all: bool = False,
                   dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """N-dimensional convolution.

    ``y[n, o, i...] = sum_{c, k...} W[o, c, k...] x[n, g * c_g + c, i * s + k * d - p...]
    + b[o]`` over the input channels ``c`` of the group ``g`` of output channel ``o``;
    points outside the input are zero.

    Args:
        x: input of shape ``(n, c_I, d_1, ..., d_N)``.
        W: filters of shape ``(c_O, c_I / groups, k_1, ..., k_N)``.
        b: bias of shape ``(c_O,)`` or None.
        stride: stride of the filter (int or N-tuple).
        pad: zero padding on each side (int or N-tuple).
        cover_all: add output positions so that every input element is covered
            (the output may grow by one along an axis).
        dilate: dilation of the filter (int or N-tuple).
        groups: split the channels into this many groups, each convolved with
            its own filters (``c_I`` and ``c_O`` must be multiples of it).

    Returns:
        Output of shape ``(n, c_O, o_1, ..., o_N)`` with
        ``o_i = get_conv_outsize(d_i, k_i, s_i, p_i, cover_all, dilate_i)``,
        of ``x``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: on bad dtypes, ranks, or channel
            counts that do not match ``W`` and ``groups``.
        ValueError: when the kernel is larger than the padded input, or for bad
            ``stride``, ``pad``, ``dilate`` or ``groups``.
    """
    ndim = len(x.shape[2:])
    args = (x, W) if b is None else (x, W, b)
    return ConvolutionND(ndim, stride, pad, cover_all, dilate, groups).apply(args)[0]


@guarded
def convolution_1d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                   stride: ShapeSpec = 1, pad: ShapeSpec = 0, cover_all: bool = False,
                   dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """1-dimensional :func:`convolution_nd`.

    Raises:
        ValueError: when ``x`` is not 3-dimensional ``(n, c, w)``.
    """
    check_ndim('convolution_1d', x, 1)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)


@guarded
def convolution_3d(x: VariableOrArray, W: VariableOrArray, b: VariableOrArray | None = None,
                   stride: ShapeSpec = 1, pad: ShapeSpec = 0, cover_all: bool = False,
                   dilate: ShapeSpec = 1, groups: int = 1) -> Variable:
    """3-dimensional :func:`convolution_nd`.

    Raises:
        ValueError: when ``x`` is not 5-dimensional ``(n, c, d, h, w)``.
    """
    check_ndim('convolution_3d', x, 3)
    return convolution_nd(x, W, b, stride, pad, cover_all, dilate, groups)
