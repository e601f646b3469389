"""``transform()`` / ``transform_batch()``: new columns computed from the examples."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset

_UNKNOWN = object()


def _mode_of(value: Any) -> type | None:
    if isinstance(value, tuple):
        return tuple
    if isinstance(value, dict):
        return dict
    return None


def _call(function: Callable[..., Any], mode: type | None, values: tuple[Any, ...],
          keys: tuple[str, ...]) -> Any:
    if mode is tuple:
        return function(*values)
    if mode is dict:
        return function(**dict(zip(keys, values, strict=True)))
    return function(values[0])


class _TransformBase(TabularDataset):

    def __init__(self, dataset: TabularDataset, keys: str | tuple[str, ...],
                 function: Callable[..., Any]) -> None:
        if not callable(function):
            raise TypeError(f'the transform must be callable, got {type(function).__name__}')
        self._dataset = dataset
        self._function = function
        if isinstance(keys, str):
            self._keys: tuple[str, ...] = (keys,)
        else:
            self._keys = tuple(keys)
        self._mode: Any = _UNKNOWN

    def __len__(self) -> int:
        return len(self._dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._keys

    @property
    def mode(self) -> type | None:
        if self._mode is _UNKNOWN:
            if len(self._dataset) == 0:
                return tuple if len(self._keys) > 1 else None
            self.get_examples([0], None)  # the first result decides the mode
        return self._mode

    def convert(self, data: Any) -> Any:
        return self._dataset.convert(data)

    def _check_mode(self, output: Any) -> None:
        mode = _mode_of(output)
        if self._mode is _UNKNOWN:
            self._mode = mode
        elif mode is not self._mode:
            raise ValueError(
                f'the transform returned a {getattr(mode, "__name__", "single value")} '
                f'after a {getattr(self._mode, "__name__", "single value")}; it must '
                f'always return the same form')

    def _columns(self, output: Any) -> tuple[Any, ...]:
        """The output's values in key order."""
        if isinstance(output, tuple):
            values = output
        elif isinstance(output, dict):
            values = tuple(output[k] for k in self._keys)
        else:
            values = (output,)
        if len(values) != len(self._keys):
            raise ValueError(f'the transform returned {len(values)} values for the '
                             f'{len(self._keys)} keys {self._keys}')
        return values

    @staticmethod
    def _select(columns: tuple[Any, ...], key_indices: tuple[int, ...] | None) -> Columns:
        if key_indices is None:
            return tuple(columns)
        return tuple(columns[i] for i in key_indices)


class Transform(_TransformBase):
    """View whose examples are ``transform(example)``."""

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        base_keys = tuple(self._dataset.keys)
        base_mode = self._dataset.mode
        columns_in = self._dataset.get_examples(indices, None)
        columns: list[list[Any]] = [[] for _ in self._keys]
        for row in zip(*columns_in, strict=True):
            output = _call(self._function, base_mode, row, base_keys)
            self._check_mode(output)
            for column, value in zip(columns, self._columns(output), strict=True):
                column.append(value)
        return self._select(tuple(columns), key_indices)


class TransformBatch(_TransformBase):
    """View whose columns are ``transform_batch(columns)``."""

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        columns_in = self._dataset.get_examples(indices, None)
        size = len(columns_in[0]) if columns_in else None
        output = _call(self._function, self._dataset.mode, columns_in,
                       tuple(self._dataset.keys))
        self._check_mode(output)
        columns = self._columns(output)
        for column in columns:
            if size is not None and len(column) != size:
                raise ValueError(f'transform_batch changed the number of examples from '
                                 f'{size} to {len(column)}')
        return self._select(columns, key_indices)
