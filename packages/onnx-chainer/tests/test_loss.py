"""Export of the losses: each against Chainer's forward in onnxruntime."""

from __future__ import annotations

import numpy
import pytest
from _onnx_check import check_export, op_types, opsets

import chainer.functions as F

RNG = numpy.random.RandomState(0)


def _x(*shape: int) -> numpy.ndarray:
    return RNG.uniform(-2, 2, shape).astype(numpy.float32)


def _labels(shape, n_class, ignore=True):
    t = RNG.randint(0, n_class, shape).astype(numpy.int32)
    if ignore:
        t.flat[1] = -1
    return t


SCE_CASES = [
    ('default', (4, 3), {}),
    ('no_ignored', (4, 3), {'ignore': False}),
    ('all_ignored', (2, 3), {'all_ignored': True}),
    ('not_normalized', (4, 3), {'normalize': False}),
    ('reduce_no', (4, 3), {'reduce': 'no'}),
    ('ignore_label_2', (4, 3), {'ignore_label': 2}),
    ('class_weight', (4, 3), {'class_weight': numpy.asarray([0.5, 2., 1.], numpy.float32)}),
    ('class_weight_no', (4, 3), {'class_weight': numpy.asarray([0.5, 2., 1.], numpy.float32),
                                 'reduce': 'no'}),
    ('nd', (2, 3, 4), {}),
    ('nd_reduce_no', (2, 3, 4), {'reduce': 'no'}),
]


@pytest.mark.parametrize('name,shape,kw', SCE_CASES, ids=[c[0] for c in SCE_CASES])
def test_softmax_cross_entropy(name, shape, kw):
    kw = dict(kw)
    ignore = kw.pop('ignore', True)
    all_ignored = kw.pop('all_ignored', False)
    x = _x(*shape)
    t = _labels((shape[0],) + shape[2:], shape[1], ignore)
    if 'ignore_label' in kw:
        t[t == -1] = kw['ignore_label']
    if all_ignored:
        t[...] = -1
    for opset in opsets(9, [11, 12, 13]):
        proto = check_export(lambda a, b: F.softmax_cross_entropy(a, b, **kw), [x, t], opset)
        assert ('SoftmaxCrossEntropyLoss' in op_types(proto)) == (opset >= 12)
        assert len(proto.graph.initializer) == 0


@pytest.mark.parametrize('opset', opsets(9, [12, 13]))
def test_softmax_cross_entropy_soft_labels(opset):
    x = _x(2, 3, 2)
    t = RNG.dirichlet(numpy.ones(3), (2, 2)).transpose(0, 2, 1).astype(numpy.float32)
    check_export(lambda a, b: F.softmax_cross_entropy(a, b), [x, t], opset)
    cw = numpy.asarray([0.5, 2., 1.], numpy.float32)
    check_export(lambda a, b: F.softmax_cross_entropy(a, b, class_weight=cw, reduce='no'),
                 [x, t], opset)


def test_softmax_cross_entropy_needs_opset_9():
    x, t = _x(2, 3), numpy.zeros(2, numpy.int32)
    with pytest.raises(ValueError, match='SoftmaxCrossEntropy.*opset 9'):
        check_export(lambda a, b: F.softmax_cross_entropy(a, b), [x, t], 8)


@pytest.mark.parametrize('kw', [{}, {'normalize': False}, {'reduce': 'no'}],
                         ids=['mean', 'not_normalized', 'no'])
@pytest.mark.parametrize('opset', opsets(7, [11, 13]))
def test_sigmoid_cross_entropy(kw, opset):
    x = _x(3, 4) * 10  # large |x|: the stable form
    t = RNG.randint(0, 2, (3, 4)).astype(numpy.int32)
    t[0, 1] = -1
    check_export(lambda a, b: F.sigmoid_cross_entropy(a, b, **kw), [x, t], opset)


PAIR_LOSSES = [
    ('mean_squared_error', F.mean_squared_error, 'ReduceMean'),
    ('mean_absolute_error', F.mean_absolute_error, 'ReduceMean'),
    ('squared_error', F.squared_error, 'Mul'),
    ('absolute_error', F.absolute_error, 'Abs'),
]


@pytest.mark.parametrize('name,fn,op', PAIR_LOSSES, ids=[c[0] for c in PAIR_LOSSES])
@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_pair_losses(name, fn, op, opset):
    proto = check_export(fn, [_x(2, 3, 4), _x(2, 3, 4)], opset)
    assert op in op_types(proto)


@pytest.mark.parametrize('reduce', ['sum_along_second_axis', 'no'])
@pytest.mark.parametrize('opset', opsets(7, [11, 13]))
def test_huber_loss(reduce, opset):
    x, t = _x(3, 4, 2), _x(3, 4, 2)
    proto = check_export(lambda a, b: F.huber_loss(a, b, delta=0.8, reduce=reduce), [x, t],
                         opset)
    assert 'Clip' in op_types(proto)
