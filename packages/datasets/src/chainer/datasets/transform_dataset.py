"""Dataset that applies a function to every example on access."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainer.dataset.dataset_mixin import DatasetLike, DatasetMixin


class TransformDataset(DatasetMixin):
    """Apply ``transform`` to each example of ``dataset`` when it is read.

    Args:
        dataset: The base dataset.
        transform: A callable taking one example and returning the
            transformed example. It is called on every access (lazily), so
            random augmentations differ between epochs.
    """

    def __init__(self, dataset: DatasetLike, transform: Callable[[Any], Any]) -> None:
        if not callable(transform):
            raise TypeError(f'transform must be callable, got {type(transform).__name__}')
        self._dataset = dataset
        self._transform = transform

    def __len__(self) -> int:
        """Return the length of the base dataset."""
        return len(self._dataset)

    def get_example(self, i: int) -> Any:
        """Return ``transform(dataset[i])``."""
        return self._transform(self._dataset[i])

    def _get_examples(self, indices: Any) -> list[Any]:
        """Return ``[self[i] for i in indices]``, reading the base dataset in one batch."""
        fetch = getattr(self._dataset, '_get_examples', None)
        examples = fetch(indices) if fetch is not None else [self._dataset[i] for i in indices]
        return [self._transform(example) for example in examples]
