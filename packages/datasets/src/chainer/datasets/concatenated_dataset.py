"""Dataset that chains several datasets one after another."""

from __future__ import annotations

import bisect
from typing import Any

from chainer.dataset.dataset_mixin import DatasetLike, DatasetMixin


class ConcatenatedDataset(DatasetMixin):
    """The concatenation of several datasets.

    Index ``i`` reads the first dataset for ``i < len(datasets[0])``, the
    second one for the next ``len(datasets[1])`` indices, and so on.

    Args:
        *datasets: The datasets to concatenate, in order.
    """

    def __init__(self, *datasets: DatasetLike) -> None:
        self._datasets = datasets
        ends = []
        total = 0
        for dataset in datasets:
            total += len(dataset)
            ends.append(total)
        self._ends = ends
        self._length = total

    def __len__(self) -> int:
        """Return the sum of the lengths of the datasets."""
        return self._length

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example (negative ``i`` counts from the end).

        Raises:
            IndexError: if ``i`` is out of range.
        """
        if i >= self._length or i < -self._length:
            raise IndexError(
                f'ConcatenatedDataset index {i} out of range (length {self._length})'
            )
        if i < 0:
            i += self._length
        k = bisect.bisect_right(self._ends, i)
        start = self._ends[k - 1] if k > 0 else 0
        return self._datasets[k][i - start]
