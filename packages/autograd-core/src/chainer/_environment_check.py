"""Checks of the environment that Chainer v7 ran at import (``chainer._environment_check``).

:func:`check` warns about a setup known to misbehave: an unsupported Python or NumPy,
NumPy on macOS linked to the old Accelerate framework, or an installed CuPy of a series
this project does not support. It only reads versions and build metadata; it imports
no optional package.
"""

from __future__ import annotations

import importlib.metadata
import sys
import warnings

import numpy

__all__ = ['check']

_MIN_PYTHON = (3, 10)
_MIN_NUMPY = (1, 26)
_CUPY_SERIES = (13, 14)


def _version_tuple(version: str) -> tuple[int, ...]:
    parts = []
    for piece in version.split('.')[:2]:
        digits = ''.join(c for c in piece if c.isdigit()) or '0'
        parts.append(int(digits))
    return tuple(parts)


def _check_python_350() -> None:
    """Warn on a Python older than this project supports (v7 warned about Python 3.5.0)."""
    if sys.version_info[:2] < _MIN_PYTHON:
        warnings.warn(f'Python {sys.version.split()[0]} is not supported: use Python '
                      f'{_MIN_PYTHON[0]}.{_MIN_PYTHON[1]} or later', stacklevel=2)


def _check_osx_numpy_backend() -> None:
    """Warn when NumPy on macOS uses the pre-2.0 Accelerate BLAS, which gives wrong
    results with threads."""
    if sys.platform != 'darwin' or _version_tuple(numpy.__version__) >= (2, 0):
        return
    config = getattr(getattr(numpy, '__config__', None), 'CONFIG', {}) or {}
    blas = config.get('Build Dependencies', {}).get('blas', {}).get('name', '')
    if 'accelerate' in str(blas).lower():
        warnings.warn('NumPy on macOS is linked to the old Accelerate framework, which can '
                      'give wrong results with threads: install NumPy 2 or a build with '
                      'OpenBLAS', stacklevel=2)


def _check_optional_dependencies() -> None:
    """Warn about NumPy older than supported and about a CuPy of an unsupported series."""
    if _version_tuple(numpy.__version__) < _MIN_NUMPY:
        warnings.warn(f'NumPy {numpy.__version__} is not supported: use NumPy '
                      f'{_MIN_NUMPY[0]}.{_MIN_NUMPY[1]} or later', stacklevel=2)
    for dist in ('cupy', 'cupy-cuda12x', 'cupy-cuda13x'):
        try:
            version = importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
        if _version_tuple(version)[0] not in _CUPY_SERIES:
            warnings.warn(f'{dist} {version} is not supported: install CuPy 13 or 14 '
                          '(chainer[cuda12] or chainer[cuda13])', stacklevel=2)


def check() -> None:
    """Run every check; each problem found is a warning, nothing raises."""
    _check_python_350()
    _check_osx_numpy_backend()
    _check_optional_dependencies()
