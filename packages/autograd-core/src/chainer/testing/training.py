"""A trainer with a mock updater, for testing extensions (needs chainer-training)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any
from unittest import mock

from chainer.testing._availability import availability, missing_distribution

if TYPE_CHECKING:
    from chainer.training.util import TriggerSpec

__all__ = ['get_trainer_with_mock_updater']


def get_trainer_with_mock_updater(stop_trigger: TriggerSpec = (10, 'iteration'),
                                  iter_per_epoch: int = 10,
                                  extensions: Iterable[Any] | None = None) -> Any:
    """A :class:`~chainer.training.Trainer` whose updater is a mock.

    The mock's ``update()`` advances ``iteration``, ``epoch``,
    ``epoch_detail``, ``previous_epoch_detail`` and ``is_new_epoch`` as a
    real updater with ``iter_per_epoch`` iterations per epoch would; it has
    no optimizer.

    Args:
        stop_trigger: the trainer's stop trigger.
        iter_per_epoch: iterations per epoch.
        extensions: extensions registered on the trainer.
    """
    try:
        from chainer import training  # layout: optional[testing]
    except ImportError as error:
        raise missing_distribution('chainer.testing.get_trainer_with_mock_updater',
                                   'chainer-training', error) from error
    if iter_per_epoch <= 0:
        raise ValueError(f'iter_per_epoch must be positive, not {iter_per_epoch}')
    updater = mock.Mock()
    updater.get_all_optimizers.return_value = {}
    updater.iteration = 0
    updater.epoch = 0
    updater.epoch_detail = 0.0
    updater.previous_epoch_detail = None
    updater.is_new_epoch = False

    def update() -> None:
        updater.previous_epoch_detail = updater.epoch_detail
        updater.iteration += 1
        epoch = updater.iteration // iter_per_epoch
        updater.is_new_epoch = epoch != updater.epoch
        updater.epoch = epoch
        updater.epoch_detail = updater.iteration / iter_per_epoch

    updater.update = update
    return training.Trainer(updater, stop_trigger, extensions=extensions)


def _import_training() -> None:
    from chainer import training  # noqa: F401  # layout: optional[testing]


get_error, is_available, check_available = availability(
    __name__, _import_training, ':mod:`chainer.training` (chainer-training)')
