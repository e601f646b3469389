"""Reporter: collects observed values (losses, accuracies) under observer names."""

from __future__ import annotations

import contextlib
import json
import numbers
import threading
import warnings
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any, cast

import numpy

import chainer
from chainer.backends import cuda
from chainer.configuration import config

if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

    from chainer.serializer import AbstractSerializer
    from chainer.types import VariableOrArray

_thread = threading.local()


def _stack() -> list[Reporter]:
    try:
        return _thread.reporters
    except AttributeError:
        _thread.reporters = []
        return _thread.reporters


class Reporter:
    """Collects values reported during a computation.

    ``observation`` is the dict that receives the values; observers (links)
    are registered with a name, and values reported with ``observer=link`` are
    stored under ``'<name>/<key>'``.
    """

    def __init__(self) -> None:
        self._observer_names: dict[int, str] = {}
        self.observation: dict[str, Any] = {}

    def __enter__(self) -> Reporter:
        _stack().append(self)
        return self

    def __exit__(self, *args: object) -> None:
        _stack().pop()

    @contextlib.contextmanager
    def scope(self, observation: dict[str, Any]) -> Iterator[None]:
        """Make this reporter current and report into ``observation`` inside the block."""
        old = self.observation
        self.observation = observation
        self.__enter__()
        try:
            yield
        finally:
            self.__exit__(None, None, None)
            self.observation = old

    def add_observer(self, name: str, observer: object) -> None:
        """Register ``observer`` under ``name``."""
        self._observer_names[id(observer)] = name

    def add_observers(self, prefix: str, observers: Iterable[tuple[str, object]]) -> None:
        """Register ``(name, observer)`` pairs, each under ``prefix + name``."""
        for name, observer in observers:
            self._observer_names[id(observer)] = prefix + name

    def report(self, values: Mapping[str, Any], observer: object = None) -> None:
        """Store ``values`` in the current observation.

        Args:
            values: a dict of names to scalars, arrays or Variables. Variables
                are stored as their arrays unless ``config.keep_graph_on_report``.
            observer: the object that reports; its registered name prefixes the keys.

        Raises:
            KeyError: when ``observer`` is not registered.
        """
        if not config.keep_graph_on_report:
            # a graph-free Variable sharing the array, as Chainer v7 stores
            values = {k: (chainer.Variable._new(v._data, False)
                          if isinstance(v, chainer.Variable) else v)
                      for k, v in values.items()}
        if observer is not None:
            try:
                name = self._observer_names[id(observer)]
            except KeyError:
                raise KeyError('the given observer is not registered to the reporter: '
                               'register it with add_observer first') from None
            values = {f'{name}/{k}': v for k, v in values.items()}
        self.observation.update(values)


def get_current_reporter() -> Reporter:
    """Return the innermost active reporter.

    Raises:
        IndexError: when no reporter is active.
    """
    stack = _stack()
    if not stack:
        raise IndexError('no reporter is active: use "with reporter:" or reporter.scope()')
    return stack[-1]


def report(values: Mapping[str, Any], observer: object = None) -> None:
    """Report ``values`` to the current reporter (does nothing without one)."""
    stack = _stack()
    if stack:
        stack[-1].report(values, observer)


@contextlib.contextmanager
def report_scope(observation: dict[str, Any]) -> Iterator[None]:
    """Report into ``observation`` (a dict) inside the block."""
    current = get_current_reporter()
    old = current.observation
    current.observation = observation
    try:
        yield
    finally:
        current.observation = old


def _as_value(value: Any) -> Any:
    if isinstance(value, chainer.Variable):
        value = value.array
    return value


class Summary:
    """Online mean and standard deviation of a series of (weighted) values."""

    def __init__(self) -> None:
        self._reset()

    def _reset(self) -> None:
        # the running sums: Python floats, NumPy scalars or arrays, as added
        self._x: Any = 0.0
        self._x2: Any = 0.0
        self._n: Any = 0.0

    def add(self, value: VariableOrArray | float, weight: VariableOrArray | float = 1) -> None:
        """Add ``value`` (a scalar, array or Variable) with ``weight``."""
        value = _as_value(value)
        weight = _as_value(weight)
        self._x = self._x + weight * value
        self._x2 = self._x2 + weight * value * value
        self._n = self._n + weight

    def compute_mean(self) -> Any:
        """The weighted mean of the values added so far."""
        return self._x / self._n

    def make_statistics(self) -> tuple[Any, Any]:
        """The weighted mean and standard deviation."""
        mean = self._x / self._n
        var = self._x2 / self._n - mean * mean
        if numpy.isscalar(var):
            # a real scalar (a Python or NumPy float): the sums are of real values
            return mean, max(cast(float, var), 0) ** 0.5
        xp = cuda.get_array_module(var)
        return mean, xp.sqrt(xp.maximum(var, 0))

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the running sums."""
        try:
            self._x = serializer('_x', self._x)
            self._x2 = serializer('_x2', self._x2)
            self._n = serializer('_n', self._n)
        except KeyError:
            warnings.warn('the serialized Summary is incomplete; its state is reset')
            self._reset()


def _is_number(v: Any) -> bool:
    return isinstance(v, numbers.Number) or getattr(getattr(v, 'dtype', None), 'kind',
                                                     '') in 'biuf' and hasattr(v, 'dtype')


class DictSummary:
    """A :class:`Summary` per key of the dicts added."""

    def __init__(self) -> None:
        self._summaries: dict[str, Summary] = {}

    def add(self, d: dict[str, Any]) -> None:
        """Add the numeric values of ``d`` (a value may be a ``(value, weight)`` pair).

        Raises:
            ValueError: when a weight is not a scalar (or a 0-dim array or Variable).
        """
        for k, v in d.items():
            w = 1
            if isinstance(v, tuple):
                v, w = v
                w = _as_value(w)
                if not numpy.isscalar(w) and getattr(w, 'ndim', -1) != 0:
                    raise ValueError(f'the weight given to {k!r} is not a scalar')
            v = _as_value(v)
            if not _is_number(v):
                continue
            s = self._summaries.get(k)
            if s is None:
                s = self._summaries[k] = Summary()
            s.add(v, w)

    def compute_mean(self) -> dict[str, Any]:
        """The mean of every key."""
        return {k: s.compute_mean() for k, s in self._summaries.items()}

    def make_statistics(self) -> dict[str, Any]:
        """The mean of every key and the standard deviation as ``'<key>.std'``."""
        stats = {}
        for k, s in self._summaries.items():
            mean, std = s.make_statistics()
            stats[k] = mean
            stats[k + '.std'] = std
        return stats

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load every summary, in Chainer v7's layout.

        The keys are stored as a JSON list in ``_names`` and the summary of the
        ``i``-th key under ``_summaries/<i>``, so trainer snapshots (``LogReport``,
        ``PlotReport``, ...) of Chainer v7 load here and the other way round.
        """
        if isinstance(serializer, chainer.serializer.Serializer):
            names = list(self._summaries)
            serializer('_names', json.dumps(names))
            for i, name in enumerate(names):
                self._summaries[name].serialize(serializer['_summaries'][str(i)])
        else:
            try:
                names_text = serializer('_names', '')
            except KeyError:
                # saved by a version that stored nothing: start afresh, as v7 does
                warnings.warn('the serialized DictSummary holds no statistics; its state is '
                              'reset')
                self._summaries = {}
                return
            try:
                names = json.loads(str(names_text)) if str(names_text) else []
            except ValueError as e:
                raise ValueError(f'the key names of a DictSummary are not a JSON list: '
                                 f'{str(names_text)[:80]!r}') from e
            if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
                raise ValueError('the key names of a DictSummary are not a JSON list of '
                                 'strings')
            self._summaries = {}
            for i, name in enumerate(names):
                s = Summary()
                s.serialize(serializer['_summaries'][str(i)])
                self._summaries[name] = s
