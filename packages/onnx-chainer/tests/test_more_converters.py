"""Export of the second wave of converters (Arctan2, SafeSqrt, Diagonal, ScatterAdd,
Im2Col, Shift, LocalConvolution2D, spatial transformers, SLSTM, TreeLSTM, ROI align and
pooling, batch renormalization, fixed decorrelated batch normalization, AsStrided,
CooMatMul): each against Chainer's forward in onnxruntime."""

from __future__ import annotations

import numpy
import onnx
import pytest
from _onnx_check import Apply, check_export, op_types, opsets

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from chainer.functions.array.spatial_transformer_sampler import SpatialTransformerSampler
from chainer.functions.loss._util import SafeSqrt
from chainer.functions.math.sparse_matmul import CooMatMul
from chainer.utils.sparse import CooMatrix

RNG = numpy.random.RandomState(0)


def _x(*shape: int, low: float = -1, high: float = 1) -> numpy.ndarray:
    return RNG.uniform(low, high, shape).astype(numpy.float32)


def _check(fn, args, opset, n_params=0, **kwargs):
    proto = check_export(Apply(fn), args, opset, **kwargs)
    assert len(proto.graph.initializer) == n_params
    return proto


def _ops(proto) -> list[str]:
    return [op for op in op_types(proto) if op not in ('Constant', 'Cast')]


# -- math ------------------------------------------------------------------------------
@pytest.mark.parametrize('opset', opsets(9))
def test_arctan2(opset):
    x1 = _x(3, 4)
    x2 = _x(3, 4)
    # every quadrant, the axes and the origin
    x1[0, :] = [1, -1, 0, 0]
    x2[0, :] = [0, 0, -1, 0]
    x1[1, :] = [1, -1, 1, -1]
    x2[1, :] = [-1, -1, 1, 1]
    _check(F.arctan2, (x1, x2), opset)
    _check(F.arctan2, (x1, x2[:1]), opset)  # broadcast


def test_arctan2_before_opset_9():
    with pytest.raises(ValueError, match='Arctan2'):
        onnx_chainer.export(Apply(F.arctan2), (_x(2), _x(2)), opset_version=8)


@pytest.mark.parametrize('opset', opsets(7))
def test_safe_sqrt(opset):
    proto = _check(lambda x: SafeSqrt().apply((x,))[0], _x(3, 4, low=0, high=4), opset)
    assert _ops(proto) == ['Sqrt']


# -- array -----------------------------------------------------------------------------
DIAGONAL = [
    ((4, 5), dict()),
    ((4, 5), dict(offset=2)),
    ((4, 5), dict(offset=-1)),
    ((2, 3, 4, 5), dict(offset=1, axis1=3, axis2=1)),
    ((2, 3, 4), dict(axis1=-1, axis2=0)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(DIAGONAL)))
def test_diagonal(case, opset):
    shape, kwargs = DIAGONAL[case]
    proto = _check(lambda x: F.diagonal(x, **kwargs), _x(*shape), opset)
    assert _ops(proto) == ['Transpose', 'Reshape', 'Gather']


SCATTER = [
    ((4, 5), (slice(1, 3),), (2, 5)),
    ((4, 5), (slice(None), [0, 3]), (1, 2)),  # b broadcast
    ((3, 4, 5), (Ellipsis, 2), (3, 4)),
    ((4, 5), (numpy.array([0, 2]), numpy.array([1, 4])), (2,)),
]


@pytest.mark.parametrize('opset', opsets(11, (16,)))
@pytest.mark.parametrize('case', range(len(SCATTER)))
def test_scatter_add(case, opset):
    a_shape, slices, b_shape = SCATTER[case]
    proto = _check(lambda a, b: F.scatter_add(a, slices, b), (_x(*a_shape), _x(*b_shape)),
                   opset)
    assert 'ScatterElements' in _ops(proto)


@pytest.mark.parametrize('opset', opsets(16))
def test_scatter_add_repeated(opset):
    _check(lambda a, b: F.scatter_add(a, ([1, 3, 1],), b), (_x(4, 3), _x(3, 3)), opset)


def test_scatter_add_repeated_before_opset_16():
    model = Apply(lambda a, b: F.scatter_add(a, ([1, 1],), b))
    with pytest.raises(ValueError, match='opset 16'):
        onnx_chainer.export(model, (_x(4, 3), _x(2, 3)), opset_version=15)
    with pytest.raises(ValueError, match='ScatterAdd'):
        onnx_chainer.export(model, (_x(4, 3), _x(2, 3)), opset_version=10)


IM2COL = [
    (dict(ksize=2), (1, 2, 4, 5)),
    (dict(ksize=3, stride=2, pad=1), (2, 3, 6, 7)),
    (dict(ksize=(2, 3), stride=(2, 1), pad=(0, 1), cover_all=True), (1, 2, 5, 6)),
    (dict(ksize=2, dilate=2, pad=1), (1, 2, 6, 6)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(IM2COL)))
def test_im2col(case, opset):
    kwargs, shape = IM2COL[case]
    proto = _check(lambda x: F.im2col(x, **kwargs), _x(*shape), opset, rtol=0, atol=0)
    assert _ops(proto) == ['Conv']


@pytest.mark.parametrize('opset', opsets(7))
def test_spatial_transformer_grid(opset):
    theta = _x(2, 2, 3)
    proto = _check(lambda t: F.spatial_transformer_grid(t, (4, 5)), theta, opset)
    assert _ops(proto) == ['MatMul', 'Reshape']


@pytest.mark.parametrize('opset', opsets(16, (20,)))
def test_spatial_transformer_sampler(opset):
    x = _x(2, 3, 5, 6)
    grid = _x(2, 2, 4, 3, low=-1.3, high=1.3)  # some points outside the image
    proto = _check(lambda x, g: SpatialTransformerSampler().apply((x, g))[0], (x, grid),
                   opset)
    assert _ops(proto) == ['Transpose', 'GridSample']


# -- connection ------------------------------------------------------------------------
SHIFT = [
    (dict(), (1, 9, 4, 5)),
    (dict(ksize=3), (2, 11, 5, 4)),  # a remainder in the last group
    (dict(ksize=(3, 5), dilate=2), (1, 16, 6, 7)),
    (dict(ksize=3, dilate=(-1, 3)), (1, 10, 5, 8)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(SHIFT)))
def test_shift(case, opset):
    kwargs, shape = SHIFT[case]
    proto = _check(lambda x: F.shift(x, **kwargs), _x(*shape), opset, rtol=0, atol=0)
    assert _ops(proto) == ['Conv']


class _LocalConv(chainer.Chain):
    def __init__(self, nobias):
        super().__init__()
        with self.init_scope():
            self.conv = L.LocalConvolution2D(3, 4, (5, 6), 2, stride=(1, 2), nobias=nobias)
        if not nobias:
            self.conv.b.array[...] = _x(*self.conv.b.shape)

    def forward(self, x):
        return self.conv(x)


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('nobias', [False, True])
def test_local_convolution_2d(nobias, opset):
    proto = check_export(_LocalConv(nobias), _x(2, 3, 5, 6), opset)
    assert 'Conv' in _ops(proto) and 'MatMul' in _ops(proto)


# -- rnn -------------------------------------------------------------------------------
@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('rest', [(), (2,)])
def test_slstm(rest, opset):
    c1, c2 = _x(3, 4, *rest), _x(3, 4, *rest)
    x1, x2 = _x(3, 16, *rest), _x(3, 16, *rest)
    _check(lambda *a: F.slstm(*a), (c1, c2, x1, x2), opset)


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('n', [1, 3])
def test_tree_lstm(n, opset):
    cs = [_x(2, 4) for _ in range(n)]
    x = _x(2, 4 * (3 + n))
    _check(lambda *a: F.tree_lstm(*a), (*cs, x), opset)


# -- pooling ---------------------------------------------------------------------------
ALIGN = [
    dict(outsize=(3, 2), spatial_scale=0.6),
    dict(outsize=2, spatial_scale=1.0, sampling_ratio=2),
    dict(outsize=(2, 3), spatial_scale=0.5, sampling_ratio=(1, 1)),
]


@pytest.mark.parametrize('opset', opsets(10, (16, 21, 22)))
@pytest.mark.parametrize('case', range(len(ALIGN)))
def test_roi_average_align_2d(case, opset):
    x = _x(3, 2, 12, 10)
    # (y_min, x_min, y_max, x_max); one region partly outside, one under a pixel long
    rois = numpy.array([[1.3, 0.7, 9.1, 7.9], [-2.2, 3.1, 6.4, 14.3], [4.2, 2.1, 4.6, 8.8]],
                       numpy.float32)
    indices = numpy.array([2, 0, 1], numpy.int32)
    kwargs = ALIGN[case]
    model = Apply(lambda x, r, i: F.roi_average_align_2d(x, r, i, **kwargs))
    if opset >= 22:
        # onnxruntime has no kernel for RoiAlign-22: export and check only
        proto = onnx_chainer.export(model, (x, rois, indices), opset_version=opset)
        onnx.checker.check_model(proto, full_check=True)
    else:
        proto = _check(model.fn, (x, rois, indices), opset)
    assert _ops(proto) == ['Gather', 'RoiAlign']


def test_roi_average_align_2d_two_ratios():
    model = Apply(lambda x, r, i: F.roi_average_align_2d(x, r, i, 2, 1.0, (1, 2)))
    args = (_x(1, 1, 4, 4), numpy.array([[0, 0, 3, 3]], numpy.float32),
            numpy.zeros(1, numpy.int32))
    with pytest.raises(ValueError, match='sampling_ratio'):
        onnx_chainer.export(model, args, opset_version=16)


# -- normalization ---------------------------------------------------------------------
class _BRN(chainer.Chain):
    def __init__(self, size, **kwargs):
        super().__init__()
        with self.init_scope():
            self.bn = L.BatchRenormalization(size, **kwargs)
        self.bn.gamma.array[...] = RNG.uniform(0.5, 2, self.bn.gamma.shape)
        self.bn.beta.array[...] = RNG.uniform(-1, 1, self.bn.beta.shape)
        self.bn.avg_mean[...] = RNG.uniform(-1, 1, self.bn.avg_mean.shape)
        self.bn.avg_var[...] = RNG.uniform(0.5, 2, self.bn.avg_var.shape)

    def forward(self, x):
        return self.bn(x)


@pytest.mark.parametrize('opset', opsets(7, (11, 18)))
@pytest.mark.parametrize('shape', [(5, 3), (4, 3, 2, 3)])
def test_batch_renormalization_train(shape, opset):
    # r and d clipped (rmax 1.5, dmax 0.5) for some channels
    model = _BRN(3, rmax=1.5, dmax=0.5)
    mean, var = model.bn.avg_mean.copy(), model.bn.avg_var.copy()
    proto = check_export(model, _x(*shape, low=-3, high=3), opset, train=True)
    names = {i.name for i in proto.graph.initializer}
    assert {'param_bn_avg_mean', 'param_bn_avg_var'} <= names
    # the exporter's pass does not update the running statistics
    numpy.testing.assert_array_equal(model.bn.avg_mean, mean)
    numpy.testing.assert_array_equal(model.bn.avg_var, var)


@pytest.mark.parametrize('opset', opsets(7, (11, 18)))
def test_batch_renormalization_function(opset):
    gamma, beta = _x(3, 2, low=0.5, high=2), _x(3, 2)
    mean, var = _x(3, 2), _x(3, 2, low=0.5, high=2)

    def fn(x):
        return F.batch_renormalization(x, gamma, beta, 2, 0.3, running_mean=mean,
                                       running_var=var, update_statistics=False)

    # gamma and beta (arrays in the model) and the running statistics
    _check(fn, _x(4, 3, 2, 5, low=-2, high=2), opset, n_params=4)


class _DBN(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.dbn = L.DecorrelatedBatchNormalization(6, groups=2)

    def forward(self, x):
        return self.dbn(x)


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('shape', [(8, 6), (3, 6, 4, 5)])
def test_fixed_decorrelated_batch_normalization(shape, opset):
    model = _DBN()
    model.dbn(_x(*shape, low=-2, high=3))  # running statistics of one batch
    with chainer.using_config('train', False):
        proto = check_export(model, _x(*shape), opset)
    assert 'MatMul' in _ops(proto)


ROI_POOL = [
    dict(outsize=(3, 2), spatial_scale=0.6),
    dict(outsize=4, spatial_scale=1.0),
    dict(outsize=(2, 5), spatial_scale=0.5),
]


def _roi_args():
    x = _x(3, 2, 12, 10)
    # rounded bounds half to even (2.5 * 1.0), regions partly outside, under a pixel long
    rois = numpy.array([[1.3, 0.7, 9.1, 7.9], [-2.2, 3.1, 6.4, 14.3], [4.2, 2.5, 4.6, 8.8],
                        [2.5, 1.5, 11.5, 9.5]], numpy.float32)
    return x, rois, numpy.array([2, 0, 1, 0], numpy.int32)


@pytest.mark.parametrize('opset', opsets(11))
@pytest.mark.parametrize('case', range(len(ROI_POOL)))
def test_roi_average_pooling_2d(case, opset):
    kwargs = ROI_POOL[case]
    _check(lambda x, r, i: F.roi_average_pooling_2d(x, r, i, **kwargs), _roi_args(), opset)


@pytest.mark.parametrize('opset', opsets(11, (18,)))
@pytest.mark.parametrize('case', range(len(ROI_POOL)))
def test_roi_max_pooling_2d(case, opset):
    kwargs = ROI_POOL[case]
    _check(lambda x, r, i: F.roi_max_pooling_2d(x, r, i, **kwargs), _roi_args(), opset)


AS_STRIDED = [
    ((3, 4), (4, 1), 0),  # the identity
    ((2, 3), (1, 4), 1),  # a transposed window
    ((3, 3), (2, 1), 0),  # overlapping windows
    ((3,), (5,), 0),  # elements 0, 5, 10: a diagonal
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(AS_STRIDED)))
def test_as_strided(case, opset):
    shape, strides, offset = AS_STRIDED[case]
    proto = _check(lambda x: F.as_strided(x * 1, shape, strides, offset), _x(3, 4), opset)
    assert _ops(proto)[-2:] == ['Reshape', 'Gather']


def test_as_strided_of_a_larger_storage():
    # x[1:] is a view: the window starting 4 elements before it is outside the graph
    model = Apply(lambda x: F.as_strided(x[1:], (2,), (1,), 0))
    with pytest.raises(ValueError, match='outside its input'):
        onnx_chainer.export(model, _x(3, 4), opset_version=13)


COO = [
    # row, col, sp_shape, transa, transb, transc, dense shape
    ([0, 2, 1, -1], [1, 0, 3, -1], (3, 4), False, False, False, (4, 2)),
    ([0, 2, 1], [1, 0, 3], (3, 4), True, False, False, (3, 5)),
    ([0, 2, 1], [1, 0, 3], (3, 4), False, True, True, (2, 4)),
    ([[0, 1, -1], [2, 2, 0]], [[1, 0, -1], [3, 0, 0]], (3, 4), False, False, False,
     (2, 4, 2)),
]


@pytest.mark.parametrize('opset', opsets(11, (16,)))
@pytest.mark.parametrize('case', range(len(COO)))
def test_coo_matmul(case, opset):
    row, col, shape, transa, transb, transc, dense_shape = COO[case]
    row, col = numpy.array(row, numpy.int32), numpy.array(col, numpy.int32)

    def func(d, b):
        return CooMatMul(row, col, shape, 'other', transa, transb, transc).apply((d, b))[0]

    proto = _check(func, (_x(*row.shape), _x(*dense_shape)), opset)
    assert 'MatMul' in _ops(proto)


@pytest.mark.parametrize('opset', opsets(16))
def test_sparse_matmul_repeated_entries(opset):
    row, col = numpy.array([0, 1, 0], numpy.int32), numpy.array([2, 0, 2], numpy.int32)
    coo = CooMatrix(_x(3), row, col, (2, 3))

    def fn(b):
        return F.sparse_matmul(b, coo)  # dense @ sparse: the node transposes

    _check(fn, _x(4, 2), opset, n_params=1)
    with pytest.raises(ValueError, match='opset 16'):
        onnx_chainer.export(Apply(fn), _x(4, 2), opset_version=15)
