"""Backend modules: :mod:`chainer.backends.cuda` (CuPy), :mod:`chainer.backends.intel64`,
:mod:`chainer.backends.files` (atomic file writes) and :mod:`chainer.backends.numbers`
(integer arguments)."""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    # submodules resolve on first access (chainer.backend imports this package first);
    # _cpu and _chainerx are v7's private module paths of the CPU and ChainerX devices
    if name in ('cuda', 'intel64', 'files', 'numbers', '_cpu', '_chainerx'):
        return importlib.import_module(f'chainer.backends.{name}')
    raise AttributeError(f"module 'chainer.backends' has no attribute {name!r}")
