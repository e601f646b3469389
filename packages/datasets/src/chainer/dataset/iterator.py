"""The abstract iterator protocol shared by every dataset iterator."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from types import TracebackType

    from chainer.serializer import AbstractSerializer



class Iterator:
    """Base class of all dataset iterators.

    An iterator walks over a dataset and yields one minibatch (a list of
    examples) per call of :meth:`__next__`. Implementations are expected to
    expose ``batch_size``, ``epoch``, ``epoch_detail``,
    ``previous_epoch_detail``, ``is_new_epoch`` and ``repeat`` attributes.
    An iterator is also a context manager: leaving the ``with`` block calls
    :meth:`finalize`.
    """

    if TYPE_CHECKING:
        # What implementations expose (declared for type checkers only; the base class
        # has none of them)
        @property
        def batch_size(self) -> int: ...
        @property
        def epoch(self) -> int: ...
        @property
        def epoch_detail(self) -> float: ...
        @property
        def previous_epoch_detail(self) -> float | None: ...
        @property
        def is_new_epoch(self) -> bool: ...
        @property
        def repeat(self) -> bool: ...

    def __iter__(self) -> Iterator:
        """Return the iterator itself."""
        return self

    def __next__(self) -> Any:
        """Return the next minibatch.

        Raises:
            NotImplementedError: always, in this base class.
            StopIteration: in implementations, when the iteration is over.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement __next__')

    def next(self) -> Any:
        """Python-2 style alias of :meth:`__next__`."""
        return self.__next__()

    def finalize(self) -> None:
        """Release resources held by the iterator (no-op by default)."""

    def __enter__(self) -> Iterator:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc_value: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.finalize()

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the iteration state through ``serializer`` (no-op here).

        Args:
            serializer: A :class:`chainer.Serializer` or
                :class:`chainer.Deserializer`.
        """
