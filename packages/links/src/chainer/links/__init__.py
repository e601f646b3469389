"""Parameterized layers (``chainer.links``, usually imported as ``L``)."""

from chainer.links.connection.linear import Linear
from chainer.links.model.classifier import Classifier

__all__ = ['Classifier', 'Linear']
