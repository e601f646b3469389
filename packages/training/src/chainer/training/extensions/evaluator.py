"""The ``Evaluator`` extension: measures a model on a validation dataset."""

from __future__ import annotations

import copy
import sys
import warnings
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import backend, configuration, function
from chainer import reporter as reporter_module
from chainer.dataset import convert
from chainer.training import extension
from chainer.training._converter import call_converter, call_with_arrays
from chainer.training.extensions import util

if TYPE_CHECKING:
    from chainer.dataset.iterator import Iterator
    from chainer.link import Link
    from chainer.training.trainer import Trainer
    from chainer.types import DeviceSpec


class Evaluator(extension.Extension):
    """Evaluate a model on a validation iterator and report the mean metrics.

    At every trigger (``(1, 'epoch')`` by default) it sweeps the ``'main'``
    iterator once, calling ``eval_func`` on each converted batch in test mode
    (``chainer.config.train = False``) and without building a graph
    (``no_backprop_mode``). Values reported by the targets are averaged over
    the batches and reported to the trainer under the extension's name:
    with the default name ``'validation'``, a ``Classifier`` registered as
    ``'main'`` gives ``'validation/main/loss'``.

    The iterator is reset before each sweep when it has a ``reset`` method,
    otherwise a shallow copy is swept. It should be created with
    ``repeat=False``.

    Args:
        iterator: A dataset iterator, or a dict of them with a ``'main'`` entry.
        target: A link, or a dict of links with a ``'main'`` entry.
        converter: Batch converter (:func:`chainer.dataset.concat_examples`).
        device: Device the converted inputs are sent to.
        eval_hook: Called as ``eval_hook(evaluator)`` before each sweep.
        eval_func: Called on each batch; the ``'main'`` target by default.
        progress_bar (keyword): Show the progress of each sweep on stdout (the
            share of the dataset done when its length is known, and the speed).

    Raises:
        TypeError: for an unknown keyword argument.
    """

    trigger = (1, 'epoch')
    default_name = 'validation'
    priority = extension.PRIORITY_WRITER
    name = None

    def __init__(
        self,
        iterator: Iterator | dict[str, Iterator],
        target: Link | dict[str, Link],
        converter: Callable[..., Any] = convert.concat_examples,
        device: DeviceSpec | None = None,
        eval_hook: Callable[[Evaluator], Any] | None = None,
        eval_func: Callable[..., Any] | None = None,
        **kwargs: Any,
    ) -> None:
        progress_bar = kwargs.pop('progress_bar', False)
        if kwargs:
            raise TypeError(f'Evaluator got unexpected keyword arguments: {sorted(kwargs)}')
        if device is not None:
            device = backend.get_device(device)
        self._iterators = iterator if isinstance(iterator, dict) else {'main': iterator}
        self._targets = target if isinstance(target, dict) else {'main': target}
        self.converter = converter
        self.device = device
        self.eval_hook = eval_hook
        self.eval_func = eval_func
        self._progress_bar = bool(progress_bar)
        for key, it in self._iterators.items():
            if getattr(it, 'repeat', False):
                warnings.warn(
                    f'The iterator {key!r} of the Evaluator has repeat=True: a sweep over it '
                    'never ends. Create evaluation iterators with repeat=False.'
                )

    def get_iterator(self, name: str) -> Iterator:
        """Return the iterator named ``name``."""
        return self._iterators[name]

    def get_all_iterators(self) -> dict[str, Iterator]:
        """Return a new dict of all iterators by name."""
        return dict(self._iterators)

    def get_target(self, name: str) -> Link:
        """Return the target link named ``name``."""
        return self._targets[name]

    def get_all_targets(self) -> dict[str, Link]:
        """Return a new dict of all target links by name."""
        return dict(self._targets)

    def __call__(self, trainer: Trainer | None = None) -> dict[str, Any]:
        """Evaluate and report the results to the current reporter.

        Args:
            trainer: The trainer (unused; the evaluator may run on its own).

        Returns:
            A dict of the mean of every reported value, keyed
            ``'<name>/<target>/<key>'``.
        """
        reporter = reporter_module.Reporter()
        prefix = self.name + '/' if self.name is not None else ''
        for name, target in self._targets.items():
            reporter.add_observer(prefix + name, target)
            namedlinks = getattr(target, 'namedlinks', None)
            if namedlinks is not None:
                reporter.add_observers(prefix + name, namedlinks(skipself=True))
        with reporter, configuration.using_config('train', False):
            result = self.evaluate()
        reporter_module.report(result)
        return result

    def evaluate(self) -> dict[str, Any]:
        """Sweep the ``'main'`` iterator once and return the mean observation.

        It must run inside a reporter that knows the targets (as
        :meth:`__call__` sets up).
        """
        it = self._iterators['main']
        eval_func = self.eval_func if self.eval_func is not None else self._targets['main']
        if self.eval_hook is not None:
            self.eval_hook(self)
        if hasattr(it, 'reset'):
            it.reset()
        else:
            warnings.warn(
                f'{type(it).__name__} has no reset(); the Evaluator sweeps a shallow copy of it'
            )
            it = copy.copy(it)
        summary = reporter_module.DictSummary()
        progress = _EvaluationProgress(it) if self._progress_bar else None
        for batch in it:
            observation: dict[str, Any] = {}
            with reporter_module.report_scope(observation):
                in_arrays = call_converter(self.converter, batch, self.device)
                with function.no_backprop_mode():
                    call_with_arrays(eval_func, in_arrays)
            summary.add(observation)
            if progress is not None:
                progress.advance(len(batch))
        if progress is not None:
            progress.close()
        return summary.compute_mean()

    def finalize(self) -> None:
        """Finalize every iterator."""
        for it in self._iterators.values():
            it.finalize()


class _EvaluationProgress(util.ProgressBar):
    """Progress display of one sweep: examples done (of the dataset's length) and speed."""

    def __init__(self, iterator: Any, out: Any = None) -> None:
        super().__init__(sys.stdout if out is None else out)
        dataset = getattr(iterator, 'dataset', None)
        try:
            self._total: int | None = len(dataset) if dataset is not None else None
        except TypeError:
            self._total = None
        self._examples = 0
        self._iterations = 0
        self.start(0, 0.0)

    def advance(self, n_examples: int) -> None:
        """Count one batch of ``n_examples`` and redraw."""
        self._examples += n_examples
        self._iterations += 1
        self.update()

    def get_lines(self) -> list[str]:
        speed, _ = self.update_speed(self._iterations, 0.0)
        if self._total:
            lines = [util.format_bar('validation', self._examples / self._total, 50)]
        else:
            lines = [f'validation: {self._examples} examples\n']
        lines.append(f'{self._iterations:10} iters, {speed:10.5g} iters/sec.\n')
        return lines
