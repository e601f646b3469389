"""Export of the activations: each against Chainer's forward in onnxruntime."""

from __future__ import annotations

import numpy
import pytest
from _onnx_check import check_export, op_types, opsets

import chainer
import chainer.functions as F
import chainer.links as L
from onnx_chainer.functions import converters


def _params(proto) -> list[str]:
    # before opset 9 integer constants (shapes) are initializers too
    return [i.name for i in proto.graph.initializer if '_const_' not in i.name]


def _x(*shape: int) -> numpy.ndarray:
    rng = numpy.random.RandomState(0)
    return rng.uniform(-2, 2, shape).astype(numpy.float32)


SIMPLE = [
    ('clipped_relu', lambda x: F.clipped_relu(x, 1.5), (7, [11]), 'Clip'),
    ('relu6', F.relu6, (7, [11]), 'Clip'),
    ('elu', lambda x: F.elu(x, alpha=0.7), (7, []), 'Elu'),
    ('hard_sigmoid', F.hard_sigmoid, (7, []), 'HardSigmoid'),
    ('leaky_relu', lambda x: F.leaky_relu(x, slope=0.3), (7, []), 'LeakyRelu'),
    ('relu', F.relu, (7, []), 'Relu'),
    ('sigmoid', F.sigmoid, (7, []), 'Sigmoid'),
    ('tanh', F.tanh, (7, []), 'Tanh'),
    ('softplus', F.softplus, (7, []), 'Softplus'),
    ('softplus_beta', lambda x: F.softplus(x, beta=2.5), (7, []), 'Softplus'),
    ('crelu', F.crelu, (7, []), 'Concat'),
    ('crelu_axis2', lambda x: F.crelu(x, axis=-1), (7, []), 'Concat'),
    ('rrelu_test_mode', lambda x: F.rrelu(x, l=0.1, u=0.3), (7, []), 'LeakyRelu'),
]


@pytest.mark.parametrize('name,fn,versions,op', SIMPLE, ids=[s[0] for s in SIMPLE])
def test_simple(name, fn, versions, op):
    for opset in opsets(versions[0], versions[1]):
        proto = check_export(fn, _x(2, 5, 3), opset)
        assert op in op_types(proto)
        assert len(proto.graph.initializer) == 0


@pytest.mark.parametrize('op', ['softmax', 'log_softmax'])
@pytest.mark.parametrize('axis', [0, 1, 2, -1])
@pytest.mark.parametrize('opset', opsets(7, [12, 13]))
def test_softmax_any_axis(op, axis, opset):
    # the opset-12 form flattens at the axis: axes other than the last need a Transpose
    proto = check_export(lambda x: getattr(F, op)(x, axis=axis), _x(2, 5, 3), opset)
    expect_transpose = opset < 13 and axis % 3 != 2
    assert ('Transpose' in op_types(proto)) == expect_transpose


@pytest.mark.parametrize('opset', opsets(7))
def test_prelu_link(opset):
    model = L.PReLU((5,), init=0.3)
    proto = check_export(model, _x(2, 5, 3, 2), opset)
    assert 'PRelu' in op_types(proto)
    assert _params(proto) == ['param_W']
    check_export(L.PReLU((5,), init=0.3), _x(2, 5), opset)


@pytest.mark.parametrize('opset', opsets(7))
def test_swish_link(opset):
    model = L.Swish((5, 3))
    model.beta.array[...] = numpy.linspace(0.5, 2, 15).reshape(5, 3)
    proto = check_export(model, _x(2, 5, 3, 2), opset)
    assert op_types(proto).count('Sigmoid') == 1
    assert _params(proto) == ['param_beta']


@pytest.mark.parametrize('opset', opsets(7))
def test_rrelu_train_freezes_the_traced_slopes(opset):
    r = numpy.random.RandomState(1).uniform(0.1, 0.3, (2, 5)).astype(numpy.float32)
    proto = check_export(lambda x: F.rrelu(x, r=r), _x(2, 5), opset, train=True)
    assert 'PRelu' in op_types(proto)
    assert _params(proto) == ['RReLU_0_param_r']


@pytest.mark.skipif('MulConstant' not in converters,
                    reason='F.selu is ELU then MulConstant, whose converter is in math.py')
@pytest.mark.parametrize('opset', opsets(7))
def test_selu(opset):
    proto = check_export(F.selu, _x(2, 5, 3), opset)
    assert 'Elu' in op_types(proto)


def test_converters_declare_their_opsets():
    for name in ['ClippedReLU', 'ELU', 'HardSigmoid', 'LeakyReLU', 'LogSoftmax',
                 'PReLUFunction', 'ReLU', 'Sigmoid', 'Softmax', 'Softplus', 'Tanh', 'Swish',
                 'CReLU', 'RReLU']:
        assert converters[name].converter.opset_versions[0] == 7, name


def test_leaky_relu_traced_class_names():
    x = chainer.Variable(_x(2, 3))
    assert type(F.leaky_relu(x).creator).__name__ == 'LeakyReLU'
