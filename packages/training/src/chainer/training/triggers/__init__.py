"""Triggers: callables deciding when the trainer stops or runs an extension."""

from chainer.training.triggers.interval_trigger import IntervalTrigger

__all__ = ['IntervalTrigger']
