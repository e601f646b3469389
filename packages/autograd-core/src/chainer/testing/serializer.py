"""Round trips of serializable objects through a file (needs chainer-serializers)."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from types import ModuleType
from typing import TYPE_CHECKING, Any

from chainer.testing._availability import missing_distribution

if TYPE_CHECKING:
    from chainer.serializer import Serializable

__all__ = ['save_and_load', 'save_and_load_hdf5', 'save_and_load_npz']


def save_and_load(src: Serializable, dst: Serializable, filename: str,
                  saver: Callable[[str, Any], Any], loader: Callable[[str, Any], Any]) -> None:
    """Save ``src`` to ``filename`` with ``saver``, then load it into ``dst`` with ``loader``."""
    saver(filename, src)
    loader(filename, dst)


def _round_trip(src: Serializable, dst: Serializable, suffix: str, save: Any, load: Any) -> None:
    folder = tempfile.mkdtemp()
    try:
        save_and_load(src, dst, os.path.join(folder, 'saved' + suffix), save, load)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _serializers(helper: str) -> ModuleType:
    """``chainer.serializers``, imported when a helper needs it (chainer-serializers is a
    higher distribution: the ``testing`` extra)."""
    try:
        from chainer import serializers  # layout: optional[testing]
    except ImportError as error:
        raise missing_distribution(helper, 'chainer-serializers', error) from error
    return serializers


def save_and_load_npz(src: Serializable, dst: Serializable) -> None:
    """Round-trip ``src`` into ``dst`` through an NPZ file (needs chainer-serializers)."""
    serializers = _serializers('chainer.testing.save_and_load_npz')
    _round_trip(src, dst, '.npz', serializers.save_npz, serializers.load_npz)


def save_and_load_hdf5(src: Serializable, dst: Serializable) -> None:
    """Round-trip ``src`` into ``dst`` through an HDF5 file (needs chainer-serializers and
    h5py)."""
    serializers = _serializers('chainer.testing.save_and_load_hdf5')
    _round_trip(src, dst, '.h5', serializers.save_hdf5, serializers.load_hdf5)
