"""Parameterized layers (``chainer.links``, usually imported as ``L``)."""

from chainer.links.connection.linear import Linear
from chainer.links.connection.parameter import Parameter
from chainer.links.model.classifier import Classifier

__all__ = ['Classifier', 'Linear', 'Parameter']
