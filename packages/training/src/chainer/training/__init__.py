"""Training loop abstractions: Trainer, updaters, triggers and extensions."""

from chainer.training import (  # _updater: v7's module path, reached as an attribute
    _updater,
    extension,
    extensions,
    trainer,
    trigger,
    triggers,
    updater,
    updaters,
    util,
)
from chainer.training.extension import (
    PRIORITY_EDITOR,
    PRIORITY_READER,
    PRIORITY_WRITER,
    Extension,
    make_extension,
)
from chainer.training.trainer import Trainer
from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.updater import Updater
from chainer.training.updaters.parallel_updater import ParallelUpdater
from chainer.training.updaters.standard_updater import StandardUpdater
from chainer.training.util import get_trigger

__all__ = [
    'PRIORITY_EDITOR',
    'PRIORITY_READER',
    'PRIORITY_WRITER',
    'Extension',
    'IntervalTrigger',
    'ParallelUpdater',
    'StandardUpdater',
    'Trainer',
    'Updater',
    'extensions',
    'get_trigger',
    'make_extension',
    'triggers',
    'updaters',
]
