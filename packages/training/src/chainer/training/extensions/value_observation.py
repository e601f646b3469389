"""Extensions that report a value computed from the trainer: ``observe_value``, ``observe_lr``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.training import extension

if TYPE_CHECKING:
    from chainer.training.trainer import Trainer


def observe_value(
    observation_key: str, target_func: Callable[[Any], Any]
) -> Callable[[Any], None]:
    """Return an extension that reports ``target_func(trainer)`` as ``observation_key``.

    The extension has priority :data:`~chainer.training.PRIORITY_WRITER`, so a
    :class:`LogReport` registered with it sees the value.

    Args:
        observation_key: Key of the reported value.
        target_func: Function of the trainer returning the value.

    Returns:
        The extension function.
    """

    @extension.make_extension(trigger=(1, 'epoch'), priority=extension.PRIORITY_WRITER)
    def _observe_value(trainer: Trainer) -> None:
        trainer.observation[observation_key] = target_func(trainer)

    return _observe_value


def observe_lr(optimizer_name: str = 'main', observation_key: str = 'lr') -> Callable[[Any], None]:
    """Return an extension that reports the learning rate ``optimizer.lr``.

    Args:
        optimizer_name: Name of the optimizer in the updater.
        observation_key: Key of the reported value.

    Returns:
        The extension function.
    """
    return observe_value(
        observation_key, lambda trainer: trainer.updater.get_optimizer(optimizer_name).lr
    )


