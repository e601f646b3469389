"""Conditions for skipping doctests (``.. doctest:: :skipif: ...``), as in Chainer v7.

Each function returns True when the doctest should be skipped. On Read the Docs
(``READTHEDOCS=True``) nothing is skipped, so that examples always show in the docs.
"""

from __future__ import annotations

import os

from chainer.testing import attr
from chainer.testing.helper import _satisfied

__all__ = ['skipif', 'skipif_not_enough_cuda_devices', 'skipif_requires_satisfied']


def skipif(condition: bool) -> bool:
    """``condition``, except on Read the Docs where doctests always run."""
    if os.environ.get('READTHEDOCS') == 'True':
        return False
    return bool(condition)


def skipif_requires_satisfied(*requirements: str) -> bool:
    """Skip unless every pip-style requirement (``'scipy>=1.11'``) is installed."""
    return skipif(not all(_satisfied(r) for r in requirements))


def skipif_not_enough_cuda_devices(device_count: int) -> bool:
    """Skip when fewer than ``device_count`` CUDA devices are usable.

    ``CHAINER_TEST_GPU_LIMIT`` (when set) caps the number of devices counted.
    """
    available = attr._device_count()
    limit = os.environ.get('CHAINER_TEST_GPU_LIMIT')
    if limit is not None and int(limit) >= 0:
        available = min(available, int(limit))
    return skipif(available < device_count)
