"""Compiled CPU kernels through Numba, where NumPy's passes are the cost.

Numba is optional (the ``jit`` extra: ``pip install chainer-autograd-core[jit]``). A
kernel is a plain Python function written with loops over NumPy arrays; :class:`Kernel`
compiles it on its first call (``numba.njit`` with ``nogil=True`` so that the project's
worker threads run kernels side by side, and ``cache=True``: the machine code is cached
on disk next to the module, or in Numba's user-wide cache folder when that is not
writable, so a second process does not compile again).

Every kernel has a NumPy path in its caller, which stays the reference: callers take the
compiled path only when :func:`enabled`, which reads ``chainer.config.use_numba``:

- ``'auto'`` (default, or the ``CHAINER_USE_NUMBA`` environment variable): compiled
  kernels where Numba is importable;
- ``'never'``: the NumPy path everywhere;
- ``'always'``: compiled kernels, and an error when Numba is missing.

No fast-math: each kernel keeps the NumPy path's order of operations and its dtype, so
both give the same numbers bit for bit unless a kernel's docstring says otherwise.
Division and square roots follow IEEE as NumPy's do (``error_model='numpy'``: a division
by zero gives an infinity or NaN, not an exception), which also lets loops vectorize.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import numpy

import chainer

#: the dtypes the kernels are compiled for (float16 runs its arithmetic in float32, so
#: the NumPy path serves it)
FLOAT_DTYPES = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))
#: the environment variable that sets ``chainer.config.use_numba``
ENV_USE_NUMBA = 'CHAINER_USE_NUMBA'
MODES = ('auto', 'never', 'always')

_numba: Any = None
_numba_error: BaseException | None = None
_import_lock = threading.Lock()


def _load_numba() -> Any:
    """The numba module, or None when it cannot be imported (imported once)."""
    global _numba, _numba_error
    if _numba is None and _numba_error is None:
        with _import_lock:
            if _numba is None and _numba_error is None:
                try:
                    import numba  # layout: optional
                except Exception as e:  # ImportError, or a Numba too old for this NumPy
                    _numba_error = e
                else:
                    _numba = numba
    return _numba


def available() -> bool:
    """Whether Numba can be imported here."""
    return _load_numba() is not None


def enabled() -> bool:
    """Whether compiled kernels run now (``chainer.config.use_numba``; see the module).

    Raises:
        ValueError: for a ``use_numba`` other than ``'auto'``, ``'never'``, ``'always'``.
        RuntimeError: for ``'always'`` when Numba cannot be imported.
    """
    mode = chainer.config.use_numba
    if mode == 'never':
        return False
    if mode not in MODES:
        raise ValueError(f"chainer.config.use_numba must be one of {MODES}, not {mode!r}")
    if _load_numba() is None:
        if mode == 'always':
            raise RuntimeError(
                "chainer.config.use_numba is 'always' but Numba cannot be imported "
                f"({_numba_error}); install it with pip install chainer-autograd-core[jit]")
        return False
    return True


class Kernel:
    """A Python function compiled by Numba on its first call.

    Args:
        function: the kernel (module-level, so that Numba can cache it on disk).
    """

    def __init__(self, function: Callable[..., Any]) -> None:
        self.function = function
        self.__doc__ = function.__doc__
        self.__name__ = function.__name__
        self._compiled: Callable[..., Any] | None = None
        self._lock = threading.Lock()

    def __call__(self, *args: Any) -> Any:
        compiled = self._compiled
        if compiled is None:
            compiled = self.compile()
        return compiled(*args)

    def compile(self) -> Callable[..., Any]:
        """The compiled function (compiled for each new argument type on first use)."""
        with self._lock:
            if self._compiled is None:
                numba = _load_numba()
                if numba is None:
                    raise RuntimeError(f'{self.__name__} needs Numba: pip install '
                                       f'chainer-autograd-core[jit] ({_numba_error})')
                self._compiled = numba.njit(cache=True, nogil=True, error_model='numpy')(
                    self.function)
            return self._compiled


def kernel(function: Callable[..., Any]) -> Kernel:
    """Decorator: ``function`` as a :class:`Kernel`."""
    return Kernel(function)
