"""Collection types under the names Chainer v7 code reaches (``chainer.utils.collections_abc``)."""

from collections import OrderedDict
from collections import abc as collections_abc

__all__ = ['OrderedDict', 'collections_abc']
