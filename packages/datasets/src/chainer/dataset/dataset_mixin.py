"""Mixin that turns a ``get_example`` method into full dataset indexing."""

from __future__ import annotations

import operator
from typing import Any, Protocol, Union

import numpy

from chainer.backends.numbers import to_int

#: An index of a dataset: an integer (one example), or a slice, a list of integers or an
#: integer array (a list of examples).
DatasetIndex = Union[int, numpy.integer, slice, list[int], numpy.ndarray]  # noqa: UP007


class DatasetLike(Protocol):
    """What iterators and dataset wrappers take as a dataset: a length and examples by index.

    A list, a tuple, an array, a :class:`DatasetMixin` or a :class:`TabularDataset` is one.
    """

    def __len__(self) -> int:
        """The number of examples."""
        ...

    def __getitem__(self, index: int, /) -> Any:
        """The example at ``index``."""
        ...


class DatasetMixin:
    """Default ``__getitem__`` for datasets that define :meth:`get_example`.

    Subclasses implement :meth:`__len__` and :meth:`get_example`; indexing by
    an integer returns one example, indexing by a slice, a list or a 1-d
    integer array returns a list of examples.
    """

    def __getitem__(self, index: DatasetIndex) -> Any:
        """Return one example or a list of examples.

        Args:
            index: An integer, a slice, a list of integers or an integer
                :class:`numpy.ndarray`.

        Returns:
            The example for an integer index, otherwise a list of examples.
        """
        if isinstance(index, slice):
            return [self.get_example(i) for i in range(*index.indices(len(self)))]
        if isinstance(index, (list, numpy.ndarray)):
            if getattr(index, 'ndim', 1) == 0:  # a 0-d array is one index
                n = to_int(index)
                if n is None:
                    raise TypeError(f'an index array of 0 dimensions must hold an integer, '
                                    f'not {index!r}')
                return self.get_example(n)
            return [self.get_example(int(i)) for i in index]
        return self.get_example(operator.index(index))

    def __len__(self) -> int:
        """Return the number of examples.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __len__')

    def get_example(self, i: int) -> Any:
        """Return the ``i``-th example.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement get_example')
