"""``dataset.slice[rows, keys]``: a view on some rows and columns of a tabular dataset."""

from __future__ import annotations

import operator
from typing import Any

import numpy

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset

Indices = slice | list[int] | None


def _is_bool(value: Any) -> bool:
    return isinstance(value, (bool, numpy.bool_))


def normalize_indices(indices: Any, size: int) -> Indices:
    """Check row indices against a dataset of ``size`` rows.

    A slice stays a slice; a list of bools (a mask of length ``size``) becomes the list
    of selected rows; a list of ints has negative entries counted from the end.

    Raises:
        ValueError: a mask of the wrong length.
        IndexError: an index out of range.
        TypeError: neither a slice nor a list.
    """
    if indices is None or isinstance(indices, slice):
        return indices
    if isinstance(indices, numpy.ndarray):
        indices = indices.tolist()
    if not isinstance(indices, (list, tuple)):
        raise TypeError(f'rows must be a slice or a list, not {type(indices).__name__}')
    if indices and all(_is_bool(i) for i in indices):
        if len(indices) != size:
            raise ValueError(f'a boolean mask of length {len(indices)} cannot select rows of '
                             f'a dataset of length {size}')
        return [i for i, selected in enumerate(indices) if selected]
    result = []
    for index in indices:
        i = operator.index(index)
        if not -size <= i < size:
            raise IndexError(f'row {i} is out of range for a dataset of length {size}')
        result.append(i + size if i < 0 else i)
    return result


def indices_length(indices: Indices, size: int) -> int:
    """Number of rows ``indices`` selects in a dataset of ``size`` rows."""
    if indices is None:
        return size
    if isinstance(indices, slice):
        return len(range(*indices.indices(size)))
    return len(indices)


def range_to_slice(r: range) -> slice:
    """The slice that selects ``r`` (a stop below 0 becomes ``None``)."""
    return slice(r.start, r.stop if r.stop >= 0 else None, r.step)


def compose_indices(outer: Indices, inner: Indices, size: int) -> Indices:
    """The rows of the base selected by ``inner`` rows of the view ``outer`` (of ``size``)."""
    if inner is None:
        return outer
    if outer is None:
        return inner
    if isinstance(outer, slice):
        rows = range(*outer.indices(size))
        if isinstance(inner, slice):
            return range_to_slice(rows[inner])
        return [rows[i] for i in inner]
    if isinstance(inner, slice):
        return outer[inner]
    return [outer[i] for i in inner]


def compose_keys(outer: tuple[int, ...] | None,
                 inner: tuple[int, ...] | None) -> tuple[int, ...] | None:
    """Key positions of the base selected by ``inner`` keys of the view ``outer``."""
    if inner is None:
        return outer
    if outer is None:
        return tuple(inner)
    return tuple(outer[i] for i in inner)


def key_index(key: Any, keys: tuple[str, ...]) -> int:
    """Position of ``key`` (a name or a position) in ``keys``.

    Raises:
        KeyError: an unknown name.
        IndexError: a position out of range.
    """
    if isinstance(key, str):
        if key not in keys:
            raise KeyError(f'{key!r} is not a key of this dataset (keys: {keys})')
        return keys.index(key)
    i = operator.index(key)
    if not -len(keys) <= i < len(keys):
        raise IndexError(f'key position {i} is out of range for {len(keys)} keys')
    return i % len(keys)


class Slice(TabularDataset):
    """A view on some rows (``indices``) and some columns (``keys``) of ``dataset``."""

    def __init__(self, dataset: TabularDataset, indices: Any, keys: Any) -> None:
        self._dataset = dataset
        self._size = len(dataset)
        self._indices = normalize_indices(indices, self._size)
        base_keys = tuple(dataset.keys)
        if keys is None:
            self._key_indices = None
            self._mode = dataset.mode
        elif isinstance(keys, tuple):
            self._key_indices = tuple(key_index(k, base_keys) for k in keys)
            self._mode = dataset.mode or tuple
        else:
            self._key_indices = (key_index(keys, base_keys),)
            self._mode = None
        self._len = indices_length(self._indices, self._size)

    def __len__(self) -> int:
        return self._len

    @property
    def keys(self) -> tuple[str, ...]:
        base = tuple(self._dataset.keys)
        if self._key_indices is None:
            return base
        return tuple(base[i] for i in self._key_indices)

    @property
    def mode(self) -> type | None:
        return self._mode

    def get_examples(self, indices: Indices, key_indices: tuple[int, ...] | None) -> Columns:
        return self._dataset.get_examples(
            compose_indices(self._indices, indices, self._size),
            compose_keys(self._key_indices, key_indices))

    def convert(self, data: Any) -> Any:
        return self._dataset.convert(data)
