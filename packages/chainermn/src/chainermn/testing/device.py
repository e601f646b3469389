"""The device a test runs on."""

from __future__ import annotations

from typing import Any

import chainer


def get_device(device_id: int | None = None, use_chainerx: bool = False) -> Any:
    """The :class:`chainer.backend.Device` of a test.

    Args:
        device_id: a CUDA device id, or None for the CPU.
        use_chainerx: the ChainerX device instead (``native:0`` / ``cuda:N``), which
            this project does not provide: :func:`chainer.get_device` raises for it.
    """
    if use_chainerx:
        name = 'native:0' if device_id is None else f'cuda:{device_id}'
    else:
        name = '@numpy' if device_id is None else f'@cupy:{device_id}'
    return chainer.get_device(name)
