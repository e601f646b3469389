"""Noise functions (dropout and friends)."""

from chainer.functions.noise.dropout import dropout
from chainer.functions.noise.gaussian import gaussian
from chainer.functions.noise.gumbel_softmax import gumbel_softmax
from chainer.functions.noise.simplified_dropconnect import simplified_dropconnect
from chainer.functions.noise.zoneout import zoneout

__all__ = ['dropout', 'gaussian', 'gumbel_softmax', 'simplified_dropconnect', 'zoneout']
