"""Updaters: objects that run one training iteration."""

from chainer.training.updaters import (
    multiprocess_parallel_updater,
    parallel_updater,
    standard_updater,
)
from chainer.training.updaters.multiprocess_parallel_updater import (
    MultiprocessParallelUpdater,
)
from chainer.training.updaters.parallel_updater import ParallelUpdater
from chainer.training.updaters.standard_updater import StandardUpdater

__all__ = ['MultiprocessParallelUpdater', 'ParallelUpdater', 'StandardUpdater']
