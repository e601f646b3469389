"""Converters of the connections: export, check, run in onnxruntime, compare."""

import numpy
import pytest
from _onnx_check import Apply, check_export, op_types, opsets

import chainer.functions as F
import chainer.links as L


def _x(*shape):
    return numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)


def _link_model(link):
    return Apply(lambda m, x: m.l(x), l=link)


def _conv_cover_all(link, **kwargs):
    return Apply(lambda m, x: F.convolution_2d(x, m.l.W, m.l.b, cover_all=True, **kwargs),
                 l=link)


def _convnd_cover_all(link, **kwargs):
    return Apply(lambda m, x: F.convolution_nd(x, m.l.W, m.l.b, cover_all=True, **kwargs),
                 l=link)


CONVS = [
    (lambda: _link_model(L.Convolution2D(3, 4, 3, stride=1, pad=1)), (1, 3, 5, 5)),
    (lambda: _link_model(L.Convolution2D(3, 4, 3, stride=2, pad=2, nobias=True)), (1, 3, 5, 5)),
    (lambda: _link_model(L.Convolution2D(4, 6, 3, pad=1, groups=2)), (2, 4, 5, 6)),
    (lambda: _link_model(L.Convolution2D(3, 4, 3, stride=2, dilate=2)), (1, 3, 9, 8)),
    (lambda: _conv_cover_all(L.Convolution2D(3, 2, 3), stride=2, pad=1), (1, 3, 6, 7)),
    (lambda: _conv_cover_all(L.Convolution2D(3, 2, 2), stride=3), (1, 3, 8, 7)),
    (lambda: _conv_cover_all(L.Convolution2D(3, 2, 3), stride=2, dilate=2), (1, 3, 8, 9)),
    (lambda: _link_model(L.ConvolutionND(1, 2, 3, 3, stride=2, pad=1)), (2, 2, 7)),
    (lambda: _link_model(L.ConvolutionND(3, 2, 4, 3, pad=1, groups=2)), (1, 2, 4, 5, 3)),
    (lambda: _convnd_cover_all(L.ConvolutionND(3, 2, 3, 2), stride=2), (1, 2, 5, 4, 3)),
    (lambda: _link_model(L.DilatedConvolution2D(3, 4, 3, pad=1, dilate=2)), (1, 3, 6, 6)),
    (lambda: _link_model(L.DilatedConvolution2D(3, 4, 3, stride=2, dilate=2, nobias=True)),
     (1, 3, 7, 6)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(CONVS)))
def test_convolution(case, opset):
    make, shape = CONVS[case]
    proto = check_export(make(), _x(*shape), opset, rtol=1e-4, atol=1e-5)
    assert op_types(proto) == ['Conv']


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('nobias', [False, True])
def test_depthwise_convolution(opset, nobias):
    link = L.DepthwiseConvolution2D(3, 2, 3, stride=2, pad=1, nobias=nobias)
    check_export(_link_model(link), _x(2, 3, 6, 5), opset, rtol=1e-4)


DECONVS = [
    (lambda: L.Deconvolution2D(3, 4, 4, stride=2), (1, 3, 4, 5)),
    (lambda: L.Deconvolution2D(3, 4, 3, stride=2, pad=1, nobias=True), (1, 3, 4, 4)),
    (lambda: L.Deconvolution2D(4, 6, 2, stride=2, groups=2), (1, 4, 3, 3)),
    (lambda: L.Deconvolution2D(3, 2, 3, stride=3, pad=1, outsize=(9, 11)), (1, 3, 3, 4)),
    (lambda: L.Deconvolution2D(3, 2, 3, stride=2, dilate=2), (1, 3, 3, 3)),
    (lambda: L.DeconvolutionND(1, 2, 3, 3, stride=2, pad=1, outsize=(10,)), (2, 2, 5)),
    (lambda: L.DeconvolutionND(2, 6, 4, 4, stride=2, groups=2), (1, 6, 3, 3)),
    (lambda: L.DeconvolutionND(3, 2, 3, 2, stride=2), (1, 2, 2, 3, 2)),
]


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('case', range(len(DECONVS)))
def test_deconvolution(case, opset):
    make, shape = DECONVS[case]
    proto = check_export(_link_model(make()), _x(*shape), opset, rtol=1e-4, atol=1e-5)
    assert op_types(proto) == ['ConvTranspose']


@pytest.mark.parametrize('opset', opsets(7))
@pytest.mark.parametrize('ignore_label', [None, -1, 2])
@pytest.mark.parametrize('dtype', [numpy.int32, numpy.int64])
def test_embed_id(opset, ignore_label, dtype):
    link = L.EmbedID(5, 3, ignore_label=ignore_label)
    ids = numpy.array([[0, 2, 4], [1, 3, 2]], dtype)
    if ignore_label == -1:
        ids[1, 0] = -1
    check_export(_link_model(link), ids, opset)


@pytest.mark.parametrize('opset', opsets(7, (11,)))
@pytest.mark.parametrize('nobias', [False, True])
def test_linear(opset, nobias):
    proto = check_export(_link_model(L.Linear(4, 3, nobias=nobias)), _x(2, 4), opset)
    assert 'Gemm' in op_types(proto)
    assert len(proto.graph.initializer) == (1 if nobias else 2)


@pytest.mark.parametrize('opset', opsets(7, (11,)))
def test_linear_n_batch_axes(opset):
    model = Apply(lambda m, x: F.linear(x, m.l.W, m.l.b, n_batch_axes=2),
                  l=L.Linear(6, 3))
    check_export(model, _x(2, 3, 2, 3), opset)


@pytest.mark.parametrize('opset', opsets(7, (12,)))
@pytest.mark.parametrize('nobias', [False, True])
def test_bilinear(opset, nobias):
    model = Apply(lambda m, a, b: m.l(a, b), l=L.Bilinear(3, 4, 2, nobias=nobias))
    proto = check_export(model, (_x(2, 3), _x(2, 4) * 2), opset, rtol=1e-4)
    assert ('Einsum' in op_types(proto)) == (opset >= 12)
