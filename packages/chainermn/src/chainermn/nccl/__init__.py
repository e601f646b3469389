"""NCCL for the GPU communicators, from CuPy (``cupy.cuda.nccl``), loaded on first use.

Every name of ``cupy.cuda.nccl`` (``NcclCommunicator``, ``get_unique_id``, ``NCCL_SUM``,
``NCCL_FLOAT32``, ...) reads as an attribute of this module when NCCL is available.
Without CuPy, NCCL or a CUDA device, :func:`require` raises a RuntimeError that says so.
"""

from __future__ import annotations

import functools
from types import ModuleType
from typing import Any


@functools.cache
def _load() -> tuple[ModuleType | None, str]:
    try:
        import cupy  # layout: optional
    except Exception as exc:  # CuPy missing, or broken (no CUDA driver)
        return None, f'CuPy cannot be imported ({exc})'
    try:
        from cupy.cuda import nccl  # layout: optional
    except Exception as exc:
        return None, f'CuPy {cupy.__version__} has no NCCL support ({exc})'
    if not getattr(nccl, 'available', True):
        return None, f'CuPy {cupy.__version__} was built without NCCL'
    try:
        count = cupy.cuda.runtime.getDeviceCount()
    except Exception as exc:
        return None, f'no CUDA device can be used ({exc})'
    if count < 1:
        return None, 'no CUDA device is visible'
    return nccl, ''


def available() -> bool:
    """Whether NCCL can be used: CuPy with NCCL and at least one CUDA device."""
    return _load()[0] is not None


def require(user: str) -> ModuleType:
    """Return ``cupy.cuda.nccl``.

    Args:
        user: what needs NCCL, for the error message (e.g. ``'the pure_nccl communicator'``).

    Raises:
        RuntimeError: when NCCL cannot be used, saying why.
    """
    module, why = _load()
    if module is None:
        raise RuntimeError(
            f'{user} needs NCCL through CuPy on a CUDA device, but {why}. Install the CuPy '
            "of your CUDA version (e.g. pip install cupy-cuda12x), or use "
            "chainermn.create_communicator('naive') (or 'flat') on CPU.")
    return module


def get_build_version() -> int:
    """The NCCL version CuPy was built with (e.g. 21803), or 0 without NCCL."""
    module = _load()[0]
    return 0 if module is None else int(module.get_build_version())


def get_version() -> int:
    """The version of the NCCL library loaded at run time, or 0 without NCCL."""
    module = _load()[0]
    return 0 if module is None else int(module.get_version())


# the names cupy.cuda.nccl provides are NCCL_* constants, Nccl* classes, get_* and
# group* functions: any other name is not NCCL's, and a plain AttributeError (so that
# hasattr() and tools probing modules, such as pytest's doctest collector, work without CUDA)
_NCCL_PREFIXES = ('NCCL', 'Nccl', 'nccl', 'get_', 'group')


def __getattr__(name: str) -> Any:
    if not name.startswith(_NCCL_PREFIXES):
        raise AttributeError(f'module chainermn.nccl has no attribute {name!r}')
    return getattr(require(f'chainermn.nccl.{name}'), name)
