"""``astuple()`` / ``asdict()``: the same table with examples of another form."""

from __future__ import annotations

from typing import Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset


class _AsMode(TabularDataset):
    _view_mode: type = tuple

    def __init__(self, dataset: TabularDataset) -> None:
        self._dataset = dataset

    def __len__(self) -> int:
        return len(self._dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._dataset.keys

    @property
    def mode(self) -> type:
        return self._view_mode

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        return self._dataset.get_examples(indices, key_indices)

    def convert(self, data: Any) -> Any:
        return self._dataset.convert(data)


class AsTuple(_AsMode):
    """View of a tabular dataset whose examples are tuples."""

    _view_mode = tuple


class AsDict(_AsMode):
    """View of a tabular dataset whose examples are dicts."""

    _view_mode = dict
