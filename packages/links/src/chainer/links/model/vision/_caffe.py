"""Conversion of the model zoo's original Caffe weights into the vision models' NPZ files."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chainer.link import Chain

# GoogLeNet's inception modules: our child name -> Caffe's layer name prefix
_INCEPTIONS = ['3a', '3b', '4a', '4b', '4c', '4d', '4e', '5a', '5b']
_INCEPTION_PARTS = [('conv1', '1x1'), ('proj3', '3x3_reduce'), ('conv3', '3x3'),
                    ('proj5', '5x5_reduce'), ('conv5', '5x5'), ('projp', 'pool_proj')]


def _copy(dst: Any, src: Any, bias: bool = True) -> None:
    """Copy a convolution's or linear layer's W (and b) from ``src`` into ``dst``."""
    dst.W.array[...] = src.W.array.reshape(dst.W.shape)
    if bias and dst.b is not None and getattr(src, 'b', None) is not None:
        dst.b.array[...] = src.b.array


def _copy_bn(dst: Any, src_bn: Any, src_scale: Any) -> None:
    """A BatchNorm + Scale pair of Caffe's into one BatchNormalization."""
    dst.avg_mean[...] = src_bn.avg_mean
    dst.avg_var[...] = src_bn.avg_var
    dst.gamma.array[...] = src_scale.W.array
    dst.beta.array[...] = src_scale.bias.b.array


def transfer_vgg(src: Any, dst: Any, blocks: Sequence[int]) -> None:
    """Copy VGG's conv{i}_{j} and fc6-fc8 from the Caffe model."""
    for i, n in enumerate(blocks, 1):
        for j in range(1, n + 1):
            name = f'conv{i}_{j}'
            _copy(getattr(dst, name), src[name])
    for name in ('fc6', 'fc7', 'fc8'):
        _copy(getattr(dst, name), src[name])


def _resnet_block_names(n_layers: int, counts: Sequence[int]) -> list[list[str]]:
    """The Caffe names of the bottlenecks of res2-res5 (the ResNet authors' naming).

    ResNet-50 letters them (``4a``-``4f``); ResNet-101/152 number res3 and res4's
    (``4a``, ``4b1``, ``4b2``, ...).
    """
    names = []
    for stage, count in zip(range(2, 6), counts):
        if n_layers == 50 or stage in (2, 5):
            names.append([f'{stage}{chr(ord("a") + i)}' for i in range(count)])
        else:
            names.append([f'{stage}a'] + [f'{stage}b{i}' for i in range(1, count)])
    return names


def transfer_resnet(src: Any, dst: Any, n_layers: int) -> None:
    """Copy ResNet's convolutions, batch normalizations (BatchNorm + Scale) and fc1000."""
    _copy(dst.conv1, src['conv1'])
    _copy_bn(dst.bn1, src['bn_conv1'], src['scale_conv1'])
    blocks = [getattr(dst, f'res{stage}') for stage in range(2, 6)]
    counts = [len(block._forward) for block in blocks]
    for block, names in zip(blocks, _resnet_block_names(n_layers, counts)):
        for i, name in enumerate(names):
            bottleneck = getattr(block, 'a' if i == 0 else f'b{i}')
            branches = ['2a', '2b', '2c'] + (['1'] if i == 0 else [])
            for k, branch in enumerate(branches, 1):
                _copy(getattr(bottleneck, f'conv{k}'), src[f'res{name}_branch{branch}'])
                _copy_bn(getattr(bottleneck, f'bn{k}'), src[f'bn{name}_branch{branch}'],
                         src[f'scale{name}_branch{branch}'])
    _copy(dst.fc6, src['fc1000'])


def transfer_googlenet(src: Any, dst: Any) -> None:
    """Copy GoogLeNet's layers from the BVLC Caffe model (layer names with '/')."""
    _copy(dst.conv1, src['conv1/7x7_s2'])
    _copy(dst.conv2_reduce, src['conv2/3x3_reduce'])
    _copy(dst.conv2, src['conv2/3x3'])
    for name in _INCEPTIONS:
        inception = getattr(dst, f'inc{name}')
        for ours, theirs in _INCEPTION_PARTS:
            _copy(getattr(inception, ours), src[f'inception_{name}/{theirs}'])
    for loss in ('loss1', 'loss2'):
        _copy(getattr(dst, f'{loss}_conv'), src[f'{loss}/conv'])
        _copy(getattr(dst, f'{loss}_fc1'), src[f'{loss}/fc'])
        _copy(getattr(dst, f'{loss}_fc2'), src[f'{loss}/classifier'])
    _copy(dst.loss3_fc, src['loss3/classifier'])


def load_caffemodel(path_caffemodel: str) -> Chain:
    """Read a ``.caffemodel`` with :class:`chainer.links.caffe.CaffeFunction`."""
    from chainer.links.caffe import CaffeFunction

    return CaffeFunction(path_caffemodel)


def save_npz(path_npz: str, link: Chain) -> None:
    """Save the converted model (needs chainer-serializers, the ``pretrained`` extra)."""
    try:
        from chainer.serializers import save_npz as _save  # layout: optional[pretrained]
    except ImportError as exc:
        raise ImportError('converting a caffemodel to NPZ needs chainer-serializers '
                          '(pip install "chainer-links[pretrained]")') from exc
    _save(path_npz, link)
