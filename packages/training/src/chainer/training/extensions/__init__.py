"""Trainer extensions: evaluation, logging, reporting, plotting and snapshots."""

from chainer.training.extensions import snapshot_writers
from chainer.training.extensions._snapshot import snapshot, snapshot_object
from chainer.training.extensions.computational_graph import DumpGraph, dump_graph
from chainer.training.extensions.evaluator import Evaluator
from chainer.training.extensions.exponential_shift import ExponentialShift
from chainer.training.extensions.fail_on_nonnumber import FailOnNonNumber
from chainer.training.extensions.inverse_shift import InverseShift
from chainer.training.extensions.linear_shift import LinearShift
from chainer.training.extensions.log_report import LogReport
from chainer.training.extensions.micro_average import MicroAverage
from chainer.training.extensions.multistep_shift import MultistepShift
from chainer.training.extensions.parameter_statistics import ParameterStatistics
from chainer.training.extensions.plot_report import PlotReport
from chainer.training.extensions.polynomial_shift import PolynomialShift
from chainer.training.extensions.print_report import PrintReport
from chainer.training.extensions.progress_bar import ProgressBar
from chainer.training.extensions.step_shift import StepShift
from chainer.training.extensions.value_observation import observe_lr, observe_value
from chainer.training.extensions.variable_statistics_plot import VariableStatisticsPlot
from chainer.training.extensions.variable_unchain import unchain_variables
from chainer.training.extensions.warmup_shift import WarmupShift

__all__ = [
    'DumpGraph',
    'Evaluator',
    'ExponentialShift',
    'FailOnNonNumber',
    'InverseShift',
    'LinearShift',
    'LogReport',
    'MicroAverage',
    'MultistepShift',
    'ParameterStatistics',
    'PlotReport',
    'PolynomialShift',
    'PrintReport',
    'ProgressBar',
    'StepShift',
    'VariableStatisticsPlot',
    'WarmupShift',
    'dump_graph',
    'observe_lr',
    'observe_value',
    'snapshot',
    'snapshot_object',
    'snapshot_writers',
    'unchain_variables',
]
