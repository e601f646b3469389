"""Tests of chainer.links.model.vision: layers, feature extraction, prediction, weight files.

The networks are big: VGG is built with zero weights (its random initialization
takes seconds) and run on 224x224 once; the others mostly on small images.
"""

import os
from collections import OrderedDict

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import initializers
from chainer.links.model.vision import _common, googlenet, resnet, vgg

PIL = pytest.importorskip('PIL')


@pytest.fixture
def models_root(tmp_path, monkeypatch):
    """A fresh dataset root for pretrained_model='auto'."""
    monkeypatch.setenv('CHAINER_DATASET_ROOT', str(tmp_path))
    try:
        from chainer.dataset import download
    except ImportError:
        yield tmp_path
        return
    old = download.get_dataset_root()
    download.set_dataset_root(str(tmp_path))
    yield tmp_path
    download.set_dataset_root(old)


@pytest.fixture(scope='module')
def resnet50():
    return resnet.ResNet50Layers(pretrained_model=None)


@pytest.fixture(scope='module')
def vgg16():
    patch = pytest.MonkeyPatch()
    patch.setattr(vgg.initializers, 'Normal', lambda scale: initializers.Zero())
    try:
        return vgg.VGG16Layers(pretrained_model=None)
    finally:
        patch.undo()


def test_prepare_shapes_dtypes_and_mean():
    rgb = numpy.zeros((6, 4, 3), numpy.uint8)
    rgb[..., 0] = 10  # red
    y = vgg.prepare(rgb, size=None)
    assert y.shape == (3, 6, 4) and y.dtype == numpy.float32
    numpy.testing.assert_allclose(y[:, 0, 0], [-103.939, -116.779, 10 - 123.68], rtol=1e-6)
    gray = numpy.full((5, 7), 3, numpy.uint8)
    assert resnet.prepare(gray).shape == (3, 224, 224)
    assert googlenet.prepare(numpy.zeros((1, 5, 7), 'f'), size=None).shape == (3, 5, 7)
    assert googlenet.prepare(numpy.zeros((3, 5, 7), numpy.uint8), size=(8, 8)).shape == \
        (3, 8, 8)
    with chainer.using_config('dtype', numpy.float16):
        assert resnet.prepare(gray, size=None).dtype == numpy.float16


def test_resnet_layers_and_features(resnet50):
    assert resnet50.available_layers == ['conv1', 'pool1', 'res2', 'res3', 'res4', 'res5',
                                         'pool5', 'fc6', 'prob']
    assert resnet50.res2._forward == ['a', 'b1', 'b2'] and len(resnet50.res4._forward) == 6
    image = numpy.random.randint(0, 255, (80, 60, 3)).astype(numpy.uint8)
    with chainer.using_config('train', False):
        out = resnet50.extract([image, image], layers=['res2', 'pool5', 'prob'], size=None)
    assert out['res2'].shape == (2, 256, 20, 15)
    assert out['pool5'].shape == (2, 2048)
    numpy.testing.assert_allclose(out['prob'].array.sum(1), [1, 1], rtol=1e-5)
    numpy.testing.assert_allclose(out['prob'].array[0], out['prob'].array[1], rtol=1e-5)
    copied = resnet50.copy()
    assert copied.conv1 is copied.functions['conv1'][0]
    assert copied.res2.a is getattr(copied.res2, copied.res2._forward[0])


def test_resnet_downsample_fb_strides_in_3x3(monkeypatch):
    block = resnet.BottleneckA(4, 2, 8, stride=2, downsample_fb=True)
    assert block.conv1.stride == (1, 1) and block.conv2.stride == (2, 2)
    block = resnet.BottleneckA(4, 2, 8, stride=2)
    assert block.conv1.stride == (2, 2) and block.conv2.stride == (1, 1)
    assert block(numpy.random.randn(1, 4, 6, 6).astype('f')).shape == (1, 8, 3, 3)
    monkeypatch.setattr(resnet.initializers, 'HeNormal', lambda scale: initializers.Zero())
    assert len(resnet.ResNetLayers(None, 101).res4._forward) == 23
    with pytest.raises(ValueError, match='50, 101 or 152'):
        resnet.ResNetLayers(None, 34)


def test_forward_arguments(resnet50):
    x = numpy.zeros((1, 3, 32, 32), 'f')
    with pytest.raises(ValueError, match='no layer'):
        resnet50(x, layers=['fc7'])
    with pytest.raises(ValueError, match='test argument'):
        resnet50(x, test=True)


def test_vgg_layers_and_full_forward(vgg16):
    layers = vgg16.available_layers
    assert len(layers) == 22 and layers[:3] == ['conv1_1', 'conv1_2', 'pool1']
    assert layers[-4:] == ['fc6', 'fc7', 'fc8', 'prob']
    image = numpy.random.randint(0, 255, (80, 60)).astype(numpy.uint8)
    out = vgg16.extract([image], layers=['pool1'], size=None)
    assert out['pool1'].shape == (1, 64, 40, 30)
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        out = vgg16(numpy.random.randn(1, 3, 224, 224).astype('f'), layers=['fc7', 'prob'])
    assert out['fc7'].shape == (1, 4096)
    numpy.testing.assert_allclose(out['prob'].array, numpy.full((1, 1000), 1e-3), rtol=1e-5)
    copied = vgg16.copy()
    assert copied.conv1_1 is copied.functions['conv1_1'][0]


def test_vgg19_has_25_layers(monkeypatch):
    monkeypatch.setattr(vgg.initializers, 'Normal', lambda scale: initializers.Zero())
    model = vgg.VGG19Layers(pretrained_model=None)
    assert len(model.available_layers) == 25 and hasattr(model, 'conv5_4')
    with pytest.raises(ValueError, match='16 or 19'):
        vgg.VGGLayers(None, 11)


def test_googlenet_branches():
    model = googlenet.GoogLeNet(pretrained_model=None)
    assert len(model.available_layers) == 21
    assert model.available_layers[-3:] == ['prob', 'loss1_fc2', 'loss2_fc2']
    x = numpy.random.randn(1, 3, 224, 224).astype('f')
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        out = model(x, layers=['inception_4a', 'pool5', 'loss1_fc2', 'loss2_fc2'])
        aux = model.loss1_fc2(F.relu(model.loss1_fc1(F.relu(model.loss1_conv(
            F.average_pooling_2d(out['inception_4a'], 5, stride=3))))))
    assert out['pool5'].shape == (1, 1024, 1, 1)
    assert out['loss2_fc2'].shape == (1, 1000)
    numpy.testing.assert_allclose(out['loss1_fc2'].array, aux.array, rtol=1e-5, atol=1e-6)
    small = model.extract([numpy.zeros((80, 60), numpy.uint8)], layers=['pool1'], size=None)
    assert small['pool1'].shape == (1, 64, 20, 15)


class _TinyModel(_common.PretrainedModel):
    """A cheap model with the protocol of the vision models, to test predict()."""

    _prepare = staticmethod(vgg.prepare)

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.fc = L.Linear(3, 1000)

    @property
    def functions(self):
        return OrderedDict([
            ('pool5', [_common.global_average_pooling_2d]),
            ('fc', [self.fc]),
            ('prob', [F.softmax]),
        ])


def test_predict_averages_the_ten_crops():
    model = _TinyModel()
    model.fc.W.array[...] = numpy.random.randn(1000, 3) * 0.01
    images = [numpy.random.randint(0, 255, (300, 280, 3)).astype(numpy.uint8)
              for _ in range(2)]
    y = model.predict(images)
    assert y.shape == (2, 1000) and y.creator is None
    x = numpy.stack([vgg.prepare(im, size=(256, 256)) for im in images])
    crops = chainer.utils.imgproc.oversample(x, (224, 224))
    probs = model(crops, layers=['prob'])['prob'].array.reshape(2, 10, 1000).mean(1)
    numpy.testing.assert_allclose(y.array, probs, rtol=1e-5, atol=1e-8)
    centre = model.predict(images, oversample=False)
    expected = model(x[:, :, 16:240, 16:240], layers=['prob'])['prob'].array
    numpy.testing.assert_allclose(centre.array, expected, rtol=1e-5, atol=1e-8)


def test_auto_names_the_missing_file(models_root):
    with pytest.raises(FileNotFoundError) as info:
        googlenet.GoogLeNet()
    message = str(info.value)
    expected = os.path.join(str(models_root), 'pfnet', 'chainer', 'models',
                            'bvlc_googlenet.npz')
    assert 'bvlc_googlenet.npz' in message and expected in message
    with pytest.raises(FileNotFoundError, match='ResNet-152-model.npz'):
        resnet.ResNet152Layers()
    with pytest.raises(FileNotFoundError, match='nowhere.npz'):
        resnet.ResNet50Layers(str(models_root / 'nowhere.npz'))
    with pytest.raises(NotImplementedError, match='caffemodel'):
        resnet.ResNet50Layers('ResNet-50-model.caffemodel')


def test_caffemodel_conversion_of_a_missing_file_names_it(tmp_path):
    # the conversion itself is tested in test_caffe_model_conversion.py
    pytest.importorskip('google.protobuf')
    missing = str(tmp_path / 'absent.caffemodel')
    for cls in (vgg.VGG16Layers, resnet.ResNet50Layers, googlenet.GoogLeNet):
        with pytest.raises(FileNotFoundError, match='absent.caffemodel'):
            cls.convert_caffemodel_to_npz(missing, str(tmp_path / 'model.npz'))
        assert not (tmp_path / 'model.npz').exists()
