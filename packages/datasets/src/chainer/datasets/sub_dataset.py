"""Views on part of a dataset, and the functions that split datasets."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from chainer.backends.numbers import to_int
from chainer.dataset.dataset_mixin import DatasetLike, DatasetMixin


class SubDataset(DatasetMixin):
    """A view of the examples ``start`` to ``finish`` of a dataset.

    When ``order`` is given, the view is taken on the permuted dataset: the
    ``i``-th example of the view is ``dataset[order[start + i]]``. No example
    is copied.

    Args:
        dataset: The base dataset.
        start: First index (inclusive) of the view.
        finish: Last index (exclusive) of the view.
        order: ``None`` or a permutation of ``range(len(dataset))``.

    Raises:
        ValueError: if the range is outside the dataset or ``order`` does not
            have the length of the dataset.

    Example:
        >>> from chainer.datasets import SubDataset
        >>> base = ['a', 'b', 'c', 'd', 'e']
        >>> sub = SubDataset(base, 1, 4)
        >>> len(sub), sub[0], list(sub)
        (3, 'b', ['b', 'c', 'd'])
        >>> list(SubDataset(base, 0, 2, order=[4, 3, 2, 1, 0]))
        ['e', 'd']
    """

    def __init__(self, dataset: DatasetLike, start: int, finish: int,
                 order: Sequence[int] | numpy.ndarray | None = None) -> None:
        n = len(dataset)
        start, finish = _int(start), _int(finish)
        if start < 0 or finish > n or start > finish:
            raise ValueError(
                f'SubDataset: range [{start}, {finish}) is invalid for a dataset of length {n}'
            )
        if order is not None and len(order) != n:
            raise ValueError(
                f'SubDataset: order has length {len(order)}, the dataset has length {n}'
            )
        self._dataset = dataset
        self._start = start
        self._finish = finish
        self._size = finish - start
        self._order = order
        self._order_array = None if order is None else numpy.asarray(order)

    def __len__(self) -> int:
        """Return ``finish - start``."""
        return self._size

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example of the view (negative ``i`` counts from the end).

        Raises:
            IndexError: if ``i`` is out of range.
        """
        if i >= self._size or i < -self._size:
            raise IndexError(f'SubDataset index {i} out of range (length {self._size})')
        index = self._start + i if i >= 0 else self._finish + i
        if self._order is not None:
            index = self._order[index]
        return self._dataset[index]

    def _get_examples(self, indices: numpy.ndarray) -> list[Any]:
        """Return ``[self[i] for i in indices]`` (non-negative indices), batched when possible."""
        indices = numpy.asarray(indices)
        if indices.size and (indices.min() < 0 or indices.max() >= self._size):
            raise IndexError(f'SubDataset indices out of range (length {self._size})')
        base = indices + self._start
        if self._order_array is not None:
            base = self._order_array[base]
        fetch = getattr(self._dataset, '_get_examples', None)
        if fetch is not None:
            return fetch(base)
        return [self._dataset[i] for i in base]


def _int(value: Any) -> Any:
    """A NumPy integer or 0-d integer array as a Python int (unsigned ones would
    overflow in the index arithmetic); anything else unchanged."""
    n = to_int(value)
    return value if n is None else n


def _check_split_point(split_at: Any, n: int) -> int:
    at = to_int(split_at)
    if at is None:
        raise TypeError(f'split_at must be an int, got {type(split_at).__name__}')
    if at < 0:
        raise ValueError(f'split_at must be non-negative, got {at}')
    if at > n:
        raise ValueError(f'split_at ({at}) exceeds the dataset size ({n})')
    return at


def split_dataset(
    dataset: DatasetLike, split_at: int, order: Sequence[int] | numpy.ndarray | None = None
) -> tuple[SubDataset, SubDataset]:
    """Split a dataset in two at an index.

    Args:
        dataset: The dataset to split.
        split_at: Number of examples in the first part.
        order: Optional permutation applied before splitting.

    Returns:
        ``(first, second)`` :class:`SubDataset` views with ``split_at`` and
        ``len(dataset) - split_at`` examples.

    Raises:
        TypeError: if ``split_at`` is not an integer.
        ValueError: if ``split_at`` is negative or larger than the dataset.

    Example:
        >>> from chainer.datasets import split_dataset
        >>> train, test = split_dataset(list(range(10)), 7)
        >>> len(train), len(test)
        (7, 3)
        >>> list(test)
        [7, 8, 9]
        >>> train, test = split_dataset(list(range(5)), 2, order=[4, 3, 2, 1, 0])
        >>> list(train), list(test)
        ([4, 3], [2, 1, 0])
    """
    n = len(dataset)
    split_at = _check_split_point(split_at, n)
    return SubDataset(dataset, 0, split_at, order), SubDataset(dataset, split_at, n, order)


def split_dataset_random(
    dataset: DatasetLike, first_size: int, seed: int | None = None
) -> tuple[SubDataset, SubDataset]:
    """Split a dataset in two random, disjoint parts.

    Args:
        dataset: The dataset to split.
        first_size: Number of examples in the first part.
        seed: Seed of the permutation; the same seed gives the same split.

    Returns:
        ``(first, second)`` :class:`SubDataset` views.

    Raises:
        TypeError, ValueError: as :func:`split_dataset`.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset(dataset, first_size, order)


def split_dataset_n(dataset: DatasetLike, n: int,
                    order: Sequence[int] | numpy.ndarray | None = None) -> list[SubDataset]:
    """Split a dataset into ``n`` consecutive parts of equal size.

    Every part has ``len(dataset) // n`` examples; the remaining ``len(dataset) % n``
    examples are left out (as in Chainer v7).

    Args:
        dataset: The dataset to split.
        n: Number of parts (positive).
        order: Optional permutation applied before splitting.

    Returns:
        A list of ``n`` :class:`SubDataset` views.

    Raises:
        ValueError: if ``n`` is not positive.
    """
    n = _int(n)
    if n <= 0:
        raise ValueError(f'n must be positive, got {n}')
    size = len(dataset) // n
    return [SubDataset(dataset, size * i, size * (i + 1), order) for i in range(n)]


def split_dataset_n_random(dataset: DatasetLike, n: int,
                           seed: int | None = None) -> list[SubDataset]:
    """Split a dataset into ``n`` random, disjoint parts (see :func:`split_dataset_n`)."""
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return split_dataset_n(dataset, n, order)


def get_cross_validation_datasets(dataset: DatasetLike, n_folds: int | None = None,
                                  order: Sequence[int] | numpy.ndarray | None = None,
                                  **kwargs: Any) -> list[tuple[SubDataset, SubDataset]]:
    """Make the ``n_folds`` (training, validation) splits of k-fold cross validation.

    The (possibly permuted) dataset is cut into ``n_folds`` parts of nearly equal size;
    the ``i``-th split validates on one part and trains on the others, the training
    part starting right after the validation part and wrapping around (as in v7: the
    first split validates on the last part).

    Args:
        dataset: The dataset to split.
        n_folds: Number of splits (at least 2).
        order: Optional permutation applied first.
        **kwargs: ``n_fold``, the old name of ``n_folds``.

    Returns:
        A list of ``n_folds`` pairs ``(train, validation)`` of :class:`SubDataset`.

    Raises:
        TypeError: an unknown keyword argument.
        ValueError: ``n_folds`` missing or smaller than 2.
    """
    if 'n_fold' in kwargs:
        if n_folds is not None:
            raise TypeError('give n_folds or its old name n_fold, not both')
        n_folds = kwargs.pop('n_fold')
    if kwargs:
        raise TypeError(f'unexpected keyword argument(s): {", ".join(sorted(kwargs))}')
    n_folds = _int(n_folds)
    if n_folds is None or n_folds < 2:
        raise ValueError(f'n_folds must be at least 2, got {n_folds}')
    total = len(dataset)
    order_array = numpy.arange(total) if order is None else numpy.asarray(order)
    borders = [total * i // n_folds for i in range(n_folds + 1)]
    splits = []
    for i in reversed(range(n_folds)):
        validation = borders[i + 1] - borders[i]
        splits.append(split_dataset(dataset, total - validation, order_array))
        order_array = numpy.roll(order_array, validation)
    return splits


def get_cross_validation_datasets_random(dataset: DatasetLike, n_folds: int,
                                         seed: int | None = None,
                                         **kwargs: Any) -> list[tuple[SubDataset, SubDataset]]:
    """:func:`get_cross_validation_datasets` on a random permutation of the dataset.

    Args:
        dataset: The dataset to split.
        n_folds: Number of splits.
        seed: Seed of the permutation; the same seed gives the same splits.
        **kwargs: as :func:`get_cross_validation_datasets`.

    Returns:
        A list of ``n_folds`` pairs ``(train, validation)``.
    """
    order = numpy.random.RandomState(seed).permutation(len(dataset))
    return get_cross_validation_datasets(dataset, n_folds, order, **kwargs)
