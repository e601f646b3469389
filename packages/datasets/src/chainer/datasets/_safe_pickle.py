"""A restricted unpickler for the pickled dicts of arrays that some datasets ship in.

The CIFAR archives hold Python pickles. A pickle may name any Python callable, so
unpickling a downloaded file could run code chosen by whoever controls the download.
:func:`load` only lets a pickle build the builtin containers and scalars and NumPy arrays
and dtypes; any other global it names is refused with :class:`pickle.UnpicklingError`.
"""

from __future__ import annotations

import pickle
from typing import IO, Any, Literal

import numpy

_reduced = numpy.empty(0).__reduce__()  # (numpy's _reconstruct, its arguments, state)
assert isinstance(_reduced, tuple)
_reconstruct = _reduced[0]  # in numpy.core or numpy._core


def _frombuffer(buffer: Any, dtype: numpy.dtype, shape: tuple[int, ...],
                order: Literal['C', 'F', 'A']) -> numpy.ndarray:
    """What ``numpy.core.numeric._frombuffer`` does for protocol-5 pickles of arrays."""
    array = numpy.frombuffer(buffer, dtype=dtype)
    return array.reshape(shape, order=order)


def _scalar(dtype: numpy.dtype, data: bytes | str | None = None) -> Any:
    """What ``numpy.core.multiarray.scalar`` does: a NumPy scalar from its raw bytes."""
    if data is None:
        return numpy.zeros((), dtype)[()]
    if isinstance(data, str):  # a Python 2 pickle read with encoding='latin1'
        data = data.encode('latin1')
    return numpy.frombuffer(data, dtype, 1)[0]


def _encode(text: str, encoding: str = 'utf-8') -> bytes:
    """What ``_codecs.encode`` does for Python 3's protocol 2 pickles of bytes."""
    if not isinstance(text, str) or encoding not in ('latin1', 'latin-1', 'utf-8'):
        raise pickle.UnpicklingError('refusing to load _codecs.encode with these arguments')
    return text.encode(encoding)


_ALLOWED: dict[tuple[str, str], Any] = {
    ('numpy', 'ndarray'): numpy.ndarray,
    ('numpy', 'dtype'): numpy.dtype,
    ('_codecs', 'encode'): _encode,
}
for _module in ('numpy.core', 'numpy._core'):
    _ALLOWED[(_module + '.multiarray', '_reconstruct')] = _reconstruct
    _ALLOWED[(_module + '.multiarray', 'scalar')] = _scalar
    _ALLOWED[(_module + '.numeric', '_frombuffer')] = _frombuffer


class _RestrictedUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        target = _ALLOWED.get((module, name))
        if target is None:
            raise pickle.UnpicklingError(
                f'refusing to load {module}.{name}: this file may only contain builtin '
                f'containers and NumPy arrays')
        return target


def load(file: IO[bytes], encoding: str = 'latin1') -> Any:
    """Unpickle ``file``, allowing only builtin values and NumPy arrays and dtypes.

    Args:
        file: a binary file.
        encoding: how to decode Python 2 byte strings (``'latin1'`` keeps NumPy data).

    Raises:
        pickle.UnpicklingError: the pickle names anything else.
    """
    return _RestrictedUnpickler(file, encoding=encoding).load()
