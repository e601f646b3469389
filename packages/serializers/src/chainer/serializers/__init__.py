"""Serializers (``chainer.serializers``): save and load links, optimizers, trainers.

NPZ (NumPy archives) is always available; HDF5 needs h5py
(``pip install chainer-serializers[hdf5]``). Loading never runs code from a file
(pickled objects are refused) and is all or nothing (on error the target is left as it
was); errors name the file and the entry.
"""

from chainer.serializers._common import InvalidFileError
from chainer.serializers.hdf5 import HDF5Deserializer, HDF5Serializer, load_hdf5, save_hdf5
from chainer.serializers.npz import DictionarySerializer, NpzDeserializer, load_npz, save_npz

__all__ = [
    'DictionarySerializer', 'HDF5Deserializer', 'HDF5Serializer', 'InvalidFileError',
    'NpzDeserializer', 'load_hdf5', 'load_npz', 'save_hdf5', 'save_npz',
]
