"""``join()``: the columns of several tabular datasets of the same length, side by side."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset


class Join(TabularDataset):
    """The columns of ``datasets`` side by side.

    Raises:
        ValueError: the lengths differ, or a key appears in two datasets.
    """

    def __init__(self, *datasets: TabularDataset) -> None:
        if not datasets:
            raise ValueError('join needs at least one dataset')
        size = len(datasets[0])
        seen: set[str] = set()
        for dataset in datasets:
            if len(dataset) != size:
                raise ValueError(f'join needs datasets of the same length: {size} and '
                                 f'{len(dataset)}')
            for key in dataset.keys:
                if key in seen:
                    raise ValueError(f'join: the key {key!r} appears in two datasets')
                seen.add(key)
        self._datasets = datasets
        self._size = size

    def __len__(self) -> int:
        return self._size

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(k for d in self._datasets for k in d.keys)

    @property
    def mode(self) -> type:
        for dataset in self._datasets:
            if dataset.mode:
                return dataset.mode
        return tuple

    def convert(self, data: Any) -> Any:
        return self._datasets[0].convert(data)

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        if key_indices is None:
            return tuple(c for d in self._datasets for c in d.get_examples(indices, None))
        owners = []  # (dataset number, position among that dataset's requested keys)
        requested: list[list[int]] = [[] for _ in self._datasets]
        starts = []
        offset = 0
        for dataset in self._datasets:
            starts.append(offset)
            offset += len(dataset.keys)
        for key in key_indices:
            if not 0 <= key < offset:
                raise IndexError(f'key position {key} is out of range for {offset} keys')
            owner = max(k for k, start in enumerate(starts) if start <= key)
            owners.append((owner, len(requested[owner])))
            requested[owner].append(key - starts[owner])
        results = {
            k: self._datasets[k].get_examples(indices, tuple(keys))
            for k, keys in enumerate(requested) if keys}
        return tuple(results[owner][position] for owner, position in owners)
