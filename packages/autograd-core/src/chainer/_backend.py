"""Chainer v7's ``chainer._backend``: the device base class and its small helpers.

v7 defined :class:`Device` here (``chainer.get_device`` is annotated as returning
``chainer._backend.Device``); this project defines it in :mod:`chainer.backend`, and
this module gives it under the v7 path.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.backend import Device
from chainer.backends.cuda import DummyDevice, DummyDeviceType

__all__ = ['Device']

# The context manager of a device that needs none (the CPU): entering it does nothing.
_DummyContext = DummyDeviceType
_dummy_context = DummyDevice


def _convert_arrays(array: Any, func: Callable[[Any], Any]) -> Any:
    """Apply ``func`` to ``array``, or to each item of a list or tuple (kept as such)."""
    if isinstance(array, (list, tuple)):
        return type(array)([_convert_arrays(a, func) for a in array])
    return func(array)
