"""Compatibility module: ``chainer.training.trigger.get_trigger`` and ``IntervalTrigger``."""

from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.util import get_trigger

__all__ = ['IntervalTrigger', 'get_trigger']
