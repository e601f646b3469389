"""The ``VariableStatisticsPlot`` extension: plots how the values of variables spread."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, link, variable
from chainer.backends import files
from chainer.training import extension
from chainer.training.extensions.plot_report import _check_available
from chainer.training.triggers.interval_trigger import IntervalTrigger
from chainer.training.util import TriggerSpec, _serialize_own_state, get_trigger

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer
    from chainer.types import DTypeSpec, NdArray, Xp
    from chainer.variable import Variable

_PERCENTILE_SIGMAS = (0, 0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87, 100)
"""Min, the percentiles at -3..3 sigmas of a normal distribution, and max."""


class Reservoir:
    """A uniform random sample of at most ``size`` items out of a stream (reservoir sampling).

    Every item added so far has the same chance to be kept. The choices come from
    the reservoir's own random generator: NumPy's global random state, which training
    relies on (shuffling, dropout), is not touched.

    Args:
        size: Number of items kept.
        data_shape: Shape of each item.
        dtype: Data type of the items.

    Raises:
        ValueError: for a negative size.
    """

    def __init__(self, size: int, data_shape: Sequence[int],
                 dtype: DTypeSpec = numpy.float32) -> None:
        if size < 0:
            raise ValueError(f'Reservoir size must be non-negative, got {size}')
        self.size = size
        self.data = numpy.zeros((size,) + tuple(data_shape), dtype=dtype)
        self.idxs = numpy.zeros((size,), dtype=numpy.int32)
        self.counter = 0
        self._random = numpy.random.default_rng()

    def add(self, x: NdArray, idx: int | None = None) -> None:
        """Offer item ``x`` (with index ``idx``, the running count by default)."""
        if idx is None:
            idx = self.counter
        if self.counter < self.size:
            slot = self.counter
        else:
            slot = int(self._random.integers(self.counter + 1))
            if slot >= self.size:
                slot = -1
        if slot >= 0:
            self.data[slot] = x
            self.idxs[slot] = idx
        self.counter += 1

    def get_data(self) -> tuple[numpy.ndarray, numpy.ndarray]:
        """Return ``(indexes, items)`` of the kept items, sorted by index."""
        n = min(self.counter, self.size)
        order = numpy.argsort(self.idxs[:n], kind='stable')
        return self.idxs[:n][order], self.data[:n][order]


class Statistician:
    """Compute the mean, standard deviation and percentiles of an array.

    Args:
        collect_mean: Compute ``'mean'``.
        collect_std: Compute ``'std'``.
        percentile_sigmas: Percentiles (0 to 100) of ``'percentile'``; empty or
            None for none.
    """

    def __init__(self, collect_mean: bool, collect_std: bool,
                 percentile_sigmas: Sequence[float] | None) -> None:
        self.collect_mean = collect_mean
        self.collect_std = collect_std
        self.percentile_sigmas = tuple(percentile_sigmas or ())

    def __call__(self, x: NdArray, axis: int | tuple[int, ...] | None = 0,
                 dtype: DTypeSpec | None = None, xp: Xp | None = None) -> dict[str, Any]:
        """Return a dict of the statistics of ``x`` along ``axis`` (``None``: all values).

        Each value has ``dtype`` (``x``'s dtype when None). An empty ``x`` gives NaN.
        """
        if xp is None:
            xp = backend.get_array_module(x)
        if dtype is None:
            dtype = x.dtype
        stats: dict[str, Any] = {}
        empty = x.size == 0
        if self.collect_mean:
            stats['mean'] = xp.asarray(
                xp.nan if empty else xp.mean(x, axis=axis)).astype(dtype, copy=False)
        if self.collect_std:
            stats['std'] = xp.asarray(
                xp.nan if empty else xp.std(x, axis=axis)).astype(dtype, copy=False)
        if self.percentile_sigmas:
            if empty:
                value = xp.full(len(self.percentile_sigmas), xp.nan)
            else:
                value = xp.percentile(x, self.percentile_sigmas, axis=axis)
            stats['percentile'] = xp.asarray(value).astype(dtype, copy=False)
        return stats


def _variables(targets: Any) -> list[Any]:
    if isinstance(targets, (variable.Variable, link.Link)):
        targets = (targets,)
    found: list[variable.Variable] = []
    for target in targets:
        if isinstance(target, link.Link):
            found.extend(target.params())
        elif isinstance(target, variable.Variable):
            found.append(target)
        else:
            raise TypeError('VariableStatisticsPlot targets must be Variables or Links, got '
                            f'{type(target).__name__}')
    return found


class VariableStatisticsPlot(extension.Extension):
    """Plot the statistics of variables (or the parameters of links) over training.

    At every call it computes, over all the values of the targets' data and
    gradients, the mean, the standard deviation and the percentiles; it keeps a
    random sample of at most ``max_sample_size`` such records (reservoir
    sampling) and, when ``trigger`` fires, draws them against the iteration into
    ``trainer.out/filename`` (written atomically): one panel for the data and one
    for the gradients, the percentiles as shaded bands around the median.

    matplotlib is optional: without it the constructor warns and the extension
    does nothing.

    Args:
        targets: A Variable or Link, or a list of them (a Link stands for its
            parameters).
        max_sample_size: Number of records kept for the plot.
        report_data: Plot the statistics of the data.
        report_grad: Plot the statistics of the gradients.
        plot_mean: Plot the mean.
        plot_std: Plot the mean plus and minus the standard deviation.
        percentile_sigmas: Percentiles to plot (0 to 100, sorted, symmetric
            around 50 for the bands).
        trigger: When to redraw; ``(1, 'epoch')`` by default.
        filename: Image file name (``'statistics.png'`` by default); the
            deprecated keyword ``file_name`` is accepted too.
        figsize: matplotlib figure size; by default ``(6 * panels, 4)``.
        marker: matplotlib marker of the mean and std lines.
        grid: Draw a grid.

    Raises:
        ValueError: if neither data nor gradients are reported, or nothing is plotted.
        TypeError: for an unknown keyword argument or a target of another type.
    """

    def __init__(
        self,
        targets: link.Link | Variable | Sequence[link.Link | Variable],
        max_sample_size: int = 1000,
        report_data: bool = True,
        report_grad: bool = True,
        plot_mean: bool = True,
        plot_std: bool = True,
        percentile_sigmas: Iterable[float] = _PERCENTILE_SIGMAS,
        trigger: TriggerSpec = (1, 'epoch'),
        filename: str | None = None,
        figsize: tuple[float, float] | None = None,
        marker: str | None = None,
        grid: bool = True,
        **kwargs: Any,
    ) -> None:
        file_name = kwargs.pop('file_name', 'statistics.png')
        if kwargs:
            raise TypeError('VariableStatisticsPlot got unexpected keyword arguments: '
                            f'{sorted(kwargs)}')
        self._vars = _variables(targets)
        if not self._vars:
            raise ValueError('VariableStatisticsPlot needs at least one variable')
        self._keys = [k for k, wanted in (('data', report_data), ('grad', report_grad))
                      if wanted]
        if not self._keys:
            raise ValueError('VariableStatisticsPlot: report_data or report_grad must be true')
        self._percentile_sigmas = tuple(sorted(percentile_sigmas or ()))
        self._plot_mean = plot_mean
        self._plot_std = plot_std
        if not (plot_mean or plot_std or self._percentile_sigmas):
            raise ValueError('VariableStatisticsPlot: nothing to plot (no mean, std or '
                             'percentiles)')
        self._statistician = Statistician(
            collect_mean=plot_mean, collect_std=plot_std,
            percentile_sigmas=self._percentile_sigmas)
        self._filename = filename if filename is not None else file_name
        self._figsize = figsize
        self._marker = marker
        self._grid = grid
        self._trigger = get_trigger(trigger)
        self._available = _check_available()
        n_stats = int(plot_mean) + int(plot_std) + len(self._percentile_sigmas)
        self._samples = Reservoir(max_sample_size, (len(self._keys), n_stats))

    def __call__(self, trainer: Trainer) -> None:
        """Record the current statistics; redraw the figure when the trigger fires."""
        if not self._available:
            return
        n_stats = self._samples.data.shape[2]
        record = numpy.full((len(self._keys), n_stats), numpy.nan, dtype=numpy.float32)
        for i, key in enumerate(self._keys):
            arrays = [getattr(v, key) for v in self._vars]
            arrays = [backend.CpuDevice().send(a).ravel() for a in arrays if a is not None]
            if not arrays:
                continue
            stats = self._statistician(numpy.concatenate(arrays), axis=0, dtype=numpy.float32)
            parts = []
            if self._plot_mean:
                parts.append(numpy.atleast_1d(stats['mean']))
            if self._plot_std:
                parts.append(numpy.atleast_1d(stats['std']))
            if self._percentile_sigmas:
                parts.append(numpy.atleast_1d(stats['percentile']))
            record[i] = numpy.concatenate(parts)
        self._samples.add(record, idx=trainer.updater.iteration)
        if self._trigger(trainer):
            self._draw(trainer.out)

    def _draw(self, out: str) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        idxs, data = self._samples.get_data()
        n = len(self._keys)
        figure = Figure(figsize=self._figsize or (6 * n, 4))
        FigureCanvasAgg(figure)
        for i, key in enumerate(self._keys):
            axes = figure.add_subplot(1, n, i + 1)
            axes.set_title(key)
            axes.set_xlabel('iteration')
            if self._grid:
                axes.grid()
            self._plot_panel(axes, idxs, data[:, i, :])
            if axes.has_data():
                axes.legend(loc='best', fontsize='small')
        _, ext = os.path.splitext(self._filename)
        with files.atomic_path(os.path.join(out, self._filename)) as path:
            figure.savefig(path, format=ext[1:] or None, bbox_inches='tight')

    def _plot_panel(self, axes: Any, idxs: numpy.ndarray, stats: numpy.ndarray) -> None:
        column = 0
        mean = None
        if self._plot_mean:
            mean = stats[:, column]
            axes.plot(idxs, mean, marker=self._marker, label='mean')
            column += 1
        if self._plot_std:
            std = stats[:, column]
            center = mean if mean is not None else numpy.zeros_like(std)
            axes.plot(idxs, center + std, marker=self._marker, linestyle='--', color='gray',
                      label='mean + std')
            axes.plot(idxs, center - std, marker=self._marker, linestyle='--', color='gray',
                      label='mean - std')
            column += 1
        percentiles = stats[:, column:]
        k = percentiles.shape[1]
        for j in range(k // 2):  # bands from the outermost pair inwards
            alpha = 0.15 + 0.5 * (j + 1) / max(k // 2, 1)
            axes.fill_between(idxs, percentiles[:, j], percentiles[:, k - 1 - j],
                              color='tab:blue', alpha=min(alpha, 0.9) / 2, linewidth=0)
        if k % 2 == 1:
            axes.plot(idxs, percentiles[:, k // 2], color='tab:blue', linewidth=1,
                      label=f'percentile {self._percentile_sigmas[k // 2]:g}')

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the trigger's state (the samples are not kept in snapshots).

        Chainer v7 saved nothing: loading its snapshots leaves the trigger as it is.
        """
        if isinstance(self._trigger, IntervalTrigger):
            _serialize_own_state(self._trigger, serializer, 'trigger', 'previous_iteration')
