"""Parameterized layers (``chainer.links``, usually imported as ``L``)."""

from chainer.links.connection.linear import Linear
from chainer.links.connection.parameter import Parameter
from chainer.links.model.classifier import Classifier

__all__ = ['Classifier', 'Linear', 'Parameter']

# -- part B: normalization, recurrent and vision model links ------------------------------
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer.links.normalization.batch_renormalization import BatchRenormalization
from chainer.links.normalization.decorrelated_batch_normalization import (
    DecorrelatedBatchNormalization,
)
from chainer.links.normalization.group_normalization import GroupNormalization
from chainer.links.normalization.layer_normalization import LayerNormalization

__all__ += [
    'BatchNormalization', 'BatchRenormalization', 'DecorrelatedBatchNormalization',
    'GroupNormalization', 'LayerNormalization',
]
