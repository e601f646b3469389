"""CaffeFunction on caffemodels built here, layer by layer, against NumPy references."""

from __future__ import annotations

import pathlib
import subprocess
import sys
from collections.abc import Sequence
from typing import Any

import numpy
import pytest

pytest.importorskip('google.protobuf')

import chainer
from chainer import links as L
from chainer.links.caffe import CaffeFunction
from chainer.links.caffe.caffe_function import caffe_pb

RNG = numpy.random.default_rng(0)


def _blob(layer: Any, array: numpy.ndarray) -> None:
    blob = layer.blobs.add()
    blob.shape.dim.extend(array.shape)
    blob.data.extend(array.ravel().tolist())


def _layer(net: Any, name: str, typ: str, bottom: Sequence[str], top: Sequence[str],
           blobs: Sequence[numpy.ndarray] = ()) -> Any:
    layer = net.layer.add()
    layer.name, layer.type = name, typ
    layer.bottom.extend(bottom)
    layer.top.extend(top)
    for b in blobs:
        _blob(layer, b)
    return layer


def _save(net: Any, tmp_path: pathlib.Path, name: str = 'net.caffemodel') -> str:
    path = tmp_path / name
    path.write_bytes(net.SerializeToString())
    return str(path)


def _run(path: str, inputs: dict[str, numpy.ndarray], outputs: list[str],
         **kwargs: Any) -> list[numpy.ndarray]:
    func = CaffeFunction(path)
    with chainer.using_config('train', False):
        ys = func(inputs={k: chainer.Variable(v) for k, v in inputs.items()},
                  outputs=outputs, **kwargs)
    return [y.array for y in ys]


def _rand(*shape: int) -> numpy.ndarray:
    return RNG.uniform(-1, 1, shape).astype(numpy.float32)


def _conv_ref(x: numpy.ndarray, w: numpy.ndarray, b: numpy.ndarray, stride: int,
              pad: int, group: int) -> numpy.ndarray:
    n, c, h, wd = x.shape
    out, cg, kh, kw = w.shape
    xp = numpy.pad(x, ((0, 0), (0, 0), (pad, pad), (pad, pad)))
    oh = (h + 2 * pad - kh) // stride + 1
    ow = (wd + 2 * pad - kw) // stride + 1
    y = numpy.zeros((n, out, oh, ow), numpy.float64)
    og = out // group
    for o in range(out):
        g = o // og
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * cg:(g + 1) * cg, i * stride:i * stride + kh,
                           j * stride:j * stride + kw]
                y[:, o, i, j] = (patch * w[o]).sum(axis=(1, 2, 3)) + b[o]
    return y


def test_convolution_grouped_matches_reference(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    w, b = _rand(4, 3, 3, 3), _rand(4)
    layer = _layer(net, 'conv1', 'Convolution', ['data'], ['c'], [w, b])
    p = layer.convolution_param
    p.num_output, p.group, p.bias_term = 4, 2, True
    p.kernel_size.append(3)
    p.stride.append(2)
    p.pad.append(1)
    x = _rand(2, 6, 7, 7)
    func = CaffeFunction(_save(net, tmp_path))
    assert isinstance(func.conv1, L.Convolution2D)
    assert func.conv1.W.shape == (4, 6, 3, 3)
    with chainer.using_config('train', False):
        (y,) = func(inputs={'data': x}, outputs=['c'])
    numpy.testing.assert_allclose(y.array, _conv_ref(x, w, b, 2, 1, 2), rtol=1e-4, atol=1e-4)


def test_deconvolution_weights_and_shape(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    w, b = _rand(3, 2, 2, 2), _rand(2)
    layer = _layer(net, 'up', 'Deconvolution', ['x'], ['y'], [w, b])
    layer.convolution_param.kernel_size.append(2)
    layer.convolution_param.stride.append(2)
    x = _rand(1, 3, 2, 2)
    (y,) = _run(_save(net, tmp_path), {'x': x}, ['y'])
    ref = numpy.zeros((1, 2, 4, 4))
    for i in range(2):
        for j in range(2):
            ref[0, :, 2 * i:2 * i + 2, 2 * j:2 * j + 2] += numpy.einsum(
                'c,cokl->okl', x[0, :, i, j], w)
    ref += b[None, :, None, None]
    numpy.testing.assert_allclose(y, ref, rtol=1e-5, atol=1e-5)


def test_inner_product_relu_softmax(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    w, b = _rand(5, 12), _rand(5)
    _layer(net, 'fc', 'InnerProduct', ['x'], ['h'], [w, b])
    _layer(net, 'relu', 'ReLU', ['h'], ['h'])
    _layer(net, 'prob', 'Softmax', ['h'], ['p'])
    x = _rand(2, 3, 2, 2)
    h, p = _run(_save(net, tmp_path), {'x': x}, ['h', 'p'])
    ref = numpy.maximum(x.reshape(2, 12) @ w.T + b, 0)
    numpy.testing.assert_allclose(h, ref, rtol=1e-5, atol=1e-6)
    e = numpy.exp(ref - ref.max(axis=1, keepdims=True))
    numpy.testing.assert_allclose(p, e / e.sum(axis=1, keepdims=True), rtol=1e-5)


def test_leaky_relu_sigmoid_dropout_at_test_time(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'lrelu', 'ReLU', ['x'], ['a']).relu_param.negative_slope = 0.1
    _layer(net, 'drop', 'Dropout', ['a'], ['b']).dropout_param.dropout_ratio = 0.3
    _layer(net, 'sig', 'Sigmoid', ['b'], ['c'])
    x = _rand(3, 4)
    a, c = _run(_save(net, tmp_path), {'x': x}, ['a', 'c'])
    ref = numpy.where(x > 0, x, 0.1 * x)
    numpy.testing.assert_allclose(a, ref, rtol=1e-6)
    numpy.testing.assert_allclose(c, 1 / (1 + numpy.exp(-ref)), rtol=1e-5)


def test_pooling_max_ave_global(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    mx = _layer(net, 'pmax', 'Pooling', ['x'], ['m'])
    mx.pooling_param.pool = mx.pooling_param.MAX
    mx.pooling_param.kernel_size, mx.pooling_param.stride = 2, 2
    ave = _layer(net, 'pave', 'Pooling', ['x'], ['a'])
    ave.pooling_param.pool = ave.pooling_param.AVE
    ave.pooling_param.kernel_size, ave.pooling_param.stride = 2, 2
    glob = _layer(net, 'pglob', 'Pooling', ['x'], ['g'])
    glob.pooling_param.pool = glob.pooling_param.AVE
    glob.pooling_param.global_pooling = True
    x = _rand(2, 3, 4, 4)
    m, a, g = _run(_save(net, tmp_path), {'x': x}, ['m', 'a', 'g'])
    blocks = x.reshape(2, 3, 2, 2, 2, 2)
    numpy.testing.assert_allclose(m, blocks.max(axis=(3, 5)), rtol=1e-6)
    numpy.testing.assert_allclose(a, blocks.mean(axis=(3, 5)), rtol=1e-5)
    numpy.testing.assert_allclose(g, x.mean(axis=(2, 3), keepdims=True), rtol=1e-5)


def test_stochastic_pooling_is_refused(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'p', 'Pooling', ['x'], ['y']).pooling_param.pool = 2
    with pytest.raises(RuntimeError):
        CaffeFunction(_save(net, tmp_path))


def test_lrn(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    p = _layer(net, 'norm', 'LRN', ['x'], ['y']).lrn_param
    p.local_size, p.alpha, p.beta, p.k = 3, 0.3, 0.75, 2.0
    x = _rand(2, 5, 2, 2)
    (y,) = _run(_save(net, tmp_path), {'x': x}, ['y'])
    sq = numpy.pad(x ** 2, ((0, 0), (1, 1), (0, 0), (0, 0)))
    s = sum(sq[:, i:i + 5] for i in range(3))
    numpy.testing.assert_allclose(y, x / (2.0 + 0.3 / 3 * s) ** 0.75, rtol=1e-5)


def test_concat_eltwise_slice_reshape_split(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'split', 'Split', ['x'], ['x1', 'x2'])
    _layer(net, 'cat', 'Concat', ['x1', 'y'], ['c']).concat_param.axis = 1
    s = _layer(net, 'sum', 'Eltwise', ['x1', 'x2', 'y'], ['s']).eltwise_param
    s.operation = s.SUM
    s.coeff.extend([1.0, -2.0, 0.5])
    _layer(net, 'prod', 'Eltwise', ['x2', 'y'], ['p']).eltwise_param.operation = 0
    _layer(net, 'max', 'Eltwise', ['x', 'y'], ['m']).eltwise_param.operation = 2
    sl = _layer(net, 'slice', 'Slice', ['c'], ['a', 'b', 'd']).slice_param
    sl.axis = 1
    sl.slice_point.extend([1, 4])
    _layer(net, 'rs', 'Reshape', ['c'], ['r']).reshape_param.shape.dim.extend([2, 12])
    x, y = _rand(2, 3, 2), _rand(2, 3, 2)
    func = CaffeFunction(_save(net, tmp_path))
    assert func.split_map == {'x1': 'x', 'x2': 'x'}
    outs = _run(_save(net, tmp_path), {'x': x, 'y': y},
                ['x2', 'c', 's', 'p', 'm', 'a', 'b', 'd', 'r'])
    x2, c, s_, p, m, a, b, d, r = outs
    ref_c = numpy.concatenate([x, y], axis=1)
    numpy.testing.assert_array_equal(x2, x)
    numpy.testing.assert_array_equal(c, ref_c)
    numpy.testing.assert_allclose(s_, x - 2 * x + 0.5 * y, rtol=1e-6, atol=1e-7)
    numpy.testing.assert_allclose(p, x * y, rtol=1e-6)
    numpy.testing.assert_array_equal(m, numpy.maximum(x, y))
    numpy.testing.assert_array_equal(a, ref_c[:, :1])
    numpy.testing.assert_array_equal(b, ref_c[:, 1:4])
    numpy.testing.assert_array_equal(d, ref_c[:, 4:])
    numpy.testing.assert_array_equal(r, ref_c.reshape(2, 12))


def test_eltwise_sum_with_wrong_number_of_coefficients(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    e = _layer(net, 'sum', 'Eltwise', ['x', 'y'], ['s']).eltwise_param
    e.coeff.extend([1.0, 2.0, 3.0])
    with pytest.raises(AssertionError):
        _run(_save(net, tmp_path), {'x': _rand(2), 'y': _rand(2)}, ['s'])


def test_batchnorm_and_scale(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    mean, var = _rand(3), numpy.abs(_rand(3)) + 0.5
    bn = _layer(net, 'bn', 'BatchNorm', ['x'], ['n'], [mean * 2, var * 2,
                                                     numpy.array([2.0], numpy.float32)])
    bn.batch_norm_param.use_global_stats = True
    bn.batch_norm_param.eps = 1e-5
    gamma, beta = _rand(3), _rand(3)
    sc = _layer(net, 'scale', 'Scale', ['n'], ['s'], [gamma, beta])
    sc.scale_param.bias_term = True
    _layer(net, 'scale2', 'Scale', ['x', 'w'], ['t']).scale_param.axis = 0
    x, w = _rand(4, 3, 2), _rand(4, 3)
    func = CaffeFunction(_save(net, tmp_path))
    assert isinstance(func.bn, L.BatchNormalization)
    numpy.testing.assert_allclose(func.bn.avg_mean, mean, rtol=1e-6)
    n, s, t = _run(_save(net, tmp_path), {'x': x, 'w': w}, ['n', 's', 't'])
    ref_n = (x - mean[:, None]) / numpy.sqrt(var[:, None] + 1e-5)
    numpy.testing.assert_allclose(n, ref_n, rtol=1e-4, atol=1e-5)
    numpy.testing.assert_allclose(s, ref_n * gamma[:, None] + beta[:, None], rtol=1e-4,
                                  atol=1e-5)
    numpy.testing.assert_allclose(t, x * w[:, :, None], rtol=1e-6)


def test_softmax_with_loss(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'loss', 'SoftmaxWithLoss', ['x', 't'], ['l'])
    x = _rand(4, 3)
    t = numpy.array([0, 2, 1, 1], numpy.int32)
    func = CaffeFunction(_save(net, tmp_path))
    (loss,) = func(inputs={'x': x, 't': t}, outputs=['l'])
    logp = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    assert float(loss.array) == pytest.approx(-logp[numpy.arange(4), t].mean(), rel=1e-5)


def test_softmax_axis_other_than_one_is_refused(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'prob', 'Softmax', ['x'], ['y']).softmax_param.axis = 0
    with pytest.raises(RuntimeError):
        CaffeFunction(_save(net, tmp_path))


def test_v1_layers(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    V1 = caffe_pb.V1LayerParameter
    w, b = _rand(2, 3), _rand(2)
    fc = net.layers.add()
    fc.name, fc.type = 'fc', V1.INNER_PRODUCT
    fc.bottom.append('x')
    fc.top.append('h')
    fc.inner_product_param.num_output = 2
    for arr in (w, b):
        blob = fc.blobs.add()
        blob.num, blob.channels = 1, 1
        blob.height, blob.width = (arr.shape if arr.ndim == 2 else (1, arr.shape[0]))
        blob.data.extend(arr.ravel().tolist())
    relu = net.layers.add()
    relu.name, relu.type = 'relu', V1.RELU
    relu.bottom.append('h')
    relu.top.append('y')
    data = net.layers.add()
    data.name, data.type = 'data', V1.DATA
    x = _rand(4, 3)
    func = CaffeFunction(_save(net, tmp_path))
    assert [name for name, _, _ in func.layers] == ['fc', 'relu']
    (y,) = _run(_save(net, tmp_path), {'x': x}, ['y'])
    numpy.testing.assert_allclose(y, numpy.maximum(x @ w.T + b, 0), rtol=1e-5, atol=1e-6)


def test_disable_and_partial_inputs(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'relu', 'ReLU', ['x'], ['a'])
    _layer(net, 'sig', 'Sigmoid', ['a'], ['b'])
    _layer(net, 'other', 'Sigmoid', ['z'], ['c'])  # z is never given: skipped
    path = _save(net, tmp_path)
    x = _rand(3)
    (b,) = _run(path, {'x': x}, ['b'])
    numpy.testing.assert_allclose(b, 1 / (1 + numpy.exp(-numpy.maximum(x, 0))), rtol=1e-6)
    # with relu disabled, 'a' may be given directly
    (b2,) = _run(path, {'a': x}, ['b'], disable=['relu'])
    numpy.testing.assert_allclose(b2, 1 / (1 + numpy.exp(-x)), rtol=1e-6)
    with pytest.raises(KeyError):
        _run(path, {'x': x}, ['b'], disable=['relu'])
    with pytest.raises(ValueError):
        _run(path, {'x': x}, ['b'], train=True)


def test_unsupported_layer_warns_and_is_skipped(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'tanh', 'TanH', ['x'], ['y'])
    _layer(net, 'relu', 'ReLU', ['x'], ['z'])
    with pytest.warns(UserWarning, match='tanh'):
        func = CaffeFunction(_save(net, tmp_path))
    assert [name for name, _, _ in func.layers] == ['relu']


def test_inner_product_errors(tmp_path: pathlib.Path) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'fc', 'InnerProduct', ['x'], ['y'], [_rand(1, 2, 2, 2, 2)])
    with pytest.raises(RuntimeError):
        CaffeFunction(_save(net, tmp_path))
    net = caffe_pb.NetParameter()
    _layer(net, 'fc', 'InnerProduct', ['x'], ['y'], [_rand(2, 2)]).inner_product_param.axis = 0
    with pytest.raises(RuntimeError):
        CaffeFunction(_save(net, tmp_path, 'b.caffemodel'))


@pytest.mark.parametrize('damage', ['truncate', 'garbage'])
def test_damaged_file_names_the_file(tmp_path: pathlib.Path, damage: str) -> None:
    net = caffe_pb.NetParameter()
    _layer(net, 'fc', 'InnerProduct', ['x'], ['y'], [_rand(8, 8), _rand(8)])
    raw = net.SerializeToString()
    data = raw[:len(raw) - 7] if damage == 'truncate' else b'\xff\xff\xff\xff' + raw
    path = tmp_path / 'broken.caffemodel'
    path.write_bytes(data)
    with pytest.raises(ValueError, match='broken.caffemodel'):
        CaffeFunction(str(path))


def test_links_import_without_protobuf() -> None:
    code = (
        'import sys\n'
        'sys.modules["google.protobuf"] = None\n'
        'import chainer.links\n'
        'assert "chainer.links.caffe" not in sys.modules\n'
        'try:\n'
        '    import chainer.links.caffe\n'
        'except ImportError as e:\n'
        '    assert "caffe" in str(e) and "extra" in str(e), e\n'
        'else:\n'
        '    raise SystemExit("imported without protobuf")\n'
    )
    subprocess.run([sys.executable, '-c', code], check=True)
