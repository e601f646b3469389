"""Dataset made of several equally long datasets, zipped into tuples."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

if TYPE_CHECKING:
    from chainer.dataset.dataset_mixin import DatasetIndex, DatasetLike



class TupleDataset:
    """Zip several datasets of the same length into one dataset of tuples.

    ``TupleDataset(x, t)[i]`` is ``(x[i], t[i])``; a slice gives a list of
    such tuples. The component datasets may be arrays, lists or any object
    that supports ``len`` and indexing.

    Args:
        *datasets: One or more datasets of equal length.

    Raises:
        ValueError: if no dataset is given or the lengths differ.

    Example:
        >>> import numpy as np
        >>> from chainer.datasets import TupleDataset
        >>> x = np.arange(6, dtype=np.float32).reshape(3, 2)
        >>> t = np.array([0, 1, 0], np.int32)
        >>> ds = TupleDataset(x, t)
        >>> len(ds)
        3
        >>> x1, t1 = ds[1]
        >>> print(x1, t1)
        [2. 3.] 1
        >>> [int(t) for _, t in ds[:2]]
        [0, 1]
    """

    def __init__(self, *datasets: DatasetLike) -> None:
        if not datasets:
            raise ValueError('TupleDataset needs at least one dataset')
        length = len(datasets[0])
        for i, dataset in enumerate(datasets):
            if len(dataset) != length:
                raise ValueError(
                    f'TupleDataset: dataset {i} has length {len(dataset)}, '
                    f'dataset 0 has length {length}'
                )
        # indexed with the caller's index, whatever kind it is
        self._datasets: tuple[Any, ...] = datasets
        self._length = length

    def __getitem__(self, index: DatasetIndex) -> Any:
        """Return ``tuple(d[index] for d in datasets)``, or a list of tuples for a slice."""
        parts = [dataset[index] for dataset in self._datasets]
        if isinstance(index, slice):
            return list(zip(*parts, strict=True))
        return tuple(parts)

    def __len__(self) -> int:
        """Return the common length of the component datasets."""
        return self._length

    def _get_examples(self, indices: numpy.ndarray) -> list[tuple[Any, ...]]:
        """Return ``[self[i] for i in indices]``, indexing array components at once."""
        parts = [
            dataset[indices] if isinstance(dataset, numpy.ndarray)
            else [dataset[i] for i in indices]
            for dataset in self._datasets
        ]
        return list(zip(*parts, strict=True))
