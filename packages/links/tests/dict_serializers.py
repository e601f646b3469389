"""Minimal in-memory serializers for testing ``Link.serialize`` without chainer-serializers."""

import numpy

from chainer.serializer import Deserializer, Serializer


class DictSaver(Serializer):
    """A minimal serializer storing values in a flat dict."""

    def __init__(self, target, path=''):
        self.target, self.path = target, path

    def __getitem__(self, key):
        return DictSaver(self.target, self.path + key + '/')

    def __call__(self, key, value):
        self.target[self.path + key] = numpy.array(value, copy=True)
        return value


class DictLoader(Deserializer):
    """A minimal deserializer reading the values of :class:`DictSaver`."""

    def __init__(self, source, path=''):
        self.source, self.path = source, path

    def __getitem__(self, key):
        return DictLoader(self.source, self.path + key + '/')

    def __call__(self, key, value):
        stored = self.source[self.path + key]
        if value is None:
            return stored
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return type(value)(stored)
