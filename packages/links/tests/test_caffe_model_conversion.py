"""convert_caffemodel_to_npz of VGG, ResNet and GoogLeNet on small caffemodels built here.

The full-size models hold 7M to 140M parameters; the tests use subclasses of the same
layer names at small widths, so the whole path (caffemodel -> CaffeFunction -> the
model -> NPZ) runs on files of a few kilobytes.
"""

from __future__ import annotations

import pathlib
from typing import Any

import numpy
import pytest

pytest.importorskip('google.protobuf')
pytest.importorskip('chainer.serializers')

from chainer.link import Chain
from chainer.links.caffe.caffe_function import caffe_pb
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.inception import Inception
from chainer.links.connection.linear import Linear
from chainer.links.model.vision import googlenet, resnet, vgg
from chainer.links.normalization.batch_normalization import BatchNormalization

RNG = numpy.random.default_rng(1)


class _Net:
    """A NetParameter being built, with the expected NPZ entries."""

    def __init__(self) -> None:
        self.net = caffe_pb.NetParameter()
        self.expected: dict[str, numpy.ndarray] = {}

    def _add(self, name: str, typ: str, arrays: list[numpy.ndarray]) -> Any:
        layer = self.net.layer.add()
        layer.name, layer.type = name, typ
        layer.bottom.append('x')
        layer.top.append(name)
        for a in arrays:
            blob = layer.blobs.add()
            blob.shape.dim.extend(a.shape)
            blob.data.extend(a.ravel().tolist())
        return layer

    def conv(self, name: str, dst: str, shape: tuple[int, ...], bias: bool = True) -> None:
        w = RNG.standard_normal(shape).astype(numpy.float32)
        arrays = [w]
        layer_bias = bias
        if bias:
            arrays.append(RNG.standard_normal(shape[0]).astype(numpy.float32))
            self.expected[dst + '/b'] = arrays[1]
        layer = self._add(name, 'Convolution', arrays)
        layer.convolution_param.bias_term = layer_bias
        layer.convolution_param.kernel_size.append(shape[2])
        self.expected[dst + '/W'] = w

    def fc(self, name: str, dst: str, out_size: int, in_size: int) -> None:
        w = RNG.standard_normal((out_size, in_size)).astype(numpy.float32)
        b = RNG.standard_normal(out_size).astype(numpy.float32)
        self._add(name, 'InnerProduct', [w, b])
        self.expected[dst + '/W'], self.expected[dst + '/b'] = w, b

    def bn(self, bn_name: str, scale_name: str, dst: str, size: int) -> None:
        mean = RNG.standard_normal(size).astype(numpy.float32)
        var = RNG.uniform(0.5, 2, size).astype(numpy.float32)
        factor = numpy.array([4.0], numpy.float32)
        self._add(bn_name, 'BatchNorm', [mean * 4, var * 4, factor])
        gamma = RNG.standard_normal(size).astype(numpy.float32)
        beta = RNG.standard_normal(size).astype(numpy.float32)
        self._add(scale_name, 'Scale', [gamma, beta]).scale_param.bias_term = True
        self.expected.update({dst + '/avg_mean': mean, dst + '/avg_var': var,
                              dst + '/gamma': gamma, dst + '/beta': beta})

    def save(self, tmp_path: pathlib.Path) -> str:
        path = tmp_path / 'model.caffemodel'
        path.write_bytes(self.net.SerializeToString())
        return str(path)


def _check_npz(path: pathlib.Path, expected: dict[str, numpy.ndarray]) -> None:
    with numpy.load(path) as npz:
        for key, value in expected.items():
            numpy.testing.assert_allclose(npz[key], value, rtol=1e-6, err_msg=key)


class _TinyVGG16(vgg.VGG16Layers):
    def __init__(self, pretrained_model: str | None = None) -> None:
        Chain.__init__(self)
        self.n_layers = 16
        with self.init_scope():
            c_in = 3
            for i, n in enumerate(vgg._BLOCKS[16], 1):
                for j in range(1, n + 1):
                    setattr(self, f'conv{i}_{j}', Convolution2D(c_in, 2, 3, 1, 1))
                    c_in = 2
            self.fc6 = Linear(4, 3)
            self.fc7 = Linear(3, 3)
            self.fc8 = Linear(3, 5)


def test_vgg16_conversion(tmp_path: pathlib.Path) -> None:
    net = _Net()
    c_in = 3
    for i, n in enumerate(vgg._BLOCKS[16], 1):
        for j in range(1, n + 1):
            net.conv(f'conv{i}_{j}', f'conv{i}_{j}', (2, c_in, 3, 3))
            c_in = 2
    net.fc('fc6', 'fc6', 3, 4)
    net.fc('fc7', 'fc7', 3, 3)
    net.fc('fc8', 'fc8', 5, 3)
    _TinyVGG16.convert_caffemodel_to_npz(net.save(tmp_path), str(tmp_path / 'vgg.npz'))
    _check_npz(tmp_path / 'vgg.npz', net.expected)
    # the NPZ loads into the model
    model = _TinyVGG16()
    from chainer.serializers import load_npz
    load_npz(str(tmp_path / 'vgg.npz'), model)
    numpy.testing.assert_array_equal(model.fc8.b.array, net.expected['fc8/b'])


def _tiny_resnet(n_layers: int, counts: tuple[int, ...]) -> type[resnet.ResNetLayers]:
    class Tiny(resnet.ResNetLayers):
        def __init__(self) -> None:
            Chain.__init__(self)
            self.n_layers = n_layers
            with self.init_scope():
                self.conv1 = Convolution2D(3, 4, 7, 2, 3)
                self.bn1 = BatchNormalization(4)
                c_in = 4
                for stage, count in zip(range(2, 6), counts):
                    setattr(self, f'res{stage}', resnet.BuildingBlock(
                        count, c_in, 2, 6, 1 if stage == 2 else 2))
                    c_in = 6
                self.fc6 = Linear(6, 5)

        @classmethod
        def _new_for_caffe(cls) -> resnet.ResNetLayers:
            return cls()

    return Tiny


@pytest.mark.parametrize('n_layers,counts,names', [
    (50, (1, 2, 3, 1), ['2a', '3a', '3b', '4a', '4b', '4c', '5a']),
    (101, (1, 3, 3, 1), ['2a', '3a', '3b1', '3b2', '4a', '4b1', '4b2', '5a']),
    (152, (2, 2, 2, 2), ['2a', '2b', '3a', '3b1', '4a', '4b1', '5a', '5b']),
])
def test_resnet_conversion(tmp_path: pathlib.Path, n_layers: int, counts: tuple[int, ...],
                           names: list[str]) -> None:
    net = _Net()
    net.conv('conv1', 'conv1', (4, 3, 7, 7))
    net.bn('bn_conv1', 'scale_conv1', 'bn1', 4)
    name_iter = iter(names)
    c_in = 4
    for stage, count in zip(range(2, 6), counts):
        for i in range(count):
            name = next(name_iter)
            dst = f'res{stage}/' + ('a' if i == 0 else f'b{i}')
            shapes = [(2, c_in if i == 0 else 6, 1, 1), (2, 2, 3, 3), (6, 2, 1, 1)]
            if i == 0:
                shapes.append((6, c_in, 1, 1))
            for k, (branch, shape) in enumerate(zip(['2a', '2b', '2c', '1'], shapes), 1):
                net.conv(f'res{name}_branch{branch}', f'{dst}/conv{k}', shape, bias=False)
                net.bn(f'bn{name}_branch{branch}', f'scale{name}_branch{branch}',
                       f'{dst}/bn{k}', shape[0])
        c_in = 6
    net.fc('fc1000', 'fc6', 5, 6)
    tiny = _tiny_resnet(n_layers, counts)
    tiny.convert_caffemodel_to_npz(net.save(tmp_path), str(tmp_path / 'resnet.npz'))
    _check_npz(tmp_path / 'resnet.npz', net.expected)


def test_resnet_block_names_match_the_authors_models() -> None:
    from chainer.links.model.vision import _caffe

    names = _caffe._resnet_block_names(101, (3, 4, 23, 3))
    assert names[1] == ['3a', '3b1', '3b2', '3b3'] and names[2][-1] == '4b22'
    assert _caffe._resnet_block_names(152, (3, 8, 36, 3))[2][-1] == '4b35'
    assert _caffe._resnet_block_names(50, (3, 4, 6, 3))[2] == ['4a', '4b', '4c', '4d',
                                                              '4e', '4f']


class _TinyGoogLeNet(googlenet.GoogLeNet):
    def __init__(self, pretrained_model: str | None = None) -> None:
        Chain.__init__(self)
        with self.init_scope():
            self.conv1 = Convolution2D(3, 2, 7, stride=2, pad=3)
            self.conv2_reduce = Convolution2D(2, 2, 1)
            self.conv2 = Convolution2D(2, 2, 3, pad=1)
            for name in ('3a', '3b', '4a', '4b', '4c', '4d', '4e', '5a', '5b'):
                setattr(self, f'inc{name}', Inception(2, 1, 1, 1, 1, 1, 1))
            self.loss3_fc = Linear(4, 5)
            for loss in ('loss1', 'loss2'):
                setattr(self, f'{loss}_conv', Convolution2D(4, 2, 1))
                setattr(self, f'{loss}_fc1', Linear(8, 3))
                setattr(self, f'{loss}_fc2', Linear(3, 5))


def test_googlenet_conversion(tmp_path: pathlib.Path) -> None:
    net = _Net()
    net.conv('conv1/7x7_s2', 'conv1', (2, 3, 7, 7))
    net.conv('conv2/3x3_reduce', 'conv2_reduce', (2, 2, 1, 1))
    net.conv('conv2/3x3', 'conv2', (2, 2, 3, 3))
    parts = [('conv1', '1x1', 1), ('proj3', '3x3_reduce', 1), ('conv3', '3x3', 3),
             ('proj5', '5x5_reduce', 1), ('conv5', '5x5', 5), ('projp', 'pool_proj', 1)]
    for name in ('3a', '3b', '4a', '4b', '4c', '4d', '4e', '5a', '5b'):
        for ours, theirs, k in parts:
            c_in = 1 if ours in ('conv3', 'conv5') else 2
            net.conv(f'inception_{name}/{theirs}', f'inc{name}/{ours}', (1, c_in, k, k))
    for loss in ('loss1', 'loss2'):
        net.conv(f'{loss}/conv', f'{loss}_conv', (2, 4, 1, 1))
        net.fc(f'{loss}/fc', f'{loss}_fc1', 3, 8)
        net.fc(f'{loss}/classifier', f'{loss}_fc2', 5, 3)
    net.fc('loss3/classifier', 'loss3_fc', 5, 4)
    _TinyGoogLeNet.convert_caffemodel_to_npz(net.save(tmp_path), str(tmp_path / 'g.npz'))
    _check_npz(tmp_path / 'g.npz', net.expected)


def test_missing_layer_in_caffemodel_is_an_error(tmp_path: pathlib.Path) -> None:
    net = _Net()
    net.conv('conv1_1', 'conv1_1', (2, 3, 3, 3))
    with pytest.raises(AttributeError):
        _TinyVGG16.convert_caffemodel_to_npz(net.save(tmp_path), str(tmp_path / 'v.npz'))
    assert not (tmp_path / 'v.npz').exists()
