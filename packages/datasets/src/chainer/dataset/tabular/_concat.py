"""``concat()``: the rows of several tabular datasets with the same keys, one after another."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset


def _split_slice(index: slice, total: int, offset: int, size: int) -> slice | None:
    """The part of ``index`` (over ``total`` rows) falling in ``[offset, offset + size)``,
    as a slice local to that part, or ``None`` when empty."""
    start, stop, step = index.indices(total)
    last = offset + size - 1
    if step > 0:
        first = start if start >= offset else start + -(-(offset - start) // step) * step
        if first >= stop or first > last:
            return None
        local_stop = stop - offset
        return slice(first - offset, local_stop if local_stop < size else None, step)
    first = start if start <= last else start - -(-(start - last) // -step) * -step
    if first <= stop or first < offset:
        return None
    local_stop = stop - offset
    return slice(first - offset, local_stop if local_stop >= 0 else None, step)


class Concat(TabularDataset):
    """The rows of ``datasets`` one after another.

    Raises:
        ValueError: the datasets do not have the same keys in the same order.
    """

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError('concat needs at least one dataset')
        keys = tuple(datasets[0].keys)
        for dataset in datasets[1:]:
            if tuple(dataset.keys) != keys:
                raise ValueError(
                    f'concat needs datasets with the same keys in the same order: '
                    f'{keys} and {tuple(dataset.keys)}')
        self._datasets = datasets
        self._sizes = [len(d) for d in datasets]

    def __len__(self) -> int:
        return sum(self._sizes)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._datasets[0].keys

    @property
    def mode(self) -> type | None:
        return self._datasets[0].mode

    def convert(self, data: Any) -> Any:
        return self._datasets[0].convert(data)

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        n_keys = len(self.keys) if key_indices is None else len(key_indices)
        if isinstance(indices, list):
            return self._gather(indices, key_indices, n_keys)
        if indices is None:
            return _join_parts([d.get_examples(None, key_indices) for d in self._datasets],
                               n_keys)
        total = len(self)
        parts = []
        offset = 0
        for dataset, size in zip(self._datasets, self._sizes, strict=True):
            local = _split_slice(indices, total, offset, size)
            if local is not None:
                parts.append(dataset.get_examples(local, key_indices))
            offset += size
        if indices.indices(total)[2] < 0:
            parts.reverse()
        return _join_parts(parts, n_keys)

    def _gather(self, indices: list[int], key_indices: tuple[int, ...] | None,
                n_keys: int) -> Columns:
        total = len(self)
        bounds = []
        offset = 0
        for size in self._sizes:
            bounds.append(offset)
            offset += size
        owners = []
        locals_: list[list[int]] = [[] for _ in self._datasets]
        for index in indices:
            i = index + total if index < 0 else index
            if not 0 <= i < total:
                raise IndexError(f'row {index} is out of range for a dataset of length {total}')
            owner = _owner(bounds, i)
            owners.append(owner)
            locals_[owner].append(i - bounds[owner])
        used = [k for k, rows in enumerate(locals_) if rows]
        if len(used) == 1:
            return self._datasets[used[0]].get_examples(locals_[used[0]], key_indices)
        results = {k: self._datasets[k].get_examples(locals_[k], key_indices) for k in used}
        cursors = dict.fromkeys(used, 0)
        columns: list[list[Any]] = [[] for _ in range(n_keys)]
        for owner in owners:
            row = cursors[owner]
            cursors[owner] = row + 1
            for column, part in zip(columns, results[owner], strict=True):
                column.append(part[row])
        return tuple(columns)


def _owner(bounds: list[int], i: int) -> int:
    owner = 0
    for k, start in enumerate(bounds):
        if start <= i:
            owner = k
        else:
            break
    return owner


def _join_parts(parts: list[Columns], n_keys: int) -> Columns:
    """One part as it is; several parts as lists, one per column."""
    if len(parts) == 1:
        return parts[0]
    columns: list[list[Any]] = [[] for _ in range(n_keys)]
    for part in parts:
        for column, piece in zip(columns, part, strict=True):
            column.extend(piece)
    return tuple(columns)
