"""``with_converter()``: the same table with another ``convert``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset


class WithConverter(TabularDataset):
    """View of ``dataset`` whose :meth:`convert` calls ``converter``."""

    def __init__(self, dataset: TabularDataset, converter: Callable[..., Any]) -> None:
        if not callable(converter):
            raise TypeError(f'converter must be callable, got {type(converter).__name__}')
        self._dataset = dataset
        self._converter = converter

    def __len__(self) -> int:
        return len(self._dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self._dataset.keys

    @property
    def mode(self) -> type | None:
        return self._dataset.mode

    def get_examples(self, indices: Any, key_indices: tuple[int, ...] | None) -> Columns:
        return self._dataset.get_examples(indices, key_indices)

    def convert(self, data: Any) -> Any:
        if isinstance(data, tuple):
            return self._converter(*data)
        if isinstance(data, dict):
            return self._converter(**data)
        return self._converter(data)
