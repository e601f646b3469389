"""Converters of the poolings: export, check, run in onnxruntime, compare."""

import numpy
import onnx
import pytest
from _onnx_check import Apply, check_export, op_types, opsets

import chainer.functions as F
import onnx_chainer
from chainer.functions.pooling.average_pooling_nd import AveragePoolingND


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def _check(fn, x, opset, **kwargs):
    proto = check_export(Apply(fn), x, opset, **kwargs)
    assert len(proto.graph.initializer) == 0
    return proto


def _ops(proto):
    return [op for op in op_types(proto) if op != 'Constant']


AVERAGE = [
    (lambda x: F.average_pooling_2d(x, 2, 1, 0), (1, 3, 6, 6)),
    (lambda x: F.average_pooling_2d(x, 3, 2, 1), (2, 2, 6, 7)),
    (lambda x: F.average_pooling_nd(x, 2, 1, 1), (1, 2, 4, 5, 3)),
    (lambda x: F.average_pooling_nd(x, 3, 2, 1, pad_value=None), (1, 2, 7, 6)),
    # cover_all, which only the function node takes
    (lambda x: AveragePoolingND(2, 2, 2, 0, True, 0).apply((x,))[0], (1, 2, 5, 7)),
    (lambda x: AveragePoolingND(1, 3, 2, 1, True, None).apply((x,))[0], (1, 2, 6)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(AVERAGE)))
def test_average_pooling(case, opset):
    fn, shape = AVERAGE[case]
    assert _ops(_check(fn, _x(*shape), opset)) == ['AveragePool']


MAX = [
    (lambda x: F.max_pooling_2d(x, 2, 1, 1, cover_all=False), (1, 3, 6, 6)),
    (lambda x: F.max_pooling_2d(x, 3, (2, 1), 1), (1, 3, 6, 5)),
    (lambda x: F.max_pooling_2d(x, 2), (2, 2, 5, 7)),
    (lambda x: F.max_pooling_nd(x, 2, 1, 1, cover_all=False), (1, 2, 4, 4, 4)),
    (lambda x: F.max_pooling_nd(x, 3, 2, 1), (1, 3, 6, 5, 4)),
    (lambda x: F.max_pooling_nd(x, 2, 2), (1, 2, 7)),
]


@pytest.mark.parametrize('opset', opsets(7, (10,)))
@pytest.mark.parametrize('case', range(len(MAX)))
def test_max_pooling(case, opset):
    fn, shape = MAX[case]
    proto = _check(fn, _x(*shape), opset)
    assert op_types(proto) == ['MaxPool']


@pytest.mark.parametrize('opset', opsets(7))
def test_max_pooling_return_indices(opset):
    _check(lambda x: F.max_pooling_2d(x, 2, return_indices=True)[0], _x(1, 2, 5, 4), opset)


@pytest.mark.parametrize('opset', opsets(7, (21, 22)))
def test_roi_pooling(opset):
    x = numpy.arange(3 * 2 * 12 * 8, dtype=numpy.float32).reshape(3, 2, 12, 8) / 100
    rois = numpy.array([[0, 1, 1, 6, 6], [2, 6, 2, 7, 11], [1, 3, 1, 5, 10]],
                       numpy.float32)
    model = Apply(lambda x, r: F.roi_pooling_2d(x, r, 3, 4, 0.6))
    with pytest.warns(UserWarning, match='MaxRoiPool'):
        if opset >= 22:
            # onnxruntime has no kernel for MaxRoiPool-22: export and check only
            proto = onnx_chainer.export(model, (x, rois), opset_version=opset)
            onnx.checker.check_model(proto, full_check=True)
        else:
            proto = _check(model.fn, (x, rois), opset)
    assert op_types(proto) == ['MaxRoiPool']


UNPOOL = [
    (lambda x: F.unpooling_2d(x, 3, cover_all=False), (1, 3, 4, 4)),
    (lambda x: F.unpooling_2d(x, 3), (1, 3, 4, 4)),
    (lambda x: F.unpooling_2d(x, 2, 1, 0, cover_all=False), (1, 2, 3, 4)),
    (lambda x: F.unpooling_2d(x, 3, 2, 1), (1, 2, 3, 4)),
    (lambda x: F.unpooling_2d(x, 2, 2, 0, outsize=(7, 9), cover_all=False), (1, 2, 3, 4)),
    (lambda x: F.unpooling_nd(x, 2, cover_all=False), (1, 2, 3, 2, 2)),
    (lambda x: F.unpooling_nd(x, 3, 2, 1), (1, 2, 4)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(UNPOOL)))
def test_unpooling(case, opset):
    fn, shape = UNPOOL[case]
    assert _ops(_check(fn, _x(*shape), opset)) == ['ConvTranspose']
