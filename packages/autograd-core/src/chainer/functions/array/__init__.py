"""Array manipulation functions."""

from chainer.functions.array.as_strided import as_strided
from chainer.functions.array.broadcast import broadcast, broadcast_to
from chainer.functions.array.cast import cast
from chainer.functions.array.concat import concat
from chainer.functions.array.copy import copy
from chainer.functions.array.depth2space import depth2space
from chainer.functions.array.diagonal import diagonal
from chainer.functions.array.dstack import dstack
from chainer.functions.array.expand_dims import expand_dims
from chainer.functions.array.flatten import flatten
from chainer.functions.array.flip import flip, fliplr, flipud
from chainer.functions.array.get_item import get_item
from chainer.functions.array.hstack import hstack
from chainer.functions.array.im2col import im2col
from chainer.functions.array.moveaxis import moveaxis
from chainer.functions.array.pad import pad
from chainer.functions.array.pad_sequence import pad_sequence
from chainer.functions.array.permutate import permutate
from chainer.functions.array.repeat import repeat
from chainer.functions.array.reshape import reshape
from chainer.functions.array.resize_images import resize_images
from chainer.functions.array.rollaxis import rollaxis
from chainer.functions.array.scatter_add import scatter_add
from chainer.functions.array.select_item import select_item
from chainer.functions.array.separate import separate
from chainer.functions.array.space2depth import space2depth
from chainer.functions.array.spatial_transformer_grid import spatial_transformer_grid
from chainer.functions.array.spatial_transformer_sampler import spatial_transformer_sampler
from chainer.functions.array.split_axis import split_axis
from chainer.functions.array.squeeze import squeeze
from chainer.functions.array.stack import stack
from chainer.functions.array.swapaxes import swapaxes
from chainer.functions.array.tile import tile
from chainer.functions.array.transpose import transpose
from chainer.functions.array.transpose_sequence import transpose_sequence
from chainer.functions.array.vstack import vstack
from chainer.functions.array.where import where

__all__ = [
    'as_strided', 'broadcast', 'broadcast_to', 'cast', 'concat', 'copy', 'depth2space',
    'diagonal', 'dstack', 'expand_dims', 'flatten', 'flip', 'fliplr', 'flipud', 'get_item',
    'hstack', 'im2col', 'moveaxis', 'pad', 'pad_sequence', 'permutate', 'repeat', 'reshape',
    'resize_images', 'rollaxis', 'scatter_add', 'select_item', 'separate', 'space2depth',
    'spatial_transformer_grid', 'spatial_transformer_sampler', 'split_axis', 'squeeze',
    'stack', 'swapaxes', 'tile', 'transpose', 'transpose_sequence', 'vstack', 'where',
]
