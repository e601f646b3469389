"""chainer.exporters.caffe.export: the written prototxt/caffemodel, checked by running the
exported network with a NumPy implementation of Caffe's layers (and, where available,
by loading it back with chainer.links.caffe.CaffeFunction)."""

from __future__ import annotations

import os
from typing import Any

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L

pytest.importorskip('google.protobuf')

from google.protobuf import text_format

from chainer.exporters import caffe
from chainer.links.caffe.protobuf3 import caffe_pb2

# ---- a NumPy evaluation of a Caffe NetParameter (Caffe's documented semantics) ----------


def _blobs(layer: Any) -> list[numpy.ndarray]:
    return [numpy.asarray(b.data, numpy.float64).reshape(tuple(b.shape.dim))
            for b in layer.blobs]


def _pad(x: numpy.ndarray, ph: int, pw: int, value: float = 0.0) -> numpy.ndarray:
    return numpy.pad(x, ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=value)


def _conv(x: numpy.ndarray, W: numpy.ndarray, s: tuple[int, int], p: tuple[int, int],
          d: tuple[int, int], groups: int) -> numpy.ndarray:
    n, c, h, w = x.shape
    oc, icg, kh, kw = W.shape
    xp = _pad(x, *p)
    oh = (h + 2 * p[0] - (d[0] * (kh - 1) + 1)) // s[0] + 1
    ow = (w + 2 * p[1] - (d[1] * (kw - 1) + 1)) // s[1] + 1
    y = numpy.zeros((n, oc, oh, ow))
    ocg = oc // groups
    for g in range(groups):
        for i in range(oh):
            for j in range(ow):
                patch = xp[:, g * icg:(g + 1) * icg,
                           i * s[0]:i * s[0] + d[0] * (kh - 1) + 1:d[0],
                           j * s[1]:j * s[1] + d[1] * (kw - 1) + 1:d[1]]
                y[:, g * ocg:(g + 1) * ocg, i, j] = numpy.einsum(
                    'ncij,ocij->no', patch, W[g * ocg:(g + 1) * ocg])
    return y


def _deconv(x: numpy.ndarray, W: numpy.ndarray, s: tuple[int, int], p: tuple[int, int],
            groups: int) -> numpy.ndarray:
    n, c, h, w = x.shape
    _, ocg, kh, kw = W.shape
    icg = c // groups
    full = numpy.zeros((n, ocg * groups, s[0] * (h - 1) + kh, s[1] * (w - 1) + kw))
    for g in range(groups):
        for i in range(h):
            for j in range(w):
                full[:, g * ocg:(g + 1) * ocg, i * s[0]:i * s[0] + kh,
                     j * s[1]:j * s[1] + kw] += numpy.einsum(
                    'nc,cokl->nokl', x[:, g * icg:(g + 1) * icg, i, j],
                    W[g * icg:(g + 1) * icg])
    return full[:, :, p[0]:full.shape[2] - p[0], p[1]:full.shape[3] - p[1]]


def _pool(x: numpy.ndarray, param: Any) -> numpy.ndarray:
    k, s, p = ((param.kernel_h, param.kernel_w), (param.stride_h, param.stride_w),
               (param.pad_h, param.pad_w))
    n, c, h, w = x.shape
    out = []
    for size, kk, ss, pp in zip((h, w), k, s, p):
        if param.round_mode == caffe_pb2.PoolingParameter.FLOOR:
            o = (size + 2 * pp - kk) // ss + 1
        else:
            o = -(-(size + 2 * pp - kk) // ss) + 1
            if pp > 0 and (o - 1) * ss >= size + pp:
                o -= 1
        out.append(o)
    y = numpy.zeros((n, c, out[0], out[1]))
    for i in range(out[0]):
        for j in range(out[1]):
            hs, ws = i * s[0] - p[0], j * s[1] - p[1]
            he, we = min(hs + k[0], h + p[0]), min(ws + k[1], w + p[1])
            count = (he - hs) * (we - ws)
            win = x[:, :, max(hs, 0):min(he, h), max(ws, 0):min(we, w)]
            if param.pool == caffe_pb2.PoolingParameter.MAX:
                y[:, :, i, j] = win.max(axis=(2, 3))
            else:
                y[:, :, i, j] = win.sum(axis=(2, 3)) / count
    return y


def _lrn(x: numpy.ndarray, param: Any) -> numpy.ndarray:
    half = param.local_size // 2
    sq = numpy.pad(x * x, ((0, 0), (half, half), (0, 0), (0, 0)))
    total = sum(sq[:, i:i + x.shape[1]] for i in range(param.local_size))
    return x / (param.k + param.alpha / param.local_size * total) ** param.beta


def _channel(v: numpy.ndarray, ndim: int) -> numpy.ndarray:
    return v.reshape((1, -1) + (1,) * (ndim - 2))


def run_caffe_net(net: Any, inputs: dict[str, numpy.ndarray]) -> dict[str, numpy.ndarray]:
    """Evaluate the layers of ``net`` in order; return every blob."""
    blobs = {k: numpy.asarray(v, numpy.float64) for k, v in inputs.items()}
    for layer in net.layer:
        xs = [blobs[b] for b in layer.bottom]
        params = _blobs(layer)
        t = layer.type
        if t == 'Input':
            continue
        if t == 'InnerProduct':
            x = xs[0].reshape(len(xs[0]), -1)
            y = x @ params[0].T + (params[1] if layer.inner_product_param.bias_term else 0)
        elif t in ('Convolution', 'Deconvolution'):
            cp = layer.convolution_param
            s, p = (cp.stride_h, cp.stride_w), (cp.pad_h, cp.pad_w)
            if t == 'Convolution':
                d = tuple(cp.dilation) if cp.dilation else (1, 1)
                y = _conv(xs[0], params[0], s, p, (d[0], d[-1]), cp.group)
            else:
                y = _deconv(xs[0], params[0], s, p, cp.group)
            if cp.bias_term:
                y = y + _channel(params[1], 4)
        elif t == 'Pooling':
            y = _pool(xs[0], layer.pooling_param)
        elif t == 'LRN':
            y = _lrn(xs[0], layer.lrn_param)
        elif t == 'BatchNorm':
            mean, var, sf = params
            f = 0.0 if sf[0] == 0 else 1 / sf[0]
            y = ((xs[0] - _channel(mean * f, xs[0].ndim))
                 / numpy.sqrt(_channel(var * f, xs[0].ndim) + layer.batch_norm_param.eps))
        elif t == 'Scale':
            y = xs[0] * _channel(params[0], xs[0].ndim)
            if layer.scale_param.bias_term:
                y = y + _channel(params[1], xs[0].ndim)
        elif t == 'ReLU':
            y = numpy.where(xs[0] > 0, xs[0], xs[0] * layer.relu_param.negative_slope)
        elif t == 'Sigmoid':
            y = 1 / (1 + numpy.exp(-xs[0]))
        elif t == 'Softmax':
            e = numpy.exp(xs[0] - xs[0].max(axis=layer.softmax_param.axis, keepdims=True))
            y = e / e.sum(axis=layer.softmax_param.axis, keepdims=True)
        elif t == 'Concat':
            y = numpy.concatenate(xs, axis=layer.concat_param.axis)
        elif t == 'Reshape':
            y = xs[0].reshape(tuple(layer.reshape_param.shape.dim))
        elif t == 'Eltwise':
            ep = layer.eltwise_param
            if ep.operation == caffe_pb2.EltwiseParameter.PROD:
                y = numpy.prod(xs, axis=0)
            elif ep.operation == caffe_pb2.EltwiseParameter.MAX:
                y = numpy.max(xs, axis=0)
            else:
                coeff = list(ep.coeff) or [1.0] * len(xs)
                y = sum(c * x for c, x in zip(coeff, xs))
        else:
            raise AssertionError(f'unexpected layer type {t}')
        blobs[layer.top[0]] = y
    return blobs


# ---- models ------------------------------------------------------------------------------


class MLP(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(6, 5)
            self.l2 = L.Linear(5, 3, nobias=True)

    def forward(self, x: Any) -> Any:
        return self.l2(F.relu(self.l1(x)))


class CNN(chainer.Chain):
    def __init__(self, dilate: int = 2) -> None:
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 4, 3, stride=1, pad=1)
            self.bn = L.BatchNormalization(4, eps=1e-3)
            self.c2 = L.Convolution2D(4, 4, 3, pad=dilate, dilate=dilate, groups=2)
            self.fc = L.Linear(None, 3)
        rng = numpy.random.RandomState(3)
        self.bn.avg_mean[:] = rng.uniform(-1, 1, 4)
        self.bn.avg_var[:] = rng.uniform(0.5, 2, 4)
        self.bn.gamma.array[:] = rng.uniform(0.5, 2, 4)
        self.bn.beta.array[:] = rng.uniform(-1, 1, 4)

    def forward(self, x: Any) -> Any:
        h = F.relu(self.c1(x))
        h = F.max_pooling_2d(h, 3, 2, 1)
        h = F.local_response_normalization(self.bn(h), n=3, k=1.5, alpha=1e-2, beta=0.6)
        h = F.leaky_relu(self.c2(h), slope=0.1)
        h = F.average_pooling_2d(h, 2, 2)
        return F.softmax(self.fc(h))


class Branches(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.a = L.Convolution2D(2, 3, 1)
            self.b = L.Convolution2D(2, 3, 3, pad=1, nobias=True)

    def forward(self, x: Any) -> Any:
        a, b = self.a(x), F.sigmoid(self.b(x))
        h = F.concat([a + b, a * b, a - b, F.maximum(a, b)], axis=1)
        return F.reshape(h, (h.shape[0], -1))


class Deconv(chainer.Chain):
    def __init__(self) -> None:
        super().__init__()
        with self.init_scope():
            self.d1 = L.Deconvolution2D(3, 4, 3, stride=2, pad=1)
            self.d2 = L.Deconvolution2D(4, 2, 2, stride=1, groups=2, nobias=True)

    def forward(self, x: Any) -> Any:
        return self.d2(F.relu(self.d1(x)))


def _export(model: Any, x: numpy.ndarray, directory: str, **kw: Any) -> tuple[Any, Any]:
    caffe.export(model, [x], directory, **kw)
    with open(os.path.join(directory, 'chainer_model.prototxt')) as f:
        text = text_format.Parse(f.read(), caffe_pb2.NetParameter())
    net = caffe_pb2.NetParameter()
    with open(os.path.join(directory, 'chainer_model.caffemodel'), 'rb') as f:
        net.ParseFromString(f.read())
    return text, net


MODELS = [
    (MLP, (4, 6)),
    (CNN, (2, 3, 9, 9)),
    (Branches, (2, 2, 5, 5)),
    (Deconv, (2, 3, 4, 4)),
]


@pytest.mark.parametrize(('cls', 'shape'), MODELS, ids=[m[0].__name__ for m in MODELS])
def test_exported_net_computes_the_model(cls: Any, shape: tuple[int, ...],
                                         tmp_path: Any) -> None:
    model = cls()
    x = numpy.random.RandomState(0).uniform(-1, 1, shape).astype(numpy.float32)
    text, net = _export(model, x, str(tmp_path), graph_name='mynet')
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        expected = model(x).array
    out = net.layer[-1].top[0]
    got = run_caffe_net(net, {'data': x})[out]
    numpy.testing.assert_allclose(got, expected, rtol=1e-4, atol=1e-5)
    # the prototxt: the name, an Input layer of the input's shape, then the same layers
    assert text.name == 'mynet'
    assert text.layer[0].type == 'Input' and text.layer[0].top[:] == ['data']
    assert list(text.layer[0].input_param.shape[0].dim) == list(shape)
    assert [(lay.name, lay.type) for lay in text.layer[1:]] == \
        [(lay.name, lay.type) for lay in net.layer]
    assert all(len(lay.blobs) == 0 for lay in text.layer)
    got_text = run_caffe_net(_with_blobs(text, net), {'data': x})[out]
    numpy.testing.assert_allclose(got_text, expected, rtol=1e-4, atol=1e-5)


def _with_blobs(text: Any, net: Any) -> Any:
    merged = caffe_pb2.NetParameter()
    merged.CopyFrom(text)
    by_name = {lay.name: lay for lay in net.layer}
    for lay in merged.layer:
        if lay.name in by_name:
            lay.blobs.extend(by_name[lay.name].blobs)
    return merged


def test_layer_names_and_params(tmp_path: Any) -> None:
    x = numpy.zeros((1, 6), numpy.float32)
    _, net = _export(MLP(), x, str(tmp_path))
    assert [(lay.name, lay.type, list(lay.bottom), list(lay.top)) for lay in net.layer] == [
        ('LinearFunction-0-1', 'InnerProduct', ['data'], ['LinearFunction-0-1']),
        ('ReLU-1-1', 'ReLU', ['LinearFunction-0-1'], ['ReLU-1-1']),
        ('LinearFunction-2-1', 'InnerProduct', ['ReLU-1-1'], ['LinearFunction-2-1']),
    ]
    first, last = net.layer[0], net.layer[2]
    assert first.inner_product_param.num_output == 5 and first.inner_product_param.bias_term
    assert [list(b.shape.dim) for b in first.blobs] == [[5, 6], [5]]
    assert not last.inner_product_param.bias_term and len(last.blobs) == 1


def test_batch_normalization_is_batchnorm_and_scale(tmp_path: Any) -> None:
    x = numpy.zeros((1, 3, 9, 9), numpy.float32)
    _, net = _export(CNN(), x, str(tmp_path))
    types = [lay.type for lay in net.layer]
    i = types.index('BatchNorm')
    assert types[i + 1] == 'Scale'
    assert net.layer[i + 1].bottom[:] == net.layer[i].top[:]
    assert net.layer[i].batch_norm_param.use_global_stats
    assert net.layer[i].batch_norm_param.eps == pytest.approx(1e-3)


def test_pooling_round_mode(tmp_path: Any) -> None:
    class Pool(chainer.Chain):
        def forward(self, x: Any) -> Any:
            return F.max_pooling_2d(x, 2, 2, cover_all=False) + \
                F.average_pooling_2d(x, 2, 2)

    x = numpy.random.RandomState(1).uniform(-1, 1, (1, 2, 5, 5)).astype(numpy.float32)
    _, net = _export(Pool(), x, str(tmp_path))
    pools = [lay for lay in net.layer if lay.type == 'Pooling']
    # Chainer's floor size (2) is not Caffe's default ceil size (3)
    assert all(p.pooling_param.round_mode == caffe_pb2.PoolingParameter.FLOOR for p in pools)
    with chainer.using_config('train', False):
        expected = Pool()(x).array
    got = run_caffe_net(net, {'data': x})[net.layer[-1].top[0]]
    numpy.testing.assert_allclose(got, expected, rtol=1e-5, atol=1e-6)


def test_unsupported_function_is_named(tmp_path: Any) -> None:
    class Tanh(chainer.Chain):
        def forward(self, x: Any) -> Any:
            return F.tanh(F.relu(x))

    with pytest.raises(NotImplementedError, match='Tanh'):
        caffe.export(Tanh(), [numpy.zeros((1, 2), numpy.float32)], str(tmp_path / 'out'))
    assert not (tmp_path / 'out' / 'chainer_model.prototxt').exists()


def test_constant_operand_is_an_error(tmp_path: Any) -> None:
    c = numpy.ones((1, 2), numpy.float32)

    class AddArray(chainer.Chain):
        def forward(self, x: Any) -> Any:
            return x + chainer.Variable(c)

    with pytest.raises(ValueError, match='constant operand'):
        caffe.export(AddArray(), [c], str(tmp_path))


def test_directory_none_writes_nothing_and_params_optional(tmp_path: Any,
                                                           monkeypatch: Any) -> None:
    monkeypatch.chdir(tmp_path)
    x = numpy.zeros((1, 6), numpy.float32)
    assert caffe.export(MLP(), [x]) is None
    assert os.listdir(tmp_path) == []
    out = tmp_path / 'new' / 'dir'
    caffe.export(MLP(), chainer.Variable(x), str(out), export_params=False)
    assert sorted(os.listdir(out)) == ['chainer_model.prototxt']


def test_several_inputs_by_name(tmp_path: Any) -> None:
    class Two(chainer.Chain):
        def forward(self, a: Any, b: Any) -> Any:
            return F.concat([a, F.relu(b)])

    a = numpy.ones((1, 2), numpy.float32)
    b = -numpy.ones((1, 3), numpy.float32)
    caffe.export(Two(), {'a': a, 'b': b}, str(tmp_path))
    with open(tmp_path / 'chainer_model.prototxt') as f:
        text = text_format.Parse(f.read(), caffe_pb2.NetParameter())
    assert [lay.name for lay in text.layer if lay.type == 'Input'] == ['a', 'b']
    net = caffe_pb2.NetParameter.FromString((tmp_path / 'chainer_model.caffemodel').read_bytes())
    got = run_caffe_net(net, {'a': a, 'b': b})[net.layer[-1].top[0]]
    numpy.testing.assert_array_equal(got, [[1, 1, 0, 0, 0]])


def _caffe_function() -> Any:
    from chainer.links import caffe as links_caffe
    if not hasattr(links_caffe, 'CaffeFunction'):
        pytest.skip('chainer.links.caffe.CaffeFunction is not available yet')
    return links_caffe.CaffeFunction


# CaffeFunction builds convolutions without dilation (as v7's did)
ROUND_TRIP = [(MLP, (4, 6)), (lambda: CNN(dilate=1), (2, 3, 9, 9)), (Branches, (2, 2, 5, 5)),
              (Deconv, (2, 3, 4, 4))]


@pytest.mark.parametrize(('cls', 'shape'), ROUND_TRIP, ids=['MLP', 'CNN', 'Branches', 'Deconv'])
def test_round_trip_with_caffe_function(cls: Any, shape: tuple[int, ...],
                                        tmp_path: Any) -> None:
    CaffeFunction = _caffe_function()
    model = cls()
    x = numpy.random.RandomState(2).uniform(-1, 1, shape).astype(numpy.float32)
    caffe.export(model, [x], str(tmp_path))
    loaded = CaffeFunction(str(tmp_path / 'chainer_model.caffemodel'))
    out = loaded.layers[-1][0]
    with chainer.using_config('train', False):
        expected = model(x).array
        (got,) = loaded(inputs={'data': x}, outputs=[out])
    numpy.testing.assert_allclose(got.array, expected, rtol=1e-4, atol=1e-5)
