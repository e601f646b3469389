"""The abstract tabular dataset: columns with names, read many examples at once."""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.dataset.dataset_mixin import DatasetIndex, DatasetMixin

if TYPE_CHECKING:
    from typing import TypeAlias

    from chainer.types import NdArray

    # one column of a fetch: a list or an array of the values of the examples
    Column: TypeAlias = list[Any] | NdArray
    # what fetch gives, per mode: a tuple or a dict of columns, or one column
    Fetched: TypeAlias = tuple[Column, ...] | dict[str, Column] | Column

Columns = tuple[Any, ...]
"""What ``get_examples`` returns: one list or array per selected key."""


def _as_array(column: Any) -> Any:
    if isinstance(column, numpy.ndarray) or backend.get_array_module(column) is not numpy:
        return column
    return numpy.asarray(column)


class TabularDataset(DatasetMixin):
    """A dataset organised as a table: rows are examples, named columns are keys.

    Subclasses implement :meth:`__len__`, :attr:`keys`, :attr:`mode` and
    :meth:`get_examples`, which reads many examples and some columns in one call; the
    class derives from them indexing, :meth:`fetch`, and cheap views: :attr:`slice`,
    :meth:`concat`, :meth:`join`, :meth:`transform`, :meth:`transform_batch`,
    :meth:`astuple`, :meth:`asdict` and :meth:`with_converter`.

    ``mode`` decides what an example looks like: ``tuple`` (a tuple in key order),
    ``dict`` (a dict keyed by name) or ``None`` (a single value; the dataset has one
    key).
    """

    def __len__(self) -> int:
        """Number of examples (rows).

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __len__')

    @property
    def keys(self) -> tuple[str, ...]:
        """Names of the columns, in order."""
        raise NotImplementedError(f'{type(self).__name__} does not implement keys')

    @property
    def mode(self) -> type | None:
        """``tuple``, ``dict`` or ``None``: the form of an example."""
        raise NotImplementedError(f'{type(self).__name__} does not implement mode')

    def get_examples(self, indices: slice | list[int] | None,
                     key_indices: tuple[int, ...] | None) -> Columns:
        """Read some rows of some columns.

        Args:
            indices: the rows: ``None`` (all), a :class:`slice` or a list of ints.
            key_indices: positions in :attr:`keys` of the columns, or ``None`` (all).

        Returns:
            A tuple with one list or array per selected column.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement get_examples')

    # -- reading

    @property
    def slice(self) -> _SliceHelper:
        """View on some rows and/or columns: ``dataset.slice[rows]``,
        ``dataset.slice[rows, keys]``.

        ``rows`` is a slice, a list of ints or a list of bools (a mask); ``keys`` is a
        key (name or position: the view's mode becomes ``None``) or a tuple of keys.
        """
        return _SliceHelper(self)

    def fetch(self) -> Any:
        """Every example at once: a tuple/dict of columns per :attr:`mode`, or a column."""
        return self._format_columns(self.get_examples(None, None))

    def convert(self, data: Fetched) -> Any:
        """Turn fetched columns into arrays (lists become :class:`numpy.ndarray`)."""
        if isinstance(data, tuple):
            return tuple(_as_array(d) for d in data)
        if isinstance(data, dict):
            return {k: _as_array(d) for k, d in data.items()}
        return _as_array(data)

    def get_example(self, i: int) -> Any:
        """The ``i``-th example, formed per :attr:`mode`."""
        columns = self.get_examples([i], None)
        return self._format_row(tuple(column[0] for column in columns))

    def __iter__(self) -> Iterator[Any]:
        """Iterate over the examples."""
        for i in range(len(self)):
            yield self.get_example(i)

    def __getitem__(self, index: DatasetIndex) -> Any:
        """One example for an int; a list of examples for a slice, a list or an array."""
        if isinstance(index, (slice, list, numpy.ndarray)):
            if isinstance(index, slice):
                index = list(range(*index.indices(len(self))))
            return self._get_examples(index)
        return self.get_example(operator.index(index))

    def _get_examples(self, indices: Sequence[int] | numpy.ndarray) -> list[Any]:
        """``[self[i] for i in indices]`` through one :meth:`get_examples` call."""
        size = len(self)
        indices = [int(i) for i in indices]
        for n, i in enumerate(indices):
            if not -size <= i < size:
                raise IndexError(f'index {i} is out of range for a dataset of length {size}')
            if i < 0:
                indices[n] = i + size
        columns = self.get_examples(indices, None)
        return [self._format_row(row) for row in zip(*columns, strict=True)] \
            if columns else [self._format_row(()) for _ in indices]

    def _format_row(self, row: tuple[Any, ...]) -> Any:
        mode = self.mode
        if mode is tuple:
            return row
        if mode is dict:
            return dict(zip(self.keys, row, strict=True))
        return row[0]

    def _format_columns(self, columns: Columns) -> Any:
        mode = self.mode
        if mode is tuple:
            return columns
        if mode is dict:
            return dict(zip(self.keys, columns, strict=True))
        return columns[0]

    # -- views

    def astuple(self) -> TabularDataset:
        """A view whose examples are tuples."""
        from chainer.dataset.tabular import _asmode
        return _asmode.AsTuple(self)

    def asdict(self) -> TabularDataset:
        """A view whose examples are dicts."""
        from chainer.dataset.tabular import _asmode
        return _asmode.AsDict(self)

    def concat(self, *datasets: TabularDataset) -> TabularDataset:
        """The rows of this dataset followed by those of ``datasets`` (same keys).

        Raises:
            ValueError: the keys differ (in names or order).
        """
        from chainer.dataset.tabular import _concat
        return _concat.Concat(self, *datasets)

    def join(self, *datasets: TabularDataset) -> TabularDataset:
        """The columns of this dataset next to those of ``datasets`` (same length).

        Raises:
            ValueError: the lengths differ or a key appears twice.
        """
        from chainer.dataset.tabular import _join
        return _join.Join(self, *datasets)

    def transform(self, keys: str | tuple[str, ...],
                  transform: Callable[..., Any]) -> TabularDataset:
        """A view applying ``transform`` to every example.

        ``transform`` receives an example as positional arguments (mode ``tuple``),
        keyword arguments (``dict``) or one argument (``None``) and returns a tuple, a
        dict or one value for the new ``keys``; the form of its first result sets the
        view's mode.
        """
        from chainer.dataset.tabular import _transform
        return _transform.Transform(self, keys, transform)

    def transform_batch(self, keys: str | tuple[str, ...],
                        transform_batch: Callable[..., Any]) -> TabularDataset:
        """Like :meth:`transform`, but ``transform_batch`` receives whole columns."""
        from chainer.dataset.tabular import _transform
        return _transform.TransformBatch(self, keys, transform_batch)

    def with_converter(self, converter: Callable[..., Any]) -> TabularDataset:
        """A view whose :meth:`convert` calls ``converter`` with the columns as
        positional (mode ``tuple`` or ``None``) or keyword (``dict``) arguments."""
        from chainer.dataset.tabular import _with_converter
        return _with_converter.WithConverter(self, converter)


class _SliceHelper:
    """``dataset.slice[...]``."""

    def __init__(self, dataset: TabularDataset) -> None:
        self._dataset = dataset

    def __getitem__(self, args: Any) -> TabularDataset:
        from chainer.dataset.tabular import _slice
        if isinstance(args, tuple):
            indices, keys = args
        else:
            indices, keys = args, None
        return _slice.Slice(self._dataset, indices, keys)
