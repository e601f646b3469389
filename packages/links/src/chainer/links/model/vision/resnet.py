"""Residual networks (He et al., 2016): ResNet50Layers, ResNet101Layers, ResNet152Layers."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import functions, initializers
from chainer.link import Chain
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.linear import Linear
from chainer.links.model.vision._common import (
    PretrainedModel,
    available,
    global_average_pooling_2d,
    load_weights,
    prepare_image,
)
from chainer.links.normalization.batch_normalization import BatchNormalization

if TYPE_CHECKING:
    from PIL import Image

    from chainer.types import InitializerSpec, NdArray, VariableOrArray
    from chainer.variable import Variable

__all__ = ['ResNetLayers', 'ResNet50Layers', 'ResNet101Layers', 'ResNet152Layers',
           'BuildingBlock', 'BottleneckA', 'BottleneckB', 'prepare', 'available']

_MEAN_BGR = (103.063, 115.903, 123.152)
_ORIGIN = 'the Caffe model of the ResNet authors (ResNet-{}-model.caffemodel)'
#: The number of bottlenecks of the four stages.
_BLOCKS = {50: (3, 4, 6, 3), 101: (3, 4, 23, 3), 152: (3, 8, 36, 3)}


def prepare(image: Image.Image | NdArray,
            size: tuple[int, int] | None = (224, 224)) -> NdArray:
    """Turn an image into an input of the ResNets.

    The image (a PIL image or an array ``(H, W)``, ``(H, W, 3)``, ``(1, H, W)``
    or ``(3, H, W)`` of RGB values in ``[0, 255]``) is resized to ``size``
    (None: kept), converted to BGR and centred on the mean pixel of the
    ILSVRC training images.

    Returns:
        An array of shape ``(3, H, W)`` and dtype ``chainer.get_dtype()``.

    Raises:
        ImportError: when Pillow is not installed.
    """
    return prepare_image(image, size, _MEAN_BGR)


def _max_pooling_2d(x: Any) -> Any:
    return functions.max_pooling_2d(x, ksize=3, stride=2)


class BottleneckA(Chain):
    """The first bottleneck of a stage: changes the channels (and strides), with a projection.

    ``relu(bn3(conv3(relu(bn2(conv2(relu(bn1(conv1(x)))))))) + bn4(conv4(x)))``,
    the 1x1, 3x3, 1x1 convolutions and the 1x1 projection ``conv4`` having no bias.

    Args:
        in_channels: the input channels.
        mid_channels: the channels of the 3x3 convolution.
        out_channels: the output channels.
        stride: the stride of the stage.
        initialW: initializer of the convolution weights.
        downsample_fb: if True, stride in the 3x3 convolution (as Facebook's
            implementation), else in the first 1x1 (as the original).
    """

    def __init__(self, in_channels: int, mid_channels: int, out_channels: int, stride: int = 2,
                 initialW: InitializerSpec | None = None, downsample_fb: bool = False) -> None:
        super().__init__()
        stride_1x1, stride_3x3 = (1, stride) if downsample_fb else (stride, 1)
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, stride_1x1, 0,
                                       initialW=initialW, nobias=True)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3, stride_3x3, 1,
                                       initialW=initialW, nobias=True)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, out_channels, 1, 1, 0,
                                       initialW=initialW, nobias=True)
            self.bn3 = BatchNormalization(out_channels)
            self.conv4 = Convolution2D(in_channels, out_channels, 1, stride, 0,
                                       initialW=initialW, nobias=True)
            self.bn4 = BatchNormalization(out_channels)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the bottleneck."""
        relu = functions.relu
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        h = self.bn3(self.conv3(h))
        return relu(h + self.bn4(self.conv4(x)))


class BottleneckB(Chain):
    """A bottleneck keeping the channels, with an identity shortcut.

    Args:
        in_channels: the input (and output) channels.
        mid_channels: the channels of the 3x3 convolution.
        initialW: initializer of the convolution weights.
    """

    def __init__(self, in_channels: int, mid_channels: int,
                 initialW: InitializerSpec | None = None) -> None:
        super().__init__()
        with self.init_scope():
            self.conv1 = Convolution2D(in_channels, mid_channels, 1, 1, 0,
                                       initialW=initialW, nobias=True)
            self.bn1 = BatchNormalization(mid_channels)
            self.conv2 = Convolution2D(mid_channels, mid_channels, 3, 1, 1,
                                       initialW=initialW, nobias=True)
            self.bn2 = BatchNormalization(mid_channels)
            self.conv3 = Convolution2D(mid_channels, in_channels, 1, 1, 0,
                                       initialW=initialW, nobias=True)
            self.bn3 = BatchNormalization(in_channels)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the bottleneck."""
        relu = functions.relu
        h = relu(self.bn1(self.conv1(x)))
        h = relu(self.bn2(self.conv2(h)))
        return relu(self.bn3(self.conv3(h)) + x)


class BuildingBlock(Chain):
    """A stage of a ResNet: a :class:`BottleneckA` (``a``) then ``BottleneckB`` ``b1, b2, ..``.

    Args:
        n_layer: the number of bottlenecks.
        in_channels: the input channels.
        mid_channels: the channels of the 3x3 convolutions.
        out_channels: the output channels.
        stride: the stride of the first bottleneck.
        initialW: initializer of the convolution weights.
        downsample_fb: where the first bottleneck strides (see :class:`BottleneckA`).
    """

    def __init__(self, n_layer: int, in_channels: int, mid_channels: int, out_channels: int,
                 stride: int, initialW: InitializerSpec | None = None,
                 downsample_fb: bool = False) -> None:
        super().__init__()
        with self.init_scope():
            self.a = BottleneckA(in_channels, mid_channels, out_channels, stride, initialW,
                                 downsample_fb)
            self._forward = ['a']
            for i in range(1, n_layer):
                name = f'b{i}'
                setattr(self, name, BottleneckB(out_channels, mid_channels, initialW))
                self._forward.append(name)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the bottlenecks in turn."""
        h: Variable = self.a(x)
        for name in self._forward[1:]:
            h = getattr(self, name)(h)
        return h


class ResNetLayers(PretrainedModel):
    """A ResNet of 50, 101 or 152 layers, whose named layers can be extracted.

    The layers (:attr:`available_layers`) are ``conv1``, ``pool1``, the
    stages ``res2 .. res5``, ``pool5`` (global average pooling), ``fc6`` and
    ``prob``.

    Args:
        pretrained_model: ``'auto'`` to load the converted weights of the
            original model (``ResNet-<n>-model.npz`` in
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; nothing is
            downloaded), the path of an NPZ file, or None for random weights
            (He normal).
        n_layers: 50, 101 or 152.
        downsample_fb: where the stages stride (see :class:`BottleneckA`).

    Raises:
        ValueError: for another ``n_layers``.
        FileNotFoundError: when the weights file is absent.
    """

    _prepare = staticmethod(prepare)

    def __init__(self, pretrained_model: str | None, n_layers: int,
                 downsample_fb: bool = False) -> None:
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(f'ResNet has 50, 101 or 152 layers, not {n_layers}')
        # With weights to load, skip the costly random sampling.
        initialW = (
            initializers.Zero() if pretrained_model else initializers.HeNormal(scale=1.0))
        blocks = _BLOCKS[n_layers]
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, 2, 3, initialW=initialW)
            self.bn1 = BatchNormalization(64)
            self.res2 = BuildingBlock(blocks[0], 64, 64, 256, 1, downsample_fb=downsample_fb,
                                      initialW=initialW)
            self.res3 = BuildingBlock(blocks[1], 256, 128, 512, 2,
                                      downsample_fb=downsample_fb, initialW=initialW)
            self.res4 = BuildingBlock(blocks[2], 512, 256, 1024, 2,
                                      downsample_fb=downsample_fb, initialW=initialW)
            self.res5 = BuildingBlock(blocks[3], 1024, 512, 2048, 2,
                                      downsample_fb=downsample_fb, initialW=initialW)
            self.fc6 = Linear(2048, 1000)
        self.n_layers = n_layers
        if pretrained_model:
            load_weights(self, pretrained_model, f'ResNet-{n_layers}-model.npz',
                         _ORIGIN.format(n_layers))

    @classmethod
    def convert_caffemodel_to_npz(cls, path_caffemodel: str, path_npz: str,
                                  n_layers: int = 50) -> None:
        """Convert the ResNet authors' Caffe weights (a ``.caffemodel``) to NPZ.

        Args:
            path_caffemodel: the ``.caffemodel`` file (``ResNet-{n}-model.caffemodel``).
            path_npz: where to write the NPZ file.
            n_layers: the depth, for :class:`ResNetLayers` itself (50, 101 or 152); the
                subclasses know theirs.
        """
        from chainer.links.model.vision import _caffe

        caffemodel = _caffe.load_caffemodel(path_caffemodel)
        if cls is ResNetLayers:
            model: Chain = ResNetLayers(None, n_layers)
            _caffe.transfer_resnet(caffemodel, model, n_layers)
        else:
            model = cls._from_caffemodel(caffemodel)
        _caffe.save_npz(path_npz, model)

    @classmethod
    def _from_caffemodel(cls, caffemodel: Chain) -> Chain:
        """A new ResNet of this class holding the layers of the Caffe model."""
        from chainer.links.model.vision import _caffe

        model = cls._new_for_caffe()
        _caffe.transfer_resnet(caffemodel, model, model.n_layers)
        return model

    @classmethod
    def _new_for_caffe(cls) -> ResNetLayers:
        """A new model of this class with random weights (the subclasses fix the depth)."""
        raise NotImplementedError('give n_layers to ResNetLayers.convert_caffemodel_to_npz')

    @property
    def functions(self) -> OrderedDict[str, list[Callable[[Any], Any]]]:
        """The layers in order: name -> the callables computing it."""
        return OrderedDict([
            ('conv1', [self.conv1, self.bn1, functions.relu]),
            ('pool1', [_max_pooling_2d]),
            ('res2', [self.res2]),
            ('res3', [self.res3]),
            ('res4', [self.res4]),
            ('res5', [self.res5]),
            ('pool5', [global_average_pooling_2d]),
            ('fc6', [self.fc6]),
            ('prob', [functions.softmax]),
        ])


class ResNet50Layers(ResNetLayers):
    """ResNet of 50 layers (see :class:`ResNetLayers`).

    Args:
        pretrained_model: ``'auto'``, the path of an NPZ file or None.
        downsample_fb: where the stages stride (see :class:`BottleneckA`).
    """

    def __init__(self, pretrained_model: str | None = 'auto',
                 downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 50, downsample_fb)

    @classmethod
    def _new_for_caffe(cls) -> ResNetLayers:
        return cls(pretrained_model=None)


class ResNet101Layers(ResNetLayers):
    """ResNet of 101 layers (see :class:`ResNetLayers`).

    Args:
        pretrained_model: ``'auto'``, the path of an NPZ file or None.
        downsample_fb: where the stages stride (see :class:`BottleneckA`).
    """

    def __init__(self, pretrained_model: str | None = 'auto',
                 downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 101, downsample_fb)

    @classmethod
    def _new_for_caffe(cls) -> ResNetLayers:
        return cls(pretrained_model=None)


class ResNet152Layers(ResNetLayers):
    """ResNet of 152 layers (see :class:`ResNetLayers`).

    Args:
        pretrained_model: ``'auto'``, the path of an NPZ file or None.
        downsample_fb: where the stages stride (see :class:`BottleneckA`).
    """

    def __init__(self, pretrained_model: str | None = 'auto',
                 downsample_fb: bool = False) -> None:
        super().__init__(pretrained_model, 152, downsample_fb)

    @classmethod
    def _new_for_caffe(cls) -> ResNetLayers:
        return cls(pretrained_model=None)
