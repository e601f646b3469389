"""The abstract updater interface used by :class:`~chainer.training.Trainer`."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


class Updater:
    """Base class of updaters: objects that run one training iteration.

    An updater owns the iterators and optimizers of a training run and keeps
    the iteration count. Implementations provide :meth:`update`,
    :meth:`get_optimizer`, :meth:`get_all_optimizers`, :meth:`serialize` and
    the ``iteration``, ``epoch``, ``epoch_detail``, ``previous_epoch_detail``
    and ``is_new_epoch`` attributes.
    """

    if TYPE_CHECKING:
        # What implementations expose (declared for type checkers only; the base class
        # has none of them)
        @property
        def iteration(self) -> int: ...
        @property
        def epoch(self) -> int: ...
        @property
        def epoch_detail(self) -> float: ...
        @property
        def previous_epoch_detail(self) -> float | None: ...
        @property
        def is_new_epoch(self) -> bool: ...

    def connect_trainer(self, trainer: Trainer) -> None:
        """Called by the trainer it is given to (no-op by default)."""

    def finalize(self) -> None:
        """Release resources at the end of training (no-op by default)."""

    def get_optimizer(self, name: str) -> Optimizer:
        """Return the optimizer registered as ``name``.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement get_optimizer')

    def get_all_optimizers(self) -> dict[str, Optimizer]:
        """Return a dict of all optimizers by name.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement get_all_optimizers')

    def update(self) -> None:
        """Run one iteration of training.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement update')

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the state of the updater.

        Raises:
            NotImplementedError: unless a subclass overrides it.
        """
        raise NotImplementedError(f'{type(self).__name__} does not implement serialize')


def __getattr__(name: str) -> Any:
    # ``chainer.training.updater.StandardUpdater`` is the pre-v4 location, still importable.
    if name == 'StandardUpdater':
        from chainer.training.updaters.standard_updater import StandardUpdater

        return StandardUpdater
    raise AttributeError(f'module {__name__!r} has no attribute {name!r}')
