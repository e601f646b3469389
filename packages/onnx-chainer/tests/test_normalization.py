"""Export of the normalizations: each against Chainer's forward in onnxruntime."""

from __future__ import annotations

import numpy
import pytest
from _onnx_check import check_export, op_types, opsets, run_onnx

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer

RNG = numpy.random.RandomState(0)


def _x(*shape: int) -> numpy.ndarray:
    return RNG.uniform(-2, 2, shape).astype(numpy.float32)


def _params(proto) -> set[str]:
    # before opset 9 integer constants (shapes) are initializers too
    return {i.name for i in proto.graph.initializer if '_const_' not in i.name}


class _BN(chainer.Chain):
    def __init__(self, size, **kwargs):
        super().__init__()
        with self.init_scope():
            self.bn = L.BatchNormalization(size, **kwargs)
        if self.bn.gamma is not None:
            self.bn.gamma.array[...] = RNG.uniform(0.5, 2, self.bn.gamma.shape)
        if self.bn.beta is not None:
            self.bn.beta.array[...] = RNG.uniform(-1, 1, self.bn.beta.shape)
        self.bn.avg_mean[...] = RNG.uniform(-1, 1, self.bn.avg_mean.shape)
        self.bn.avg_var[...] = RNG.uniform(0.5, 2, self.bn.avg_var.shape)

    def forward(self, x):
        return self.bn(x)


BN_SHAPES = [((4, 5), 5), ((2, 3, 4, 2), 3), ((2, 3, 4), (3, 4))]


@pytest.mark.parametrize('shape,size', BN_SHAPES, ids=['2d', '4d', 'multi_axis_params'])
@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_batch_normalization_link_train_uses_the_batch_statistics(shape, size, opset):
    model = _BN(size)
    proto = check_export(model, _x(*shape), opset, train=True)
    assert _params(proto) == {'param_bn_gamma', 'param_bn_beta', 'param_bn_avg_mean',
                              'param_bn_avg_var'}
    assert 'ReduceMean' in op_types(proto)
    # right for another input, not only the traced one
    x2 = _x(*shape) * 3 + 1
    y = F.batch_normalization(x2, model.bn.gamma.array, model.bn.beta.array,
                              eps=model.bn.eps).array
    got, = run_onnx(proto, {'Input_0': x2})
    numpy.testing.assert_allclose(got, y, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize('shape,size', BN_SHAPES, ids=['2d', '4d', 'multi_axis_params'])
@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_batch_normalization_link_test_mode_uses_running_statistics(shape, size, opset):
    proto = check_export(_BN(size), _x(*shape), opset)
    assert _params(proto) == {'param_bn_gamma', 'param_bn_beta', 'param_bn_avg_mean',
                              'param_bn_avg_var'}
    assert ('BatchNormalization' in op_types(proto)) == (not isinstance(size, tuple))


@pytest.mark.parametrize('kwargs', [{'use_beta': False}, {'use_gamma': False}])
def test_batch_normalization_link_without_gamma_or_beta(kwargs):
    for train in (False, True):
        proto = check_export(_BN(5, **kwargs), _x(3, 5), 13, train=train)
        assert len(proto.graph.initializer) == 4


@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_batch_normalization_function(opset):
    def model(x):
        gamma = numpy.linspace(0.5, 2, 5).astype(numpy.float32)
        beta = numpy.linspace(-1, 1, 5).astype(numpy.float32)
        return F.batch_normalization(x, gamma, beta, eps=1e-3)

    proto = check_export(model, _x(3, 5, 2), opset, train=True)
    names = _params(proto)
    assert len(names) == 4
    assert {'BatchNormalization_0_param_avg_mean', 'BatchNormalization_0_param_avg_var'} <= names


@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_fixed_batch_normalization_function(opset):
    x = _x(6, 5)
    mean, var = x.mean(axis=0), x.var(axis=0)
    gamma = numpy.linspace(0.5, 2, 5).astype(numpy.float32)
    beta = numpy.linspace(-1, 1, 5).astype(numpy.float32)

    def implicit(v):
        return F.fixed_batch_normalization(v, gamma, beta, mean, var)

    proto = check_export(implicit, x, opset)
    names = _params(proto)
    assert len(names) == 4
    assert {'FixedBatchNormalization_0_param_avg_mean',
            'FixedBatchNormalization_0_param_avg_var'} <= names
    # explicit inputs: the statistics are graph inputs
    proto = check_export(F.fixed_batch_normalization, [x, gamma, beta, mean, var], opset)
    assert len(proto.graph.input) == 5
    # aggregation over axes 0 and 2 with per-(C, ...) parameters of an odd layout
    x3 = _x(2, 3, 4)
    check_export(lambda v: F.fixed_batch_normalization(
        v, gamma[:4], beta[:4], mean[:4], var[:4] + 0.1, axis=(0, 1)), x3, opset)


@pytest.mark.parametrize('shape', [(2, 4), (2, 4, 3), (2, 6, 2, 3)])
@pytest.mark.parametrize('opset', opsets(7, [18, 21]))
def test_group_normalization(shape, opset):
    link = L.GroupNormalization(2, shape[1])
    link.gamma.array[...] = RNG.uniform(0.5, 2, shape[1])
    link.beta.array[...] = RNG.uniform(-1, 1, shape[1])
    proto = check_export(link, _x(*shape) * 3, opset, rtol=1e-4, atol=1e-5)
    assert ('GroupNormalization' in op_types(proto)) == (opset >= 21)


@pytest.mark.parametrize('shape', [(3, 5), (2, 3, 4)])
@pytest.mark.parametrize('opset', opsets(7, [17, 18]))
def test_layer_normalization(shape, opset):
    gamma = RNG.uniform(0.5, 2, shape[1:]).astype(numpy.float32)
    beta = RNG.uniform(-1, 1, shape[1:]).astype(numpy.float32)
    proto = check_export(lambda x: F.layer_normalization(x, gamma, beta, eps=1e-3),
                         _x(*shape), opset, rtol=1e-4, atol=1e-5)
    assert ('LayerNormalization' in op_types(proto)) == (opset >= 17)


@pytest.mark.parametrize('n', [3, 4, 5])
@pytest.mark.parametrize('shape', [(2, 7, 3, 3), (2, 7), (2, 7, 3)])
def test_local_response_normalization(n, shape):
    for opset in opsets(7):
        proto = check_export(lambda x: F.local_response_normalization(
            x, n=n, k=1.5, alpha=0.1, beta=0.6), _x(*shape), opset)
        lrn = [node for node in proto.graph.node if node.op_type == 'LRN'][0]
        attrs = {a.name: a for a in lrn.attribute}
        assert attrs['size'].i == 2 * (n // 2) + 1


@pytest.mark.parametrize('axis', [1, (1, 2), -1])
@pytest.mark.parametrize('opset', opsets(7, [18]))
def test_normalize(axis, opset):
    x = _x(2, 3, 4)
    x[0, :, 0] = 0  # a zero vector: eps keeps it finite
    check_export(lambda v: F.normalize(v, eps=1e-3, axis=axis), x, opset)


def test_batch_normalization_train_does_not_read_the_running_statistics():
    # the graph's statistics follow its input; the running ones are kept for v7's layout
    proto = onnx_chainer.export(_BN(5), _x(4, 5), opset_version=13, train=True)
    assert 'param_bn_avg_mean' not in {i for n in proto.graph.node for i in n.input}
