"""Converters of chainer.functions.array: export, check, run in onnxruntime, compare."""

from __future__ import annotations

import numpy
import onnx
import pytest
from _onnx_check import MAX, check_export, op_types, opsets, run_onnx

import chainer
import chainer.functions as F
import onnx_chainer


def _x(*shape: int, dtype: type = numpy.float32) -> numpy.ndarray:
    return numpy.arange(numpy.prod(shape), dtype=dtype).reshape(shape) - 3


def _model(fn):
    return chainer.Sequential(fn)


class _Multi(chainer.Chain):
    """A model taking several inputs."""

    def __init__(self, fn):
        super().__init__()
        self.fn = fn

    def forward(self, *xs):
        return self.fn(*xs)


def _export(fn, args, opset, **kwargs):
    model = _Multi(fn) if isinstance(args, tuple) else _model(fn)
    proto = check_export(model, args, opset, **kwargs)
    if opset >= 9:  # (before 9, integer constants are initializers: Constant holds floats)
        assert len(proto.graph.initializer) == 0
    return proto


# -- simple one-input functions ---------------------------------------------------
UNARY = [
    ('cast', lambda x: F.cast(x, numpy.float64), (2, 3), 7),
    ('cast_int', lambda x: F.cast(x, numpy.int32), (2, 3), 7),
    ('copy', lambda x: F.copy(x, -1), (2, 3), 7),
    ('depth2space', lambda x: F.depth2space(x, 2), (1, 8, 2, 3), 7),
    ('space2depth', lambda x: F.space2depth(x, 2), (1, 2, 4, 6), 7),
    ('reshape', lambda x: F.reshape(x, (2, 1, 3, 4)), (2, 3, 4), 7),
    ('reshape_minus1', lambda x: F.reshape(x, (-1, 4)), (2, 3, 4), 7),
    ('reshape_flat', lambda x: F.reshape(x, (24,)), (2, 3, 4), 7),
    ('squeeze_all', lambda x: F.squeeze(x), (1, 3, 1, 2), 7),
    ('squeeze_axes', lambda x: F.squeeze(x, (2, -1)), (1, 3, 1, 2, 1), 7),
    ('swapaxes', lambda x: F.swapaxes(x, -3, -1), (2, 3, 4), 7),
    ('tile', lambda x: F.tile(x, (1, 2)), (2, 3), 7),
    ('tile_short', lambda x: F.tile(x, 2), (2, 3), 7),
    ('tile_long', lambda x: F.tile(x, (2, 1, 3)), (2, 3), 7),
    ('transpose', lambda x: F.transpose(x), (2, 3, 4), 7),
    ('transpose_axes', lambda x: F.transpose(x, (1, -1, 0)), (2, 3, 4), 7),
    ('expand_dims0', lambda x: F.expand_dims(x, 0), (3,), 7),
    ('expand_dims_neg', lambda x: F.expand_dims(x, -2), (2, 3), 7),
    ('repeat_flat', lambda x: F.repeat(x, 2), (2, 3), 7),
    ('repeat_axis', lambda x: F.repeat(x, (1, 0, 3), axis=1), (2, 3), 7),
    ('moveaxis', lambda x: F.moveaxis(x, 0, -1), (2, 3, 4, 5), 7),
    ('moveaxis_many', lambda x: F.moveaxis(x, (0, 3), (2, 0)), (2, 3, 4, 5), 7),
    ('rollaxis', lambda x: F.rollaxis(x, 2, 0), (2, 3, 4, 5), 7),
    ('rollaxis_fwd', lambda x: F.rollaxis(x, 0, 3), (2, 3, 4, 5), 7),
    ('permutate', lambda x: F.permutate(x, numpy.array([2, 0, 1], numpy.int32)), (3, 2), 7),
    ('permutate_inv_axis', lambda x: F.permutate(x, numpy.array([1, 2, 0], numpy.int32),
                                                 axis=1, inv=True), (2, 3), 7),
    ('broadcast_to', lambda x: F.broadcast_to(x, (2, 2, 3, 4)), (3, 1), 7),
    ('sum_to', lambda x: F.sum_to(x, (3, 1)), (2, 3, 4), 7),
    ('sum_to_keep', lambda x: F.sum_to(x, (1, 4)), (3, 4), 7),
    ('pad_constant', lambda x: F.pad(x, ((0, 0), (1, 2), (2, 0)), 'constant'), (1, 2, 3), 7),
    ('pad_value', lambda x: F.pad(x, 2, 'constant', constant_values=-1), (2, 3), 7),
    ('pad_values', lambda x: F.pad(x, ((1, 2), (2, 1)), 'constant',
                                   constant_values=((1, 2), (3, 4))), (2, 3), 7),
    ('pad_edge', lambda x: F.pad(x, ((1, 2), (2, 1)), 'edge'), (2, 3), 7),
    ('pad_reflect', lambda x: F.pad(x, ((1, 2), (2, 1)), 'reflect'), (3, 4), 7),
    ('split_sections', lambda x: F.split_axis(x, 3, axis=1), (2, 6), 7),
    ('split_indices', lambda x: F.split_axis(x, [1, 4], axis=-1), (2, 6), 7),
    ('split_one', lambda x: F.split_axis(x, 1, axis=0, force_tuple=True), (2, 6), 7),
    ('split_no_tuple', lambda x: F.split_axis(x, 1, axis=0, force_tuple=False), (2, 6), 7),
    ('separate', lambda x: F.separate(x, axis=1), (2, 3), 7),
    ('separate_single', lambda x: F.separate(x), (1, 2, 3), 7),
    ('flip', lambda x: F.flip(x, 1), (2, 3, 4), 7),
    ('fliplr', F.fliplr, (2, 3), 7),
    ('flipud', F.flipud, (2, 3), 7),
    ('resize_up', lambda x: F.resize_images(x, (4, 5)), (1, 2, 2, 3), 7),
    ('resize_down', lambda x: F.resize_images(x, (3, 2)), (2, 1, 5, 4), 7),
    ('resize_nearest', lambda x: F.resize_images(x, (5, 7), mode='nearest'), (1, 1, 2, 3), 7),
    ('resize_half_pixel', lambda x: F.resize_images(x, (5, 7), align_corners=False),
     (1, 1, 2, 3), 7),
]
CHANGES = {'squeeze': (13,), 'expand': (13,), 'sum_to': (8, 13), 'pad': (11,),
           'split': (13,), 'separate': (13,), 'tile': (13,), 'flip': (10,), 'broadcast': (8,),
           'resize': (11, 13), 'reshape': (14,)}


def _cases():
    for name, fn, shape, first in UNARY:
        changes = next((v for k, v in CHANGES.items() if name.startswith(k)), ())
        for opset in opsets(first, changes):
            yield pytest.param(fn, shape, opset, id=f'{name}-{opset}')


@pytest.mark.parametrize('fn,shape,opset', list(_cases()))
def test_unary(fn, shape, opset):
    _export(fn, _x(*shape), opset)


def test_resize_uses_resize_from_11():
    x = _x(1, 2, 2, 3)
    fn = lambda v: F.resize_images(v, (4, 5))  # noqa: E731
    assert 'Resize' in op_types(_export(fn, x, 11))
    assert 'MatMul' in op_types(_export(fn, x, 10))
    half = lambda v: F.resize_images(v, (4, 5), align_corners=False)  # noqa: E731
    assert 'Resize' not in op_types(_export(half, x, MAX))


# -- GetItem --------------------------------------------------------------------------
GETITEM = [
    ('slice', slice(0, 2), 7),
    ('to1', slice(1), 7),
    ('from1', slice(1, None), 7),
    ('int', 0, 7),
    ('minus1', -1, 7),
    ('np_scalar', numpy.int64(1), 7),
    ('np_0d', numpy.array(0), 7),
    ('negative_bounds', (slice(None), slice(-2, -1), slice(-3, None)), 7),
    ('none', (None, slice(0, 2)), 7),
    ('ellipsis', (Ellipsis, slice(0, 2)), 7),
    ('ellipsis_int', (Ellipsis, -1), 7),
    ('mixed', (0, None, Ellipsis, -1, None), 7),
    ('step2', (slice(None), slice(None, 4, 2)), 10),
    ('step_neg1', slice(None, None, -1), 10),
    ('step_neg2', (slice(None), slice(None), slice(4, None, -2)), 10),
    ('step_neg_bounds', (slice(None), slice(-1, 0, -1)), 10),
    ('gather0', ([[0, 1], [0, 1]],), 7),
    ('gather1', (slice(None), [[0, 1], [1, 2]], slice(None)), 7),
    ('gather2', (Ellipsis, numpy.array([[0, -1], [1, 2]])), 7),
    ('gather_after_int', (slice(None), 0, [[0, 1], [2, 3]]), 7),
    ('gather_before_int', (slice(None), [[0, 1], [1, 2]], 0), 7),
    ('gather_none', (slice(None), None, [[0, 1], [1, 2]], slice(None)), 7),
    ('gather_bool', (slice(None), numpy.array([True, False, True])), 7),
    ('gathernd', [[0, 1], [1, 2]], 11),
    ('gathernd_full', ([0, 1], [0, 1], [2, 3]), 11),
    ('gathernd_int', (0, [0, 1], [2, 3]), 11),
    ('gathernd_int_between', ([0, 1], 0, [0, 1]), 11),
    ('gathernd_after_slice', (slice(None), [0, 1], [0, 1]), 11),
    ('gathernd_none', (None, [0, 1], [0, 2], None), 11),
]


def _getitem_cases():
    for name, index, first in GETITEM:
        changes = (10, 11, 13) if first == 7 else (13,)
        for opset in opsets(first, changes):
            yield pytest.param(index, opset, id=f'{name}-{opset}')


@pytest.mark.parametrize('index,opset', list(_getitem_cases()))
def test_get_item(index, opset):
    _export(lambda v: F.get_item(v, index), _x(2, 3, 4), opset)


def test_get_item_4d_gathernd_between_slices():
    x = _x(2, 3, 4, 5)
    _export(lambda v: F.get_item(v, (slice(None), [[0, 1]], [[2, 3]], slice(1, None))), x, 11)


@pytest.mark.parametrize('index,opset', [
    ((slice(None, None, 2),), 7),
    ((slice(None, None, -1),), 9),
    (([0, 1], [1, 2]), 10),
    (([0, 1], slice(None), [1, 2]), MAX),
    ((0, None, [1, 2]), MAX),
])
def test_get_item_unsupported(index, opset):
    model = _model(lambda v: F.get_item(v, index))
    with pytest.raises(ValueError, match=r'GetItem.*opset'):
        onnx_chainer.export(model, _x(2, 3, 4), opset_version=opset)


# -- several inputs -----------------------------------------------------------------------
def _xs(*shapes):
    return tuple(numpy.asarray(_x(*s) + i) for i, s in enumerate(shapes))


MULTI = [
    ('concat', lambda a, b: F.concat((a, b), axis=-1), ((2, 3), (2, 1)), 7),
    ('stack', lambda a, b: F.stack((a, b)), ((3, 4), (3, 4)), 7),
    ('stack_neg', lambda a, b: F.stack((a, b), axis=-1), ((3, 4), (3, 4)), 7),
    ('hstack0', lambda a, b: F.hstack((a, b)), ((), ()), 7),
    ('hstack2', lambda a, b: F.hstack((a, b)), ((3, 4), (3, 2)), 7),
    ('vstack1', lambda a, b: F.vstack((a, b)), ((3,), (3,)), 7),
    ('vstack2', lambda a, b: F.vstack((a, b)), ((3, 4), (2, 4)), 7),
    ('dstack0', lambda a, b: F.dstack((a, b)), ((), ()), 7),
    ('dstack1', lambda a, b: F.dstack((a, b)), ((3,), (3,)), 7),
    ('dstack3', lambda a, b: F.dstack((a, b)), ((3, 2, 2), (3, 2, 1)), 7),
    ('broadcast', lambda a, b: F.broadcast(a, b), ((2, 1, 4), (3, 1)), 7),
    ('transpose_sequence', lambda *xs: F.transpose_sequence(xs), ((3, 2), (2, 2), (2, 2)), 7),
    ('transpose_sequence_one', lambda *xs: F.transpose_sequence(xs), ((3, 4),), 7),
    ('pad_sequence', lambda *xs: F.pad_sequence(xs), ((3, 2), (1, 2), (2, 2)), 7),
    ('pad_sequence_len', lambda *xs: F.pad_sequence(xs, length=4, padding=-2),
     ((3,), (1,)), 7),
]
MULTI_CHANGES = {'stack': (13,), 'broadcast': (8,), 'pad_sequence': (11, 13)}


def _multi_cases():
    for name, fn, shapes, first in MULTI:
        changes = next((v for k, v in MULTI_CHANGES.items() if name.startswith(k)), ())
        for opset in opsets(first, changes):
            yield pytest.param(fn, shapes, opset, id=f'{name}-{opset}')


@pytest.mark.parametrize('fn,shapes,opset', list(_multi_cases()))
def test_multi(fn, shapes, opset):
    _export(fn, _xs(*shapes), opset)


@pytest.mark.parametrize('opset', opsets(7, (11, 13)))
def test_select_item(opset):
    x, t = _x(3, 5), numpy.array([4, 1, 0], numpy.int32)
    _export(lambda a, b: F.select_item(a, b), (x, t), opset)


@pytest.mark.parametrize('opset', opsets(9))
def test_where(opset):
    cond = numpy.array([[True, False, False], [False, True, True]])
    _export(lambda a, b: F.where(cond, a, b), _xs((2, 3), (2, 3)), opset)


def test_where_before_9():
    model = _Multi(lambda a, b: F.where(numpy.ones((2, 3), bool), a, b))
    with pytest.raises(ValueError, match='Where.*opset 8'):
        onnx_chainer.export(model, _xs((2, 3), (2, 3)), opset_version=8)


# -- as_funcnode: Shape and a dynamic Reshape ---------------------------------------------------
def test_shape():
    from onnx_chainer.replace_func import as_funcnode

    class Model(chainer.Chain):
        @as_funcnode('Shape')
        def shape(self, x):
            return numpy.array(x.shape, dtype=numpy.int64)

        def forward(self, x):
            return self.shape(x)

    for opset in opsets(7):
        _export(Model(), _x(3, 4, 5), opset)


def test_dynamic_reshape():
    from onnx_chainer.replace_func import as_funcnode

    class Model(chainer.Chain):
        @as_funcnode('Reshape')
        def reshape(self, x, shape):
            return F.reshape(x, tuple(shape.array))

        def forward(self, x, shape):
            return self.reshape(x, shape)

    for opset in opsets(7):
        proto = check_export(Model(), (_x(3, 4, 5), numpy.array([12, 5], numpy.int64)), opset)
        assert len(proto.graph.input) == 2


# -- a dynamic batch axis ----------------------------------------------------------------------
@pytest.mark.parametrize('fn', [
    lambda x: F.reshape(x, (x.shape[0], 12)),
    lambda x: F.reshape(x, (x.shape[0], 3, 2, 2)),
    lambda x: F.broadcast_to(x[:, :, :1], x.shape),
    lambda x: F.get_item(x, (slice(None), slice(1, None), -1)),
    lambda x: F.resize_images(F.expand_dims(x, 1), (5, 6)),
], ids=['reshape', 'reshape_leading', 'broadcast_to', 'get_item', 'resize'])
def test_dynamic_batch(fn):
    proto = onnx_chainer.export(_model(fn), _x(2, 3, 4), opset_version=MAX,
                                input_shapes=('N', 3, 4))
    onnx.checker.check_model(proto)
    x5 = _x(5, 3, 4)
    got, = run_onnx(proto, {proto.graph.input[0].name: x5})
    numpy.testing.assert_allclose(got, fn(x5).array, rtol=1e-5, atol=1e-5)
