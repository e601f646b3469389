"""How updaters and the Evaluator call a batch converter (as Chainer v7 does)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer.dataset import convert

if TYPE_CHECKING:
    from chainer.backend import Device


def call_converter(converter: Callable[..., Any], batch: Sequence[Any],
                   device: Device | None) -> Any:
    """Return ``converter(batch, device)`` with the device in the form it expects.

    A :class:`chainer.dataset.Converter` (e.g. made with ``@chainer.dataset.converter()``)
    receives the :class:`chainer.backend.Device` or None. Any other callable is an old-style
    converter and receives None, ``-1`` for the CPU or the integer id of a CUDA device.

    Raises:
        RuntimeError: for an old-style converter and a device that is neither the CPU
            nor a CUDA device.
    """
    if isinstance(converter, convert.Converter):
        return converter(batch, device)
    if device is None:
        return converter(batch, None)
    if device.xp is numpy:
        return converter(batch, -1)
    cuda_device = getattr(device, 'device', None)
    if cuda_device is not None and isinstance(getattr(cuda_device, 'id', None), int):
        return converter(batch, cuda_device.id)
    raise RuntimeError(
        f'the converter {converter!r} takes an integer device id (old style) and cannot '
        f'send to {device}; make it a chainer.dataset.Converter, e.g. with the '
        '@chainer.dataset.converter() decorator')


def call_with_arrays(func: Callable[..., Any], in_arrays: Any, *args: Any) -> Any:
    """Call ``func(*args, ...)`` with a converter's output as the last arguments.

    A tuple is passed as positional arguments, a dict as keyword arguments, anything
    else (e.g. one array) as one argument.
    """
    if isinstance(in_arrays, tuple):
        return func(*args, *in_arrays)
    if isinstance(in_arrays, dict):
        return func(*args, **in_arrays)
    return func(*args, in_arrays)
