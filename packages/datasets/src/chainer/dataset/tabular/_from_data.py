"""``from_data()``: a tabular dataset from arrays, lists and functions of the index."""

from __future__ import annotations

import itertools
from collections.abc import Callable
from typing import Any

import numpy

from chainer import backend
from chainer.dataset.tabular import _asmode
from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset

_counter = itertools.count()


def _unique_key() -> str:
    return f'_{next(_counter)}'


def _is_array(data: Any) -> bool:
    return isinstance(data, numpy.ndarray) or backend.get_array_module(data) is not numpy


class _Column(TabularDataset):
    """One column: an array (read with fancy indexing) or a list."""

    def __init__(self, key: str, data: Any) -> None:
        self._key = key
        self._data = data
        self._array = _is_array(data)

    def __len__(self) -> int:
        return len(self._data)

    @property
    def keys(self) -> tuple[str, ...]:
        return (self._key,)

    @property
    def mode(self) -> None:
        return None

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        if key_indices is not None and len(key_indices) == 0:
            return ()
        n = len(key_indices) if key_indices is not None else 1
        if indices is None:
            column = self._data
        elif isinstance(indices, slice) or self._array:
            column = self._data[indices]
        else:
            column = [self._data[i] for i in indices]
        return (column,) * n


class _Function(TabularDataset):
    """Columns computed by ``function(index)`` for every row."""

    def __init__(self, keys: tuple[str, ...], function: Callable[[int], Any], size: int,
                 single: bool) -> None:
        self._keys = keys
        self._function = function
        self._size = size
        self._single = single
        self._mode: Any = None

    def __len__(self) -> int:
        return self._size

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> type | None:
        if self._single:
            return None
        if self._mode is None:
            self._mode = dict if isinstance(self._function(0), dict) else tuple
        return self._mode

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        if indices is None:
            rows = range(self._size)
        elif isinstance(indices, slice):
            rows = range(*indices.indices(self._size))
        else:
            rows = indices
        wanted = range(len(self._keys)) if key_indices is None else key_indices
        columns: list[list[Any]] = [[] for _ in wanted]
        for i in rows:
            value = self._function(i)
            if self._single:
                values: Any = (value,)
            elif isinstance(value, dict):
                values = tuple(value[k] for k in self._keys)
            else:
                values = tuple(value)
            for column, k in zip(columns, wanted, strict=True):
                column.append(values[k])
        return tuple(columns)


def _is_keyed(item: Any) -> bool:
    """Whether ``item`` is ``(key, data)`` or ``((key, ...), function)``."""
    if not isinstance(item, tuple) or len(item) != 2:
        return False
    key, data = item
    if isinstance(key, str):
        return True
    return isinstance(key, tuple) and len(key) > 0 \
        and all(isinstance(k, str) for k in key) and callable(data)


def _size_of(data: Any) -> int | None:
    return None if callable(data) else len(data)


def _column(key: Any, data: Any, size: int | None) -> TabularDataset:
    if callable(data):
        if key is None:
            raise ValueError('from_data: a function needs a key, as (key, function)')
        if size is None:
            raise ValueError('from_data: a function needs the number of rows: pass size=')
        if isinstance(key, str):
            return _Function((key,), data, size, single=True)
        return _Function(tuple(key), data, size, single=False)
    if key is None:
        key = _unique_key()
    return _Column(key, data)


def from_data(data: Any, *, size: int | None = None) -> TabularDataset:
    """Make a :class:`~chainer.dataset.TabularDataset` from arrays, lists and functions.

    ``data`` is one column or a tuple or a dict of columns. A column is an array, a list,
    ``(key, array_or_list)``, ``(key, function)`` or ``((key, ...), function)``, where
    ``function(i)`` returns the value (or a tuple or dict of values) of row ``i``.
    Columns without a key get a unique generated one.

    - one column: mode ``None``;
    - a tuple of columns: mode ``tuple``;
    - a dict ``{key: array_or_list_or_function, (key, ...): function}``: mode ``dict``.

    Args:
        data: the columns.
        size: the number of rows; needed when every column is a function.

    Returns:
        The dataset. Array columns are read with array indexing (the result is an array),
        lists and functions give lists.

    Raises:
        ValueError: a function without a key, no way to know the number of rows, or
            columns of different lengths.
    """
    if isinstance(data, dict):
        items = [(key, value) for key, value in data.items()]
        mode: type | None = dict
    elif isinstance(data, tuple) and not _is_keyed(data):
        items = [item if _is_keyed(item) else (None, item) for item in data]
        mode = tuple
    else:
        items = [data if _is_keyed(data) else (None, data)]
        mode = None
    sizes = {s for _, value in items if (s := _size_of(value)) is not None}
    if size is not None:
        sizes.add(size)
    if len(sizes) > 1:
        raise ValueError(f'from_data: the columns have different lengths: {sorted(sizes)}')
    common = sizes.pop() if sizes else None
    columns = [_column(key, value, common) for key, value in items]
    dataset = columns[0] if len(columns) == 1 else columns[0].join(*columns[1:])
    if mode is tuple:
        return _asmode.AsTuple(dataset)
    if mode is dict:
        return _asmode.AsDict(dataset)
    return dataset


__all__ = ['from_data']
