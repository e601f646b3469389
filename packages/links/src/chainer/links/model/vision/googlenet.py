"""GoogLeNet (Szegedy et al., 2015), the Inception network of ILSVRC 2014."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import functions, initializers
from chainer.link import Chain
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.inception import Inception
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


__all__ = ['GoogLeNet', 'prepare', 'available']

_MEAN_BGR = (104.0, 117.0, 123.0)
_ORIGIN = 'the BVLC GoogLeNet Caffe model (bvlc_googlenet.caffemodel)'
#: The arguments of the nine Inception modules after the input channels.
_INCEPTIONS = (
    ('inc3a', 192, (64, 96, 128, 16, 32, 32)),
    ('inc3b', 256, (128, 128, 192, 32, 96, 64)),
    ('inc4a', 480, (192, 96, 208, 16, 48, 64)),
    ('inc4b', 512, (160, 112, 224, 24, 64, 64)),
    ('inc4c', 512, (128, 128, 256, 24, 64, 64)),
    ('inc4d', 512, (112, 144, 288, 32, 64, 64)),
    ('inc4e', 528, (256, 160, 320, 32, 128, 128)),
    ('inc5a', 832, (256, 160, 320, 32, 128, 128)),
    ('inc5b', 832, (384, 192, 384, 48, 128, 128)),
)


def prepare(image: Image.Image | NdArray,
            size: tuple[int, int] | None = (224, 224)) -> NdArray:
    """Turn an image into an input of GoogLeNet.

    The image (a PIL image or an array ``(H, W)``, ``(H, W, 3)``, ``(1, H, W)``
    or ``(3, H, W)`` of RGB values in ``[0, 255]``) is resized to ``size``
    (None: kept), converted to BGR and centred on the mean pixel.

    Returns:
        An array of shape ``(3, H, W)`` and dtype ``chainer.get_dtype()``.

    Raises:
        ImportError: when Pillow is not installed.
    """
    return prepare_image(image, size, _MEAN_BGR)


def _max_pooling_2d(x: Any) -> Any:
    return functions.max_pooling_2d(x, ksize=3, stride=2)


def _local_response_normalization(x: Any) -> Any:
    return functions.local_response_normalization(x, n=5, k=1, alpha=1e-4 / 5)


def _average_pooling_2d_k5(x: Any) -> Any:
    return functions.average_pooling_2d(x, ksize=5, stride=3)


def _average_pooling_2d_k7(x: Any) -> Any:
    return functions.average_pooling_2d(x, ksize=7, stride=1)


def _dropout(x: Any) -> Any:
    return functions.dropout(x, ratio=0.4)


class GoogLeNet(PretrainedModel):
    """GoogLeNet, whose named layers can be extracted.

    The layers (:attr:`available_layers`) are ``conv1, pool1, conv2_reduce,
    conv2, pool2``, the Inception modules ``inception_3a .. inception_5b``
    with the poolings between them, ``pool5``, ``loss3_fc``, ``prob`` and
    the auxiliary classifiers ``loss1_fc2`` (from ``inception_4a``) and
    ``loss2_fc2`` (from ``inception_4d``), computed only when asked for.

    Args:
        pretrained_model: ``'auto'`` to load the converted weights of the
            original model (``bvlc_googlenet.npz`` in
            ``$CHAINER_DATASET_ROOT/pfnet/chainer/models/``; nothing is
            downloaded), the path of an NPZ file, or None for random weights
            (LeCun uniform).

    Raises:
        FileNotFoundError: when the weights file is absent.
    """

    # the inception blocks, set from _INCEPTIONS
    inc3a: Inception
    inc3b: Inception
    inc4a: Inception
    inc4b: Inception
    inc4c: Inception
    inc4d: Inception
    inc4e: Inception
    inc5a: Inception
    inc5b: Inception

    _prepare = staticmethod(prepare)

    def __init__(self, pretrained_model: str | None = 'auto') -> None:
        super().__init__()
        # With weights to load, skip the costly random sampling.
        initialW = (
            initializers.Zero() if pretrained_model else initializers.LeCunUniform(scale=1.0))
        with self.init_scope():
            self.conv1 = Convolution2D(3, 64, 7, stride=2, pad=3, initialW=initialW)
            self.conv2_reduce = Convolution2D(64, 64, 1, initialW=initialW)
            self.conv2 = Convolution2D(64, 192, 3, stride=1, pad=1, initialW=initialW)
            for name, in_channels, sizes in _INCEPTIONS:
                setattr(self, name, Inception(in_channels, *sizes))
            self.loss3_fc = Linear(1024, 1000, initialW=initialW)
            self.loss1_conv = Convolution2D(512, 128, 1, initialW=initialW)
            self.loss1_fc1 = Linear(2048, 1024, initialW=initialW)
            self.loss1_fc2 = Linear(1024, 1000, initialW=initialW)
            self.loss2_conv = Convolution2D(528, 128, 1, initialW=initialW)
            self.loss2_fc1 = Linear(2048, 1024, initialW=initialW)
            self.loss2_fc2 = Linear(1024, 1000, initialW=initialW)
        if pretrained_model:
            load_weights(self, pretrained_model, 'bvlc_googlenet.npz', _ORIGIN)

    @classmethod
    def _from_caffemodel(cls, caffemodel: Chain) -> Chain:
        """A new GoogLeNet holding the layers of the BVLC Caffe model."""
        from chainer.links.model.vision import _caffe

        model = cls(pretrained_model=None)
        _caffe.transfer_googlenet(caffemodel, model)
        return model

    @property
    def functions(self) -> OrderedDict[str, list[Callable[[Any], Any]]]:
        """The layers in order: name -> the callables computing it.

        ``loss1_fc2`` and ``loss2_fc2`` come last and start from the outputs of
        ``inception_4a`` and ``inception_4d``.
        """
        relu = functions.relu
        return OrderedDict([
            ('conv1', [self.conv1, relu]),
            ('pool1', [_max_pooling_2d, _local_response_normalization]),
            ('conv2_reduce', [self.conv2_reduce, relu]),
            ('conv2', [self.conv2, relu, _local_response_normalization]),
            ('pool2', [_max_pooling_2d]),
            ('inception_3a', [self.inc3a]),
            ('inception_3b', [self.inc3b]),
            ('pool3', [_max_pooling_2d]),
            ('inception_4a', [self.inc4a]),
            ('inception_4b', [self.inc4b]),
            ('inception_4c', [self.inc4c]),
            ('inception_4d', [self.inc4d]),
            ('inception_4e', [self.inc4e]),
            ('pool4', [_max_pooling_2d]),
            ('inception_5a', [self.inc5a]),
            ('inception_5b', [self.inc5b]),
            ('pool5', [_average_pooling_2d_k7]),
            ('loss3_fc', [_dropout, self.loss3_fc]),
            ('prob', [functions.softmax]),
            ('loss1_fc2', [_average_pooling_2d_k5, self.loss1_conv, relu, self.loss1_fc1,
                           relu, self.loss1_fc2]),
            ('loss2_fc2', [_average_pooling_2d_k5, self.loss2_conv, relu, self.loss2_fc1,
                           relu, self.loss2_fc2]),
        ])

    def _layer_inputs(self, key: str, h: Any, cache: dict[str, Any]) -> Any:
        if key == 'loss1_fc2':
            return cache['inception_4a']
        if key == 'loss2_fc2':
            return cache['inception_4d']
        return h
