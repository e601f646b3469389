"""Dataset made of several equally long datasets, zipped into dicts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chainer.dataset.dataset_mixin import DatasetIndex, DatasetLike



class DictDataset:
    """Zip named datasets of the same length into one dataset of dicts.

    ``DictDataset(x=xs, t=ts)[i]`` is ``{'x': xs[i], 't': ts[i]}``; a slice
    gives a list of such dicts.

    Args:
        **datasets: One or more datasets of equal length, by name.

    Raises:
        ValueError: if no dataset is given or the lengths differ.
    """

    def __init__(self, **datasets: DatasetLike) -> None:
        if not datasets:
            raise ValueError('DictDataset needs at least one dataset')
        lengths = {key: len(dataset) for key, dataset in datasets.items()}
        length = next(iter(lengths.values()))
        for key, n in lengths.items():
            if n != length:
                raise ValueError(
                    f'DictDataset: dataset {key!r} has length {n}, expected {length}'
                )
        # indexed with the caller's index, whatever kind it is
        self._datasets: dict[str, Any] = datasets
        self._length = length

    def __getitem__(self, index: DatasetIndex) -> Any:
        """Return ``{k: d[index]}``, or a list of dicts for a slice."""
        parts = {key: dataset[index] for key, dataset in self._datasets.items()}
        if isinstance(index, slice):
            n = len(next(iter(parts.values())))
            return [{key: part[i] for key, part in parts.items()} for i in range(n)]
        return parts

    def __len__(self) -> int:
        """Return the common length of the component datasets."""
        return self._length
