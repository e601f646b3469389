"""Helpers shared by the trainer and its extensions: trigger normalization, clock."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from chainer.link import Link
    from chainer.optimizer import Optimizer
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer


#: A trigger as the trainer, its extensions and triggers take it: a ``(period, unit)`` pair
#: (unit ``'epoch'`` or ``'iteration'``; an :class:`IntervalTrigger`) or a callable
#: ``trigger(trainer) -> bool``. Where a trigger may be omitted, ``None`` (never fires) too.
TriggerSpec = tuple[int | float, str] | Callable[['Trainer'], bool]


def _never_fire_trigger(trainer: Trainer) -> bool:
    return False


def get_trigger(trigger: TriggerSpec | None) -> Callable[[Trainer], bool]:
    """Normalize a trigger specification into a callable ``trigger(trainer) -> bool``.

    Args:
        trigger: A callable (returned as is), ``None`` (a trigger that never
            fires) or a ``(period, unit)`` tuple with unit ``'epoch'`` or
            ``'iteration'`` (an :class:`IntervalTrigger`).

    Returns:
        The trigger callable.

    Raises:
        TypeError: if ``trigger`` is none of the above.
        ValueError: for a bad period or unit.
    """
    if callable(trigger):
        return trigger
    if trigger is None:
        return _never_fire_trigger
    from chainer.training.triggers.interval_trigger import IntervalTrigger

    try:
        period, unit = trigger
    except (TypeError, ValueError):
        raise TypeError(
            f'a trigger must be a callable, None or a (period, unit) tuple, got {trigger!r}'
        ) from None
    return IntervalTrigger(period, unit)


def _optimizer_target(optimizer: Optimizer) -> Link:
    """The link ``optimizer`` updates.

    Raises:
        RuntimeError: when the optimizer has no target (``setup`` was not called).
    """
    target = optimizer.target
    if target is None:
        raise RuntimeError(
            f'{type(optimizer).__name__} has no target: call setup(link) first')
    return target


def _get_time() -> float:
    return time.perf_counter()


def _serialize_own_state(obj: Any, serializer: AbstractSerializer, key: str, probe: str) -> None:
    """Save or load ``obj`` under ``serializer[key]``, state Chainer v7 did not save.

    Loading a snapshot without it (e.g. written by Chainer v7, whose extension did not
    save ``obj``) leaves ``obj`` as it is, as v7 did, without a warning. ``probe`` is an
    entry ``obj`` always saves, used to tell.
    """
    from chainer import serializer as serializer_module

    child = serializer[key]
    if not isinstance(serializer, serializer_module.Serializer):
        try:
            if child(probe, None) is None:
                return
        except KeyError:
            return
    obj.serialize(child)
