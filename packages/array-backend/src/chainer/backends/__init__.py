"""Backend modules: :mod:`chainer.backends.cuda` (CuPy) and :mod:`chainer.backends.intel64`."""

from __future__ import annotations

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    # submodules resolve on first access (chainer.backend imports this package first)
    if name in ('cuda', 'intel64'):
        return importlib.import_module(f'chainer.backends.{name}')
    raise AttributeError(f"module 'chainer.backends' has no attribute {name!r}")
