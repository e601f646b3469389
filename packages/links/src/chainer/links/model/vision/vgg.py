"""VGG networks (Simonyan and Zisserman, 2015): ``VGG16Layers`` and ``VGG19Layers``."""

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
    load_weights,
    prepare_image,
)

if TYPE_CHECKING:
    from PIL import Image

    from chainer.types import NdArray


__all__ = ['VGGLayers', 'VGG16Layers', 'VGG19Layers', 'prepare', 'available']

_MEAN_BGR = (103.939, 116.779, 123.68)
_ORIGIN = 'the Caffe model of the VGG authors (VGG_ILSVRC_{}_layers.caffemodel)'
#: The number of 3x3 convolutions of each of the five blocks.
_BLOCKS = {16: (2, 2, 3, 3, 3), 19: (2, 2, 4, 4, 4)}
_CHANNELS = (64, 128, 256, 512, 512)


def prepare(image: Image.Image | NdArray,
            size: tuple[int, int] | None = (224, 224)) -> NdArray:
    """Turn an image into an input of the VGG networks.

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
    return functions.max_pooling_2d(x, ksize=2, stride=2)


class VGGLayers(PretrainedModel):
    """A VGG network of 16 or 19 layers, whose named layers can be extracted.

    The layers (:attr:`available_layers`) are ``conv1_1 .. conv5_k``, the
    poolings ``pool1 .. pool5``, ``fc6``, ``fc7``, ``fc8`` and ``prob``.

    Args:
        pretrained_model: ``'auto'`` to load the converted weights of the
            original model (``VGG_ILSVRC_<n>_layers.npz`` in
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; nothing is
            downloaded), the path of an NPZ file, or None for random weights
            (normal with standard deviation 0.01, zero biases).
        n_layers: 16 or 19.

    Raises:
        ValueError: for another ``n_layers``.
        FileNotFoundError: when the weights file is absent.
    """

    _prepare = staticmethod(prepare)

    def __init__(self, pretrained_model: str | None = 'auto', n_layers: int = 16) -> None:
        super().__init__()
        if n_layers not in _BLOCKS:
            raise ValueError(f'VGG has 16 or 19 layers, not {n_layers}')
        self.n_layers = n_layers
        # With weights to load, skip the costly random sampling.
        initialW = (
            initializers.Zero() if pretrained_model else initializers.Normal(0.01))
        initial_bias = initializers.Zero()
        convs = []
        in_channels = 3
        for block, (n_convs, channels) in enumerate(zip(_BLOCKS[n_layers], _CHANNELS,
                                                        strict=True), 1):
            for k in range(1, n_convs + 1):
                convs.append((k, f'conv{block}_{k}', in_channels, channels))
                in_channels = channels
        with self.init_scope():
            # Chainer v7's order of construction (and so of seeded draws): VGG16's
            # layers, then VGG19's fourth convolutions of blocks 3-5.
            for _, name, c_in, c_out in [c for c in convs if c[0] <= 3]:
                setattr(self, name, Convolution2D(c_in, c_out, 3, 1, 1, initialW=initialW,
                                                  initial_bias=initial_bias))
            self.fc6 = Linear(512 * 7 * 7, 4096, initialW=initialW, initial_bias=initial_bias)
            self.fc7 = Linear(4096, 4096, initialW=initialW, initial_bias=initial_bias)
            self.fc8 = Linear(4096, 1000, initialW=initialW, initial_bias=initial_bias)
            for _, name, c_in, c_out in [c for c in convs if c[0] > 3]:
                setattr(self, name, Convolution2D(c_in, c_out, 3, 1, 1, initialW=initialW,
                                                  initial_bias=initial_bias))
        if pretrained_model:
            load_weights(self, pretrained_model, f'VGG_ILSVRC_{n_layers}_layers.npz',
                         _ORIGIN.format(n_layers))

    @classmethod
    def _from_caffemodel(cls, caffemodel: Chain) -> Chain:
        """A new VGG of this class holding conv*_* and fc6-fc8 of the Caffe model."""
        from chainer.links.model.vision import _caffe

        model = cls(pretrained_model=None)
        _caffe.transfer_vgg(caffemodel, model, _BLOCKS[model.n_layers])
        return model

    @property
    def functions(self) -> OrderedDict[str, list[Callable[[Any], Any]]]:
        """The layers in order: name -> the callables computing it."""
        relu = functions.relu
        layers: OrderedDict[str, list[Callable[[Any], Any]]] = OrderedDict()
        for block, n_convs in enumerate(_BLOCKS[self.n_layers], 1):
            for k in range(1, n_convs + 1):
                name = f'conv{block}_{k}'
                layers[name] = [getattr(self, name), relu]
            layers[f'pool{block}'] = [_max_pooling_2d]
        layers['fc6'] = [self.fc6, relu, functions.dropout]
        layers['fc7'] = [self.fc7, relu, functions.dropout]
        layers['fc8'] = [self.fc8]
        layers['prob'] = [functions.softmax]
        return layers


class VGG16Layers(VGGLayers):
    """VGG network of 16 layers (see :class:`VGGLayers`).

    Args:
        pretrained_model: ``'auto'``, the path of an NPZ file or None.
    """

    def __init__(self, pretrained_model: str | None = 'auto') -> None:
        super().__init__(pretrained_model, 16)


class VGG19Layers(VGGLayers):
    """VGG network of 19 layers (see :class:`VGGLayers`).

    Args:
        pretrained_model: ``'auto'``, the path of an NPZ file or None.
    """

    def __init__(self, pretrained_model: str | None = 'auto') -> None:
        super().__init__(pretrained_model, 19)
