"""Converters of chainer.functions.array (and ``SumTo``, ``Shape``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy
import onnx.helper
from onnx import NodeProto

from onnx_chainer import onnx_helper
from onnx_chainer.context import Context, to_numpy
from onnx_chainer.functions.connection import conv_pads, one_hot_conv
from onnx_chainer.functions.opset_version import support

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode
    from chainer.functions.array.as_strided import AsStrided
    from chainer.functions.array.broadcast import Broadcast, BroadcastTo
    from chainer.functions.array.cast import Cast
    from chainer.functions.array.concat import Concat
    from chainer.functions.array.copy import Copy
    from chainer.functions.array.depth2space import Depth2Space
    from chainer.functions.array.diagonal import Diagonal
    from chainer.functions.array.expand_dims import ExpandDims
    from chainer.functions.array.flip import Flip
    from chainer.functions.array.fliplr import FlipLR
    from chainer.functions.array.flipud import FlipUD
    from chainer.functions.array.get_item import GetItem
    from chainer.functions.array.im2col import Im2Col
    from chainer.functions.array.moveaxis import Moveaxis
    from chainer.functions.array.pad import Pad
    from chainer.functions.array.pad_sequence import PadSequence
    from chainer.functions.array.permutate import Permutate
    from chainer.functions.array.repeat import Repeat
    from chainer.functions.array.reshape import Reshape
    from chainer.functions.array.resize_images import ResizeImages
    from chainer.functions.array.rollaxis import Rollaxis
    from chainer.functions.array.scatter_add import ScatterAdd
    from chainer.functions.array.select_item import SelectItem
    from chainer.functions.array.separate import Separate
    from chainer.functions.array.space2depth import Space2Depth
    from chainer.functions.array.spatial_transformer_grid import SpatialTransformerGrid
    from chainer.functions.array.spatial_transformer_sampler import SpatialTransformerSampler
    from chainer.functions.array.split_axis import SplitAxis
    from chainer.functions.array.squeeze import Squeeze
    from chainer.functions.array.stack import Stack
    from chainer.functions.array.swapaxes import Swapaxes
    from chainer.functions.array.tile import Tile
    from chainer.functions.array.transpose import Transpose
    from chainer.functions.array.transpose_sequence import TransposeSequence
    from chainer.functions.array.where import Where
    from chainer.functions.math.sum import SumTo

INT64_MAX = numpy.iinfo(numpy.int64).max
INT64_MIN = numpy.iinfo(numpy.int64).min

GraphBuilder = onnx_helper.GraphBuilder


# -- shared helpers ---------------------------------------------------------------
def _op(gb: GraphBuilder, op_type: str, inputs: Sequence[str], out: list[str] | None = None,
        **attrs: Any) -> str:
    """Add a one-output node writing ``out`` (a temporary when None); its output's name."""
    if out is not None:
        gb.op_output_named(op_type, inputs, out, **attrs)
        return out[0]
    name = gb.op(op_type, inputs, **attrs)
    assert isinstance(name, str)
    return name


def _i64(context: Context, values: Any, name: str) -> str:
    """A Constant node holding ``values`` as int64."""
    return context.add_const(numpy.asarray(values, dtype=numpy.int64), name)


def _in_shape(func: Any, i: int = 0) -> tuple[int, ...]:
    return tuple(func.inputs[i].shape)


def _axis(axis: int, ndim: int) -> int:
    return axis + ndim if axis < 0 else axis


def _axes_op(op_type: str, gb: GraphBuilder, x: str, axes: Sequence[int], opset: int,
             context: Context, out: list[str] | None = None) -> str:
    """Squeeze or Unsqueeze ``x`` at ``axes`` (an input from opset 13, an attribute
    before)."""
    if opset >= 13:
        return _op(gb, op_type, [x, _i64(context, list(axes), 'axes')], out)
    return _op(gb, op_type, [x], out, axes=list(axes))


def _unsqueeze(gb: GraphBuilder, x: str, axes: Sequence[int], opset: int, context: Context,
               out: list[str] | None = None) -> str:
    """Unsqueeze ``x`` at ``axes``."""
    return _axes_op('Unsqueeze', gb, x, axes, opset, context, out)


def _squeeze(gb: GraphBuilder, x: str, axes: Sequence[int], opset: int, context: Context,
             out: list[str] | None = None) -> str:
    """Squeeze ``axes`` of ``x``."""
    return _axes_op('Squeeze', gb, x, axes, opset, context, out)


def _slice(gb: GraphBuilder, x: str, starts: Sequence[int], ends: Sequence[int],
           axes: Sequence[int], steps: Sequence[int], opset: int, context: Context,
           out: list[str] | None = None) -> str:
    """Slice ``x`` (inputs with steps from opset 10; attributes, unit steps before)."""
    if opset >= 10:
        inputs = [x, _i64(context, starts, 'starts'), _i64(context, ends, 'ends'),
                  _i64(context, axes, 'axes'), _i64(context, steps, 'steps')]
        attrs: dict[str, Any] = {}
    else:
        assert all(s == 1 for s in steps)
        inputs = [x]
        attrs = {'starts': list(starts), 'ends': list(ends), 'axes': list(axes)}
    return _op(gb, 'Slice', inputs, out, **attrs)


def _pad(gb: GraphBuilder, x: str, pads: Sequence[int], value: Any, dtype: Any, opset: int,
         context: Context, out: list[str] | None = None) -> str:
    """Constant Pad (pads and value as inputs from opset 11, attributes before)."""
    if opset >= 11:
        inputs = [x, _i64(context, pads, 'pads'),
                  context.add_const(numpy.asarray(value, dtype=dtype), 'value')]
        attrs: dict[str, Any] = {'mode': 'constant'}
    else:
        inputs = [x]
        attrs = {'mode': 'constant', 'pads': list(pads), 'value': float(value)}
    return _op(gb, 'Pad', inputs, out, **attrs)


def _transpose(perm: Sequence[int], input_names: list[str],
               output_names: list[str]) -> tuple[NodeProto, ...]:
    return onnx_helper.make_node('Transpose', input_names[:1], output_names,
                                 perm=[int(p) for p in perm]),


def _expand_shape(in_shape: Sequence[int], shape: Sequence[int]) -> list[int]:
    """The target of ``Expand`` broadcasting ``in_shape`` to ``shape``: 1 where the input
    already has the size (so a dynamic axis there, a batch, stays dynamic)."""
    lead = len(shape) - len(in_shape)
    return [1 if i >= lead and in_shape[i - lead] == s else int(s) for i, s in enumerate(shape)]


def _broadcast(gb: GraphBuilder, x: str, dtype: Any, in_shape: Sequence[int],
               shape: Sequence[int], opset: int, context: Context, out: list[str]) -> None:
    """Broadcast ``x`` to ``shape``: Expand from opset 8, Add of zeros before."""
    target = _expand_shape(in_shape, shape)
    if opset >= 8:
        gb.op_output_named('Expand', [x, _i64(context, target, 'shape')], out)
    else:
        zeros = context.add_const(numpy.zeros(target, dtype=dtype), 'zeros')
        gb.op_output_named('Add', [x, zeros], out)


# -- element types, copies, shapes -----------------------------------------------
@support((7,))
def convert_Cast(func: Cast, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Cast -> Cast to the ONNX element type of ``func.type``."""
    to = onnx.helper.np_dtype_to_tensor_dtype(numpy.dtype(func.type))
    return onnx_helper.make_node('Cast', input_names, output_names, to=to),


@support((7,))
def convert_Copy(func: Copy, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Copy (a device transfer) -> Identity."""
    return onnx_helper.make_node('Identity', input_names, output_names),


@support((7,))
def convert_Shape(func: FunctionNode, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """A function node named ``Shape`` (``as_funcnode('Shape')``) -> Shape (int64)."""
    return onnx_helper.make_node('Shape', input_names[:1], output_names),


@support((7, 14))
def convert_Reshape(func: Reshape, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Reshape -> Reshape; the shape keeps ``-1`` where given and uses ``0`` (copy the
    input's size) for leading axes equal to the input's, so a dynamic batch axis works.
    Sizes of zero use ``allowzero`` (opset 14). A node named ``Reshape`` with a second
    input (``as_funcnode``) reshapes to that input."""
    gb = GraphBuilder()
    if len(input_names) > 1 and input_names[1]:
        shape = _op(gb, 'Cast', [input_names[1]], to=onnx.TensorProto.INT64)
        gb.op_output_named('Reshape', [input_names[0], shape], output_names)
        return gb.nodes()
    in_shape = _in_shape(func)
    target = [int(s) for s in func.shape]
    attrs: dict[str, Any] = {}
    if 0 in target:
        if opset_version < 14 and any(s == 0 and (i >= len(in_shape) or in_shape[i] != 0)
                                      for i, s in enumerate(target)):
            raise ValueError(f'Reshape to {tuple(target)} (a size 0 not copied from the '
                             f'input) cannot be exported at opset {opset_version}: '
                             'it needs opset 14 (allowzero)')
        if opset_version >= 14:
            attrs['allowzero'] = 1
    else:
        for i, s in enumerate(target):
            if i >= len(in_shape) or s != in_shape[i]:
                break
            target[i] = 0
    gb.op_output_named('Reshape', [input_names[0], _i64(context, target, 'shape')],
                       output_names, **attrs)
    return gb.nodes()


# -- joining and splitting ----------------------------------------------------------
@support((7,))
def convert_Concat(func: Concat, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Concat (also hstack, vstack, dstack) -> Concat."""
    axis = _axis(func.axis, len(_in_shape(func)))
    return onnx_helper.make_node('Concat', input_names, output_names, axis=axis),


@support((7, 13))
def convert_Stack(func: Stack, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Stack -> Unsqueeze of each input, then Concat."""
    axis = _axis(func.axis, len(_in_shape(func)) + 1)
    gb = GraphBuilder()
    parts = [_unsqueeze(gb, x, [axis], opset_version, context) for x in input_names]
    gb.op_output_named('Concat', parts, output_names, axis=axis)
    return gb.nodes()


def _split_sizes(func: Any) -> tuple[int, list[int]]:
    in_shape = _in_shape(func)
    axis = _axis(func.axis, len(in_shape))
    n = in_shape[axis]
    if func.sections is not None:
        return axis, [n // func.sections] * func.sections
    points = [min(i, n) for i in func.indices or ()] + [n]
    sizes, start = [], 0
    for p in points:
        sizes.append(max(p - start, 0))
        start = max(start, p)
    return axis, sizes


def _split(gb: GraphBuilder, x: str, axis: int, sizes: Sequence[int], opset: int,
           context: Context, out: list[str] | None = None) -> list[str]:
    """Split ``x`` into ``sizes`` along ``axis`` (sizes as an input from opset 13)."""
    if opset >= 13:
        inputs = [x, _i64(context, sizes, 'split')]
        attrs: dict[str, Any] = {'axis': axis}
    else:
        inputs = [x]
        attrs = {'axis': axis, 'split': list(sizes)}
    if out is not None:
        gb.op_output_named('Split', inputs, out, **attrs)
        return out
    outs = gb.op('Split', inputs, num_outputs=len(sizes), **attrs)
    return [outs] if isinstance(outs, str) else list(outs)


@support((7, 13))
def convert_SplitAxis(func: SplitAxis, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SplitAxis (sections or indices) -> Split with the sizes of the parts."""
    axis, sizes = _split_sizes(func)
    gb = GraphBuilder()
    _split(gb, input_names[0], axis, sizes, opset_version, context, output_names)
    return gb.nodes()


@support((7, 13))
def convert_Separate(func: Separate, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Separate -> Split into parts of size 1, then Squeeze of each (only Squeeze
    for one part)."""
    in_shape = _in_shape(func)
    axis = _axis(func.axis, len(in_shape))
    gb = GraphBuilder()
    parts = [input_names[0]] if in_shape[axis] == 1 else \
        _split(gb, input_names[0], axis, [1] * in_shape[axis], opset_version, context)
    for part, out in zip(parts, output_names):
        _squeeze(gb, part, [axis], opset_version, context, [out])
    return gb.nodes()


@support((7,))
def convert_TransposeSequence(func: TransposeSequence, opset_version: int, input_names: list[str],
                              output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """TransposeSequence -> for each time step, Gather of that step from each sequence
    long enough, then Concat."""
    lengths = [node.shape[0] for node in func.inputs]
    gb = GraphBuilder()
    for t, out in enumerate(output_names):
        index = _i64(context, [t], f'step{t}')
        rows = [_op(gb, 'Gather', [x, index], axis=0)
                for x, n in zip(input_names, lengths) if n > t]
        gb.op_output_named('Concat', rows, [out], axis=0)
    return gb.nodes()


@support((7, 11, 13))
def convert_PadSequence(func: PadSequence, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """PadSequence -> Pad of each sequence to the length (constant ``padding``),
    Unsqueeze, then Concat (pads as inputs from opset 11)."""
    shapes = [tuple(node.shape) for node in func.inputs]
    dtype = func.inputs[0].dtype
    length = func.length if func.length is not None else max(s[0] for s in shapes)
    value = numpy.asarray(func.padding).astype(dtype).item()
    gb = GraphBuilder()
    rows = []
    for x, shape in zip(input_names, shapes):
        ndim = len(shape)
        if length > shape[0]:
            pads = [0] * ndim + [length - shape[0]] + [0] * (ndim - 1)
            x = _pad(gb, x, pads, value, dtype, opset_version, context)
        rows.append(_unsqueeze(gb, x, [0], opset_version, context))
    gb.op_output_named('Concat', rows, output_names, axis=0)
    return gb.nodes()


# -- axes -----------------------------------------------------------------------------
@support((7,))
def convert_Transpose(func: Transpose, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Transpose -> Transpose (axes reversed when None)."""
    ndim = len(_in_shape(func))
    perm = range(ndim)[::-1] if func.axes is None else [_axis(a, ndim) for a in func.axes]
    return _transpose(perm, input_names, output_names)


@support((7,))
def convert_Swapaxes(func: Swapaxes, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Swapaxes -> Transpose."""
    ndim = len(_in_shape(func))
    perm = list(range(ndim))
    a, b = _axis(func.axis1, ndim), _axis(func.axis2, ndim)
    perm[a], perm[b] = perm[b], perm[a]
    return _transpose(perm, input_names, output_names)


@support((7,))
def convert_Moveaxis(func: Moveaxis, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Moveaxis -> Transpose."""
    ndim = len(_in_shape(func))
    source = [_axis(a, ndim) for a in func.source]
    destination = [_axis(a, ndim) for a in func.destination]
    perm = [a for a in range(ndim) if a not in source]
    for dst, src in sorted(zip(destination, source)):
        perm.insert(dst, src)
    return _transpose(perm, input_names, output_names)


@support((7,))
def convert_Rollaxis(func: Rollaxis, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Rollaxis -> Transpose."""
    ndim = len(_in_shape(func))
    axis = _axis(func.axis, ndim)
    start = _axis(func.start, ndim)
    perm = [a for a in range(ndim) if a != axis]
    perm.insert(start if start <= axis else start - 1, axis)
    return _transpose(perm, input_names, output_names)


@support((7, 13))
def convert_Squeeze(func: Squeeze, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Squeeze -> Squeeze with the (non-negative) axes; all axes of size 1 when None."""
    in_shape = _in_shape(func)
    if func.axis is None:
        axes = [i for i, s in enumerate(in_shape) if s == 1]
    else:
        axes = sorted(_axis(a, len(in_shape)) for a in func.axis)
    if not axes:
        return onnx_helper.make_node('Identity', input_names, output_names),
    gb = GraphBuilder()
    _squeeze(gb, input_names[0], axes, opset_version, context, output_names)
    return gb.nodes()


@support((7, 13))
def convert_ExpandDims(func: ExpandDims, opset_version: int, input_names: list[str],
                       output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ExpandDims -> Unsqueeze."""
    axis = _axis(func.axis, len(_in_shape(func)) + 1)
    gb = GraphBuilder()
    _unsqueeze(gb, input_names[0], [axis], opset_version, context, output_names)
    return gb.nodes()


# -- rearranging ------------------------------------------------------------------------
@support((7,))
def convert_Depth2Space(func: Depth2Space, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Depth2Space -> DepthToSpace (Chainer's order is ONNX's DCR mode, the default)."""
    return onnx_helper.make_node('DepthToSpace', input_names, output_names, blocksize=func.r),


@support((7,))
def convert_Space2Depth(func: Space2Depth, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Space2Depth -> SpaceToDepth."""
    return onnx_helper.make_node('SpaceToDepth', input_names, output_names, blocksize=func.r),


@support((7, 13))
def convert_Tile(func: Tile, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Tile -> Tile (Unsqueeze first when ``reps`` has more axes than the input)."""
    ndim = len(_in_shape(func))
    reps = list(func.reps)
    gb = GraphBuilder()
    x = input_names[0]
    if len(reps) > ndim:
        x = _unsqueeze(gb, x, range(len(reps) - ndim), opset_version, context)
    reps = [1] * (ndim - len(reps)) + reps
    gb.op_output_named('Tile', [x, _i64(context, reps, 'repeats')], output_names)
    return gb.nodes()


@support((7,))
def convert_Repeat(func: Repeat, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Repeat -> Gather of the repeated indices (after a Reshape to 1-D when ``axis``
    is None)."""
    in_shape = _in_shape(func)
    gb = GraphBuilder()
    x = input_names[0]
    if func.axis is None:
        x = _op(gb, 'Reshape', [x, _i64(context, [-1], 'shape')])
        axis, n = 0, int(numpy.prod(in_shape))
    else:
        axis = _axis(func.axis, len(in_shape))
        n = in_shape[axis]
    index = numpy.repeat(numpy.arange(n), func.repeats)
    gb.op_output_named('Gather', [x, _i64(context, index, 'indices')], output_names, axis=axis)
    return gb.nodes()


@support((7,))
def convert_Permutate(func: Permutate, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Permutate -> Gather with the (inverted when ``inv``) permutation."""
    indices = numpy.asarray(func.indices).astype(numpy.int64)
    if func.inv:
        inverse = numpy.empty_like(indices)
        inverse[indices] = numpy.arange(len(indices))
        indices = inverse
    axis = _axis(func.axis, len(_in_shape(func)))
    gb = GraphBuilder()
    gb.op_output_named('Gather', [input_names[0], _i64(context, indices, 'indices')],
                       output_names, axis=axis)
    return gb.nodes()


def _flip(func: Any, opset_version: int, input_names: list[str], output_names: list[str],
          context: Context) -> tuple[NodeProto, ...]:
    in_shape = _in_shape(func)
    axis = _axis(func.axis, len(in_shape))
    gb = GraphBuilder()
    if opset_version >= 10:
        _slice(gb, input_names[0], [-1], [INT64_MIN], [axis], [-1], opset_version, context,
               output_names)
    else:
        index = _i64(context, numpy.arange(in_shape[axis])[::-1], 'indices')
        gb.op_output_named('Gather', [input_names[0], index], output_names, axis=axis)
    return gb.nodes()


@support((7, 10))
def convert_Flip(func: Flip, opset_version: int, input_names: list[str],
                 output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Flip -> Slice with step -1 (from opset 10; Gather of reversed indices before)."""
    return _flip(func, opset_version, input_names, output_names, context)


@support((7, 10))
def convert_FlipLR(func: FlipLR, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """FlipLR -> Slice of axis 1 with step -1 (Gather before opset 10)."""
    return _flip(func, opset_version, input_names, output_names, context)


@support((7, 10))
def convert_FlipUD(func: FlipUD, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """FlipUD -> Slice of axis 0 with step -1 (Gather before opset 10)."""
    return _flip(func, opset_version, input_names, output_names, context)


# -- padding, selection, broadcasting -------------------------------------------------------
@support((7, 11))
def convert_Pad(func: Pad, opset_version: int, input_names: list[str],
                output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Pad (mode 'constant') -> Pad (pads and value as inputs from opset 11); one Pad
    per padded side when ``constant_values`` differ between axes or sides. (The other
    modes of F.pad are GetItem gathers.)"""
    in_shape = _in_shape(func)
    ndim = len(in_shape)
    dtype = func.inputs[0].dtype
    if ndim == 0:
        return onnx_helper.make_node('Identity', input_names, output_names),
    widths = numpy.broadcast_to(numpy.asarray(func.pad_width, dtype=numpy.int64), (ndim, 2))
    values = numpy.broadcast_to(
        numpy.asarray(func.keywords.get('constant_values', 0)).astype(dtype), (ndim, 2))
    gb = GraphBuilder()
    if (values == values.flat[0]).all():
        pads = list(widths[:, 0]) + list(widths[:, 1])
        _pad(gb, input_names[0], pads, values.flat[0], dtype, opset_version, context,
             output_names)
        return gb.nodes()
    # NumPy pads axis after axis: a later axis's value fills the corners
    x = input_names[0]
    for axis in range(ndim):
        for side in range(2):
            if widths[axis, side]:
                pads = [0] * (2 * ndim)
                pads[side * ndim + axis] = int(widths[axis, side])
                x = _pad(gb, x, pads, values[axis, side], dtype, opset_version, context)
    gb.op_output_named('Identity', [x], output_names)
    return gb.nodes()


@support((7, 11, 13))
def convert_SelectItem(func: SelectItem, opset_version: int, input_names: list[str],
                       output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SelectItem (``x[arange(n), t]``) -> GatherElements and Squeeze from opset 11;
    before, Gather from the flattened x at ``row * width + t``."""
    x, t = input_names
    batch, width = _in_shape(func)
    gb = GraphBuilder()
    t64 = _op(gb, 'Cast', [t], to=onnx.TensorProto.INT64)
    if opset_version >= 11:
        t2 = _unsqueeze(gb, t64, [1], opset_version, context)
        y = _op(gb, 'GatherElements', [x, t2], axis=1)
        _squeeze(gb, y, [1], opset_version, context, output_names)
        return gb.nodes()
    flat = _op(gb, 'Reshape', [x, _i64(context, [-1], 'shape')])
    offsets = _i64(context, numpy.arange(batch) * width, 'offsets')
    index = _op(gb, 'Add', [t64, offsets])
    gb.op_output_named('Gather', [flat, index], output_names, axis=0)
    return gb.nodes()


@support((9,))
def convert_Where(func: Where, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Where (its condition an array of the function) -> Where with a bool Constant."""
    condition = context.add_const(numpy.asarray(func.condition, dtype=numpy.bool_), 'condition')
    return onnx_helper.make_node('Where', [condition, *input_names], output_names),


@support((7, 8))
def convert_BroadcastTo(func: BroadcastTo, opset_version: int, input_names: list[str],
                        output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """BroadcastTo -> Expand from opset 8 (Add of zeros before); sizes the input already
    has are left to broadcasting, so a dynamic batch axis works."""
    gb = GraphBuilder()
    _broadcast(gb, input_names[0], func.inputs[0].dtype, _in_shape(func), func._shape,
               opset_version, context, output_names)
    return gb.nodes()


@support((7, 8))
def convert_Broadcast(func: Broadcast, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Broadcast -> Expand of each input to the common shape (Add of zeros before 8)."""
    shape = numpy.broadcast_shapes(*(tuple(n.shape) for n in func.inputs))
    gb = GraphBuilder()
    for i, (x, out) in enumerate(zip(input_names, output_names)):
        in_shape = _in_shape(func, i)
        if in_shape == shape:
            gb.op_output_named('Identity', [x], [out])
        else:
            _broadcast(gb, x, func.inputs[i].dtype, in_shape, shape, opset_version, context,
                       [out])
    return gb.nodes()


@support((7, 13))
def convert_SumTo(func: SumTo, opset_version: int, input_names: list[str],
                  output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """SumTo -> ReduceSum over the broadcast axes (axes as an input from opset 13), then
    Squeeze of the leading ones."""
    in_shape = _in_shape(func)
    shape = tuple(func._shape)
    lead = len(in_shape) - len(shape)
    axes = list(range(lead)) + [lead + i for i, s in enumerate(shape)
                                if s == 1 and in_shape[lead + i] != 1]
    if not axes:
        return onnx_helper.make_node('Identity', input_names, output_names),
    gb = GraphBuilder()
    x = input_names[0]
    out = None if lead else output_names
    if opset_version >= 13:
        inputs = [x, _i64(context, axes, 'axes')]
        attrs: dict[str, Any] = {'keepdims': 1}
    else:
        inputs = [x]
        attrs = {'axes': axes, 'keepdims': 1}
    if out is not None:
        gb.op_output_named('ReduceSum', inputs, out, **attrs)
        return gb.nodes()
    y = _op(gb, 'ReduceSum', inputs, **attrs)
    _squeeze(gb, y, list(range(lead)), opset_version, context, output_names)
    return gb.nodes()


# -- resizing -------------------------------------------------------------------------------
def _align_corners_matrix(out: int, n: int) -> numpy.ndarray:
    """The (out, n) bilinear interpolation matrix with aligned corners."""
    src = numpy.arange(out) * ((n - 1) / (out - 1))
    i0 = numpy.minimum(numpy.floor(src).astype(numpy.int64), n - 1)
    w = src - i0
    a = numpy.zeros((out, n))
    numpy.add.at(a, (numpy.arange(out), i0), 1 - w)
    numpy.add.at(a, (numpy.arange(out), numpy.minimum(i0 + 1, n - 1)), w)
    return a


def _is_align_corners(a: Any) -> bool:
    a = numpy.asarray(a)
    out, n = a.shape
    return out > 1 and n > 1 and numpy.allclose(a, _align_corners_matrix(out, n), atol=1e-12)


@support((7, 11, 13))
def convert_ResizeImages(func: ResizeImages, opset_version: int, input_names: list[str],
                         output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ResizeImages -> Resize (linear, ``align_corners``, sizes keeping N and C) from
    opset 11 for bilinear resizing with aligned corners; otherwise (older opsets, other
    modes) two MatMuls with Chainer's interpolation matrices, which compute the same."""
    a_h, a_w = numpy.asarray(func.a_h), numpy.asarray(func.a_w)
    x = input_names[0]
    gb = GraphBuilder()
    if opset_version >= 11 and _is_align_corners(a_h) and _is_align_corners(a_w):
        shape = _op(gb, 'Shape', [x])
        nc = _slice(gb, shape, [0], [2], [0], [1], opset_version, context)
        sizes = _op(gb, 'Concat', [nc, _i64(context, [a_h.shape[0], a_w.shape[0]], 'sizes')],
                      axis=0)
        if opset_version >= 13:
            inputs = [x, '', '', sizes]
        else:
            empty = context.add_const(numpy.zeros(0, numpy.float32), 'empty')
            inputs = [x, empty, empty, sizes]
        gb.op_output_named('Resize', inputs, output_names, mode='linear',
                           coordinate_transformation_mode='align_corners')
        return gb.nodes()
    dtype = func.inputs[0].dtype
    w_t = context.add_const(a_w.T.astype(dtype), 'a_w_t')
    h = context.add_const(a_h.astype(dtype), 'a_h')
    t = _op(gb, 'MatMul', [x, w_t])
    gb.op_output_named('MatMul', [h, t], output_names)
    return gb.nodes()


# -- indexing -------------------------------------------------------------------------------
def _index_items(slices: Sequence[Any], in_shape: Sequence[int]) -> list[Any]:
    """GetItem's index as ints, slices, None and int64 arrays (non-negative), with the
    Ellipsis and the trailing axes written out as full slices."""
    items: list[Any] = []
    for s in slices:
        if isinstance(s, (int, numpy.integer)) and not isinstance(s, (bool, numpy.bool_)):
            items.append(int(s))
        elif hasattr(s, 'dtype'):
            a = to_numpy(s)
            if a.dtype == numpy.bool_:
                if a.ndim == 0:
                    raise ValueError('GetItem with a boolean scalar index cannot be exported')
                items.extend(numpy.nonzero(a))
            elif a.ndim == 0:
                items.append(int(a))
            else:
                items.append(a.astype(numpy.int64))
        else:
            items.append(s)
    consumed = sum(1 for s in items if s is not None and s is not Ellipsis)
    fill = [slice(None)] * (len(in_shape) - consumed)
    where = [k for k, s in enumerate(items) if s is Ellipsis]
    if where:
        items[where[0]:where[0] + 1] = fill
    else:
        items.extend(fill)
    axis = 0
    for k, s in enumerate(items):
        if s is None:
            continue
        if isinstance(s, numpy.ndarray):
            items[k] = numpy.where(s < 0, s + in_shape[axis], s)
        axis += 1
    return items


def _slice_bounds(s: slice) -> tuple[int, int, int]:
    step = 1 if s.step is None else int(s.step)
    if s.start is not None:
        start = int(s.start)
    else:
        start = 0 if step > 0 else INT64_MAX
    if s.stop is not None:
        stop = int(s.stop)
    else:
        stop = INT64_MAX if step > 0 else INT64_MIN
    return start, stop, step


@support((7, 10, 11, 13))
def convert_GetItem(func: GetItem, opset_version: int, input_names: list[str],
                    output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """GetItem -> Slice (ints, slices; steps other than 1 from opset 10), Squeeze of the
    int-indexed axes, Gather for one integer array, GatherND (from opset 11, with
    Transposes around it when axes precede the indexed ones) for several, and Unsqueeze
    for None. Indices that NumPy would move to the front (advanced indices separated by
    a slice or None) raise a ValueError."""
    in_shape = _in_shape(func)
    items = _index_items(func.slices, in_shape)
    arrays = [k for k, s in enumerate(items) if isinstance(s, numpy.ndarray)]
    advanced = [k for k, s in enumerate(items) if isinstance(s, (int, numpy.ndarray))]
    multi = len(arrays) > 1
    if arrays and advanced != list(range(advanced[0], advanced[-1] + 1)):
        raise ValueError(f'GetItem with the index {func.slices!r} cannot be exported (opset '
                         f'{opset_version}): its integer and array indices are not adjacent, '
                         'so NumPy moves their axes first')
    if multi and opset_version < 11:
        raise ValueError(f'GetItem with several index arrays cannot be exported at opset '
                         f'{opset_version}: it needs GatherND (opset 11)')
    gb = GraphBuilder()
    x = input_names[0]
    starts: list[int] = []
    ends: list[int] = []
    axes: list[int] = []
    steps: list[int] = []
    squeezed: list[int] = []
    axis = 0
    for s in items:
        if s is None:
            continue
        if isinstance(s, slice):
            start, stop, step = _slice_bounds(s)
            if step != 1 and opset_version < 10:
                raise ValueError(f'GetItem with a slice step of {step} cannot be exported '
                                 f'at opset {opset_version}: it needs opset 10')
            if (start, stop, step) != (0, INT64_MAX, 1):
                starts.append(start)
                ends.append(stop)
                axes.append(axis)
                steps.append(step)
        elif isinstance(s, int) and not multi:
            starts.append(s)
            ends.append(s + 1 if s != -1 else INT64_MAX)
            axes.append(axis)
            steps.append(1)
            squeezed.append(axis)
        axis += 1
    if axes:
        x = _slice(gb, x, starts, ends, axes, steps, opset_version, context)
    if squeezed:
        x = _squeeze(gb, x, squeezed, opset_version, context)
    n_index = 0  # the axes the advanced index adds to the output
    if multi:
        first = sum(1 for s in items[:advanced[0]] if s is not None)
        m = len(advanced)
        rest = len(in_shape) - first - m
        index = numpy.stack(numpy.broadcast_arrays(
            *(numpy.asarray(items[k], dtype=numpy.int64) for k in advanced)), axis=-1)
        n_index = index.ndim - 1
        if first:
            perm = list(range(first, first + m)) + list(range(first)) + \
                list(range(first + m, first + m + rest))
            x = _op(gb, 'Transpose', [x], perm=perm)
        x = _op(gb, 'GatherND', [x, _i64(context, index, 'indices')])
        if first:
            perm = list(range(n_index, n_index + first)) + list(range(n_index)) + \
                list(range(n_index + first, n_index + first + rest))
            x = _op(gb, 'Transpose', [x], perm=perm)
    elif arrays:
        k = arrays[0]
        gather_axis = sum(1 for s in items[:k] if isinstance(s, slice))
        n_index = items[k].ndim
        x = _op(gb, 'Gather', [x, _i64(context, items[k], 'indices')],
                  axis=gather_axis)
    new_axes: list[int] = []
    out = 0
    for k, s in enumerate(items):
        if s is None:
            new_axes.append(out)
            out += 1
        elif isinstance(s, slice):
            out += 1
        elif (k == advanced[0]) if multi else isinstance(s, numpy.ndarray):
            out += n_index
    if new_axes:
        x = _unsqueeze(gb, x, new_axes, opset_version, context)
    if x == input_names[0]:
        gb.op_output_named('Identity', [x], output_names)
        return gb.nodes()
    return gb.nodes(output_names)


# -- diagonals, scatters, patches, spatial transformers ----------------------------------
@support((7,))
def convert_Diagonal(func: Diagonal, opset_version: int, input_names: list[str],
                     output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Diagonal (``x.diagonal(offset, axis1, axis2)``) -> Transpose of the two axes to
    the end, Reshape joining them, Gather of the diagonal's flat positions."""
    shape = _in_shape(func)
    ndim = len(shape)
    a1, a2 = _axis(func.axis1, ndim), _axis(func.axis2, ndim)
    rest = [i for i in range(ndim) if i not in (a1, a2)]
    n1, n2 = shape[a1], shape[a2]
    positions = numpy.arange(n1 * n2).reshape(n1, n2).diagonal(func.offset)
    gb = GraphBuilder()
    t = _op(gb, 'Transpose', input_names[:1], perm=rest + [a1, a2])
    flat = _op(gb, 'Reshape', [t, _i64(context, [0] * len(rest) + [n1 * n2], 'shape')])
    gb.op_output_named('Gather', [flat, _i64(context, positions, 'positions')], output_names,
                       axis=len(rest))
    return gb.nodes()


def scatter_add_flat(gb: GraphBuilder, context: Context, opset: int, base: str,
                     positions: numpy.ndarray, values: str, name: str,
                     base_is_zero: bool = False) -> str:
    """``base`` (1-D) with ``values`` (1-D) added at the constant ``positions``:
    ScatterElements with ``reduction='add'`` from opset 16; from 11 (``opset`` 11 or 16)
    ``base[p] + values`` (Gather, Add; just ``values`` on a zero base) written back,
    which needs distinct positions: repeated ones raise ValueError naming ``name``."""
    index = _i64(context, positions, 'positions')
    if opset >= 16:
        return _op(gb, 'ScatterElements', [base, index, values], axis=0, reduction='add')
    if len(numpy.unique(positions)) != positions.size:
        raise ValueError(f'{name} with repeated target positions needs opset 16 '
                         f'(ScatterElements reduction="add"), not {opset}')
    if not base_is_zero:
        values = _op(gb, 'Add', [_op(gb, 'Gather', [base, index], axis=0), values])
    return _op(gb, 'ScatterElements', [base, index, values], axis=0)


@support((11, 16))
def convert_ScatterAdd(func: ScatterAdd, opset_version: int, input_names: list[str],
                       output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """ScatterAdd (a copy of ``a`` with ``b`` added at ``a[slices]``) -> ScatterElements
    on the flattened ``a`` at the flat positions of ``a[slices]`` (constants: the slices
    are fixed), ``b`` broadcast (Expand) and flattened: from opset 16 with
    ``reduction='add'``; from 11 as the sum ``a[p] + b`` (Gather, Add) written back, which
    needs distinct positions (repeated ones raise ValueError there)."""
    a, b = input_names
    a_shape = _in_shape(func)
    index_of = numpy.arange(int(numpy.prod(a_shape)), dtype=numpy.int64).reshape(a_shape)
    picked = index_of[tuple(to_numpy(s) if hasattr(s, 'shape') else s for s in func.slices)]
    positions, target_shape = picked.reshape(-1), picked.shape
    gb = GraphBuilder()
    b_in = b
    if _in_shape(func, 1) != tuple(target_shape):
        b_in = _op(gb, 'Expand', [b, _i64(context, list(target_shape), 'target_shape')])
    flat_shape = _i64(context, [-1], 'flat')
    b_flat = _op(gb, 'Reshape', [b_in, flat_shape])
    a_flat = _op(gb, 'Reshape', [a, flat_shape])
    y = scatter_add_flat(gb, context, opset_version, a_flat, positions, b_flat, 'ScatterAdd')
    gb.op_output_named('Reshape', [y, _i64(context, list(a_shape), 'shape')], output_names)
    return gb.nodes()


@support((7,))
def convert_Im2Col(func: Im2Col, opset_version: int, input_names: list[str],
                   output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """Im2Col -> one Conv per channel (group = C) with ``kh * kw`` one-hot kernels
    (output channel ``(c * kh + i) * kw + j`` reads tap ``(i, j)``): stride, pads
    (``cover_all`` as extra end padding) and dilation as Chainer's. Exact for finite
    inputs (a NaN or inf also spreads to its window's other taps, through ``0 * x``)."""
    ksize = (func.kh, func.kw)
    pads = conv_pads(_in_shape(func)[2:], ksize, (func.sy, func.sx), (func.ph, func.pw),
                     (func.dy, func.dx), func.cover_all)
    gb = GraphBuilder()
    taps = [(i, j) for i in range(func.kh) for j in range(func.kw)]
    one_hot_conv(gb, context, input_names[0], func.inputs[0].dtype, ksize,
                 [taps] * func.inputs[0].shape[1], (func.sy, func.sx), pads,
                 (func.dy, func.dx), output_names)
    return gb.nodes()


@support((7,))
def convert_SpatialTransformerGrid(func: SpatialTransformerGrid, opset_version: int,
                                   input_names: list[str],
                                   output_names: list[str],
                                   context: Context) -> tuple[NodeProto, ...]:
    """SpatialTransformerGrid -> MatMul of theta ``(n, 2, 3)`` with the constant target
    grid ``[x_t; y_t; 1]`` ``(3, h * w)`` (x and y evenly in ``[-1, 1]``), Reshape to
    ``(n, 2, h, w)``."""
    h, w = func.output_shape
    dtype = numpy.dtype(func.inputs[0].dtype)
    ys, xs = numpy.meshgrid(numpy.linspace(-1, 1, h, dtype=dtype),
                            numpy.linspace(-1, 1, w, dtype=dtype), indexing='ij')
    base = numpy.stack([xs.reshape(-1), ys.reshape(-1), numpy.ones(h * w, dtype)])
    gb = GraphBuilder()
    y = _op(gb, 'MatMul', [input_names[0], context.add_const(base, 'grid')])
    gb.op_output_named('Reshape', [y, _i64(context, [-1, 2, h, w], 'shape')], output_names)
    return gb.nodes()


@support((16, 20))
def convert_SpatialTransformerSampler(func: SpatialTransformerSampler, opset_version: int,
                                      input_names: list[str],
                                      output_names: list[str],
                                      context: Context) -> tuple[NodeProto, ...]:
    """SpatialTransformerSampler (the node; ``F.spatial_transformer_sampler`` records its
    inner functions instead) -> GridSample (bilinear, ``align_corners=1``: -1 and 1 are
    the centres of the border pixels; zeros outside), the grid ``(n, 2, h, w)``
    transposed to ``(n, h, w, 2)``; the mode is named ``linear`` from opset 20."""
    gb = GraphBuilder()
    grid = _op(gb, 'Transpose', [input_names[1]], perm=[0, 2, 3, 1])
    mode = 'linear' if opset_version >= 20 else 'bilinear'
    gb.op_output_named('GridSample', [input_names[0], grid], output_names, mode=mode,
                       padding_mode='zeros', align_corners=1)
    return gb.nodes()


@support((7,))
def convert_AsStrided(func: AsStrided, opset_version: int, input_names: list[str],
                      output_names: list[str], context: Context) -> tuple[NodeProto, ...]:
    """AsStrided -> Reshape of x to 1-D and Gather of the element of x each view position
    reads (a constant: the storage positions of the view mapped back to the elements of
    x that live there). A view reading storage that is not part of x (x itself a view
    of a larger array) raises ValueError: the graph has no such memory."""
    in_pos, out_pos = func.storage_positions()
    in_pos = in_pos.reshape(-1)
    element_of = dict(zip(in_pos.tolist(), range(in_pos.size)))
    try:
        index = numpy.vectorize(element_of.__getitem__, otypes=[numpy.int64])(out_pos)
    except KeyError:
        raise ValueError('AsStrided reads storage outside its input (a view of a larger '
                         'array); only views within the input export') from None
    gb = GraphBuilder()
    flat = _op(gb, 'Reshape', [input_names[0], _i64(context, [-1], 'flat')])
    gb.op_output_named('Gather', [flat, _i64(context, index, 'positions')], output_names,
                       axis=0)
    return gb.nodes()
