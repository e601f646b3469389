"""The ``static_graph`` decorator of Chainer v7 (``chainer.static_graph``).

v7 traced a static chain's forward on its first call and replayed the trace afterwards.
Here every call runs define-by-run (same results, same gradients); what v7 exposes for
inspection is kept: with ``chainer.config.use_static_graph`` on (the default), a decorated
chain gets a ``schedule_manager`` holding one :class:`StaticSchedule` per configuration and
input signature (the functions its forward called, recorded on the first such call), and
``static_schedule``, the schedule of its latest call. With the setting off, the decorator
simply calls the method, as in v7.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Hashable
from typing import Any

import numpy

import chainer
from chainer.function_hook import FunctionHook

__all__ = ['ArrayInfo', 'ScheduleInfo', 'ScheduleManager', 'StaticSchedule',
           'StaticScheduleFunction', 'static_graph']


class ArrayInfo:
    """The shape and dtype of an array a schedule saw (v7 kept one per traced array).

    Args:
        array: an array (or a Variable, whose array is read), or None.
    """

    def __init__(self, array: Any) -> None:
        array = getattr(array, 'array', array)
        self.shape: tuple[int, ...] | None = None if array is None else tuple(array.shape)
        self.dtype: numpy.dtype | None = None if array is None else array.dtype
        self.ndim: int | None = None if self.shape is None else len(self.shape)

    def matches(self, array: Any) -> bool:
        """Whether ``array`` has the recorded shape and dtype."""
        array = getattr(array, 'array', array)
        if array is None or self.shape is None:
            return array is None and self.shape is None
        return tuple(array.shape) == self.shape and array.dtype == self.dtype

    def __repr__(self) -> str:
        return f'<ArrayInfo shape={self.shape} dtype={self.dtype}>'


class StaticSchedule:
    """The functions one static forward called, in order (labels of their nodes).

    Args:
        key: the configuration and input signature the schedule belongs to.
        functions: the labels of the functions, in call order.
    """

    def __init__(self, key: Hashable, functions: list[str]) -> None:
        self.key = key
        self.functions = tuple(functions)

    def __len__(self) -> int:
        return len(self.functions)

    def __repr__(self) -> str:
        return f'<StaticSchedule of {len(self)} functions: {", ".join(self.functions)}>'


class ScheduleManager:
    """The schedules of one static chain (v7's ``chain.schedule_manager``).

    Args:
        verbosity_level: 2 or more prints a line for every schedule recorded.
    """

    def __init__(self, verbosity_level: int = 0) -> None:
        self.verbosity_level = verbosity_level
        self.schedules: dict[Hashable, StaticSchedule] = {}
        self.forward_count = 0

    def end_forward(self) -> None:
        """Mark the end of a forward pass (an iteration), as v7's static chains expect."""
        self.forward_count += 1

    def __repr__(self) -> str:
        return (f'<ScheduleManager: {len(self.schedules)} schedules, '
                f'{self.forward_count} forward passes ended>')


# v7's classes of a traced schedule: here a schedule records the functions one forward
# called and every call runs define-by-run, so both names are the schedule itself.
ScheduleInfo = StaticSchedule
StaticScheduleFunction = StaticSchedule


class _Recorder(FunctionHook):
    name = 'StaticGraphRecorder'

    def __init__(self) -> None:
        self.labels: list[str] = []

    def forward_preprocess(self, function: Any, in_data: tuple[Any, ...]) -> None:
        self.labels.append(function.label)


def _signature(value: Any) -> Hashable:
    """Shapes and dtypes of the arrays in ``value`` (nested lists and tuples allowed)."""
    if isinstance(value, (list, tuple)):
        return tuple(_signature(v) for v in value)
    array = getattr(value, 'array', value)
    if hasattr(array, 'shape') and hasattr(array, 'dtype'):
        return (tuple(array.shape), str(array.dtype))
    return type(value).__name__


def _wrap(func: Callable[..., Any], verbosity_level: int) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        # a method of a chain (duck-typed: links live in another distribution)
        chain = args[0] if args and hasattr(args[0], 'namedlinks') else None
        if chain is None or not chainer.config.use_static_graph:
            return func(*args, **kwargs)
        manager = chain.__dict__.get('schedule_manager')
        if manager is None:
            manager = ScheduleManager(verbosity_level)
            chain.schedule_manager = manager
        key = (bool(chainer.config.train), bool(chainer.config.enable_backprop),
               _signature(args[1:]),
               tuple((name, _signature(v)) for name, v in sorted(kwargs.items())))
        schedule = manager.schedules.get(key)
        if schedule is not None:
            out = func(*args, **kwargs)
        else:
            recorder = _Recorder()
            with recorder:
                out = func(*args, **kwargs)
            schedule = manager.schedules[key] = StaticSchedule(key, recorder.labels)
            if verbosity_level >= 2:
                print(f'static_graph: {type(chain).__name__} recorded {schedule!r}')
        chain.static_schedule = schedule
        return out

    return wrapped


def static_graph(*args: Any, **kwargs: Any) -> Any:
    """Chainer v7's static-graph decorator of a chain's ``forward`` (or ``__call__``).

    Usable bare (``@static_graph``) or with v7's options (``verbosity_level``,
    ``enable_double_backprop``, ``forward_convert``, ``backward_convert``,
    ``minimize_cache_size``; only ``verbosity_level`` has an effect here). The method
    runs define-by-run on every call; see the module docstring for the attributes it
    sets on the chain.

    Returns:
        The wrapped method (bare use), or a decorator returning it.
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _wrap(args[0], 0)
    if args:
        raise TypeError('static_graph takes keyword options only, e.g. '
                        '@static_graph(verbosity_level=1)')
    verbosity_level = int(kwargs.get('verbosity_level', 0))

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        return _wrap(func, verbosity_level)

    return decorator
