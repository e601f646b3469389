"""Trainer extensions: evaluation, logging, reporting, plotting and snapshots."""

from chainer.training.extensions import snapshot_writers
from chainer.training.extensions._snapshot import snapshot, snapshot_object
from chainer.training.extensions.evaluator import Evaluator
from chainer.training.extensions.log_report import LogReport
from chainer.training.extensions.plot_report import PlotReport
from chainer.training.extensions.print_report import PrintReport
from chainer.training.extensions.progress_bar import ProgressBar
from chainer.training.extensions.value_observation import observe_lr, observe_value

__all__ = [
    'Evaluator',
    'LogReport',
    'PlotReport',
    'PrintReport',
    'ProgressBar',
    'observe_lr',
    'observe_value',
    'snapshot',
    'snapshot_object',
    'snapshot_writers',
]
