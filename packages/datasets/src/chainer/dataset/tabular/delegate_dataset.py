"""``DelegateDataset``: a base class for tabular datasets that wrap another one."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.dataset.tabular.tabular_dataset import Columns, TabularDataset

if TYPE_CHECKING:
    from chainer.dataset.tabular.tabular_dataset import Fetched


class DelegateDataset(TabularDataset):
    """A tabular dataset that forwards everything to ``dataset``.

    Subclass it to change one aspect (for instance :meth:`convert`) of an existing
    tabular dataset while keeping the rest.

    Args:
        dataset: the wrapped :class:`TabularDataset` (kept as :attr:`dataset`).
    """

    def __init__(self, dataset: TabularDataset) -> None:
        self.dataset = dataset

    def __len__(self) -> int:
        return len(self.dataset)

    @property
    def keys(self) -> tuple[str, ...]:
        return self.dataset.keys

    @property
    def mode(self) -> type | None:
        return self.dataset.mode

    def get_examples(self, indices: slice | list[int] | None,
                     key_indices: tuple[int, ...] | None) -> Columns:
        return self.dataset.get_examples(indices, key_indices)

    def convert(self, data: Fetched) -> Any:
        return self.dataset.convert(data)
