"""Marks for tests that need a GPU, several GPUs, ChainerX or a long time (pytest marks).

CPU runs deselect them with ``-m "not gpu"`` / ``-m "not slow"``; ``nox -s gpu``
selects ``-m gpu``. A GPU-marked test run where CUDA is unavailable is skipped.
Without pytest the marks fall back to ``unittest`` skips. pytest is imported on
first use of a mark, so that ``import chainer`` does not load it.
"""

from __future__ import annotations

import unittest
from collections.abc import Callable
from typing import Any

from chainer.backends import cuda
from chainer.testing._availability import availability

_NO_CUDA = ('CUDA is not available: install CuPy (chainer[cuda12] or chainer[cuda13]) and run '
            'on a machine with a CUDA device')


def get_error_message(message: str) -> str:
    """The text of a skip reason for a missing requirement."""
    return f'requires {message}'


def _device_count() -> int:
    if not cuda.available:
        return 0
    try:
        return int(cuda.cupy.cuda.runtime.getDeviceCount())
    except Exception:
        return 0


def _import_pytest() -> None:
    import pytest  # noqa: F401


get_error, is_available, check_available = availability(
    __name__, _import_pytest, 'pytest (which the marks need)')


def _combine(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(obj: Any) -> Any:
        for d in reversed(decorators):
            obj = d(obj)
        return obj
    return apply


def _pytest() -> Any:
    try:
        import pytest
    except ImportError:  # marks degrade to unittest skips
        return None
    return pytest


def _skip_unless(condition: bool, reason: str) -> Callable[[Any], Any]:
    pytest = _pytest()
    if pytest is not None:
        return pytest.mark.skipif(not condition, reason=reason)
    return unittest.skipUnless(condition, reason)


def _mark(name: str, *args: Any) -> Callable[[Any], Any]:
    pytest = _pytest()
    if pytest is None:
        return lambda obj: obj
    mark = getattr(pytest.mark, name)
    return mark(*args) if args else mark


def multi_gpu(gpu_num: int) -> Callable[[Any], Any]:
    """Mark a test needing ``gpu_num`` CUDA devices (skipped when fewer are present)."""
    return _combine(_mark('gpu', gpu_num),
                    _skip_unless(_device_count() >= gpu_num,
                                 get_error_message(f'{gpu_num} CUDA devices')))


def _build(name: str) -> Callable[[Any], Any]:
    if name == 'gpu':
        # Marks a test that needs a CUDA device (skipped where CUDA is unavailable).
        return _combine(_mark('gpu'), _skip_unless(cuda.available, _NO_CUDA))
    if name == 'slow':
        # Marks a slow test (deselect with -m "not slow").
        return _mark('slow')
    if name == 'cudnn':
        # Marks a test needing cuDNN (CuPy 14 has none: such tests are skipped there).
        return _combine(_mark('gpu'), _skip_unless(bool(cuda.cudnn_enabled),
                                                  get_error_message('cuDNN through CuPy')))
    if name == 'ideep':
        return _skip_unless(False, 'iDeep is not provided by this project')
    # Marks a test of ChainerX (skipped without the chainerx distribution).
    return _combine(_mark('chainerx'), _skip_unless(
        _chainerx_available(), 'ChainerX is not available: install the chainerx distribution'))


def _chainerx_available() -> bool:
    try:
        import chainerx  # layout: optional[chainerx]
    except ImportError:
        return False
    return bool(chainerx.is_available())


_LAZY = ('gpu', 'slow', 'cudnn', 'ideep', 'chainerx')


def __getattr__(name: str) -> Any:
    # gpu, slow, cudnn, ideep, chainerx: built (importing pytest) on first access.
    if name in _LAZY:
        value = _build(name)
        globals()[name] = value
        return value
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY))
