"""A minimal in-memory serializer pair following the chainer.Serializer protocol."""

import numpy


class DictWriter:
    """Records ``serializer(key, value)`` calls into a flat dict."""

    def __init__(self, store=None, path=''):
        self.store = {} if store is None else store
        self.path = path

    def __getitem__(self, key):
        return DictWriter(self.store, self.path + key + '/')

    def __call__(self, key, value):
        self.store[self.path + key] = numpy.array(value, copy=True)
        return value


class DictReader:
    """Reads values back like chainer.serializers.NpzDeserializer does."""

    def __init__(self, store, path=''):
        self.store = store
        self.path = path

    def __getitem__(self, key):
        return DictReader(self.store, self.path + key + '/')

    def __call__(self, key, value):
        stored = self.store[self.path + key]  # KeyError when missing, as strict loading
        if value is None:
            return stored
        if isinstance(value, numpy.ndarray):
            numpy.copyto(value, stored)
            return value
        return type(value)(stored)
