"""The ``PlotReport`` extension: plots reported values to an image file."""

from __future__ import annotations

import json
import os
import warnings
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import serializer as serializer_module
from chainer.backends import files
from chainer.training.extensions._summary_report import _SummaryReport

if TYPE_CHECKING:
    from chainer.serializer import AbstractSerializer
    from chainer.training.trainer import Trainer
    from chainer.training.util import TriggerSpec

_MISSING_MESSAGE = (
    'matplotlib is not installed, so PlotReport will not plot anything. '
    'Install it to plot figures: pip install matplotlib '
    "(or pip install 'chainer-training[plot]')"
)


def _matplotlib_available() -> bool:
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


def _check_available() -> bool:
    available = _matplotlib_available()
    if not available:
        warnings.warn(_MISSING_MESSAGE, stacklevel=3)
    return available


class PlotReport(_SummaryReport):
    """Plot the means of reported values against epochs or iterations.

    Like :class:`LogReport`, it accumulates the observation every iteration;
    when its trigger fires it appends the mean of each ``y_keys`` value to
    the series and redraws ``trainer.out/filename`` (written atomically)
    with matplotlib's Agg renderer, one line per key, with a legend.

    matplotlib is optional (``pip install 'chainer-training[plot]'``).
    Without it the constructor warns, :meth:`available` returns ``False`` and
    the extension does nothing.

    Args:
        y_keys: A key or a list of keys to plot.
        x_key: ``'iteration'`` or ``'epoch'``, the x axis.
        trigger: When to add a point and redraw; ``(1, 'epoch')`` by default.
        postprocess: Called as ``postprocess(figure, axes, summary)`` before
            saving, to customize the plot.
        filename: Image file name in ``trainer.out`` (``'plot.png'`` by
            default); the deprecated keyword ``file_name`` is accepted too.
            The extension decides the format (png, pdf, svg, ...).
        marker: matplotlib marker of the points (``'x'``); ``None`` for none.
        grid: Whether to draw a grid.

    Raises:
        TypeError: for an unknown keyword argument.
        ValueError: for an ``x_key`` other than ``'iteration'`` or ``'epoch'``.
    """

    def __init__(
        self,
        y_keys: str | Iterable[str],
        x_key: str = 'iteration',
        trigger: TriggerSpec = (1, 'epoch'),
        postprocess: Callable[[Any, Any, Any], Any] | None = None,
        filename: str | None = None,
        marker: str | None = 'x',
        grid: bool = True,
        **kwargs: Any,
    ) -> None:
        file_name = kwargs.pop('file_name', 'plot.png')
        if kwargs:
            raise TypeError(f'PlotReport got unexpected keyword arguments: {sorted(kwargs)}')
        if x_key not in ('iteration', 'epoch'):
            raise ValueError(f"x_key must be 'iteration' or 'epoch', got {x_key!r}")
        self._available = _check_available()
        if isinstance(y_keys, str):
            y_keys = (y_keys,)
        self._x_key = x_key
        self._y_keys = list(y_keys)
        self._file_name = filename if filename is not None else file_name
        self._marker = marker
        self._grid = grid
        self._postprocess = postprocess
        self._data: dict[str, list[tuple[float, float]]] = {k: [] for k in self._y_keys}
        self._init_report(self._y_keys, trigger)

    @staticmethod
    def available() -> bool:
        """Return whether matplotlib can be imported (and warn when it cannot)."""
        return _check_available()

    def __call__(self, trainer: Trainer) -> None:
        """Accumulate the observation; add points and redraw when the trigger fires."""
        if not self._available:
            return
        stats = self._observe(trainer)
        if stats is None:
            return
        updater = trainer.updater
        x = updater.epoch if self._x_key == 'epoch' else updater.iteration
        for key in self._y_keys:
            if key in stats:
                self._data[key].append((x, stats[key]))
        self._draw(trainer.out)
        self._init_summary()

    def _draw(self, out: str) -> None:
        from matplotlib.backends.backend_agg import FigureCanvasAgg
        from matplotlib.figure import Figure

        figure = Figure()
        FigureCanvasAgg(figure)
        axes = figure.add_subplot(111)
        axes.set_xlabel(self._x_key)
        if self._grid:
            axes.grid()
        for key in self._y_keys:
            points = self._data[key]
            if not points:
                continue
            xy = numpy.asarray(points)
            axes.plot(xy[:, 0], xy[:, 1], marker=self._marker, label=key)
        if not axes.has_data():
            return
        if self._postprocess is not None:
            self._postprocess(figure, axes, self._summary)
        legend = axes.legend(bbox_to_anchor=(1.05, 1), loc='upper left', borderaxespad=0.0)
        _, ext = os.path.splitext(self._file_name)
        options: dict[str, Any] = {}
        if ext.lower() == '.png':
            # Fast zlib level: the plot is redrawn at every trigger, size matters little.
            options['pil_kwargs'] = {'compress_level': 1}
        with files.atomic_path(os.path.join(out, self._file_name)) as path:
            figure.savefig(
                path,
                format=ext[1:] or None,
                bbox_extra_artists=(legend,),
                bbox_inches='tight',
                **options,
            )

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the trigger state, the running summary and the plotted points."""
        self._serialize_summary(serializer, 'PlotReport')
        if isinstance(serializer, serializer_module.Serializer):
            serializer('_plot_data', json.dumps(self._data))
        else:
            text = str(serializer('_plot_data', ''))
            if text:
                loaded = json.loads(text)
                self._data = {k: [tuple(p) for p in loaded.get(k, [])] for k in self._y_keys}
