"""The ``static_graph`` decorator of Chainer v7 (``chainer.static_graph``).

A chain whose ``forward`` (or ``__call__``) is decorated computes the same graph on every
call with the same configuration and input shapes. Its first call with a given *signature*
(``config.train``, ``config.enable_backprop``, the shapes, dtypes and array types of the
array arguments, the values of the other arguments) runs define-by-run and records which
functions ran on which arrays (:mod:`chainer.graph_optimizations._trace`); later calls with
that signature replay the recording as one function node
(:mod:`chainer.graph_optimizations._replay`), with the same results and gradients and
without building the graph of each function again. A call records anew when the
chain's parameters are no longer those the recording used (a link added or replaced, a
parameter of another shape, dtype or array type).

With ``chainer.config.use_static_graph`` off the decorator simply calls the method, as
in v7. Calls in debug mode, while function hooks are registered, or of a chain decorated
with ``enable_double_backprop=True`` run define-by-run (the recording is kept). What v7
exposes for inspection is kept: ``chain.schedule_manager`` holds one
:class:`StaticSchedule` per signature and ``chain.static_schedule`` is the schedule of the
latest call. See ``docs/guides/static_graph.md`` for what a static forward may do.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Hashable
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer.configuration import config
from chainer.graph_optimizations import _trace
from chainer.graph_optimizations._replay import Replay
from chainer.variable import Parameter, Variable, _array_types

if TYPE_CHECKING:
    from chainer.types import VariableOrArray

__all__ = ['ArrayInfo', 'ScheduleInfo', 'ScheduleManager', 'StaticSchedule',
           'StaticScheduleFunction', 'static_graph']


class ArrayInfo:
    """The shape and dtype of an array a schedule saw (v7 kept one per traced array).

    Args:
        array: an array (or a Variable, whose array is read), or None.
    """

    def __init__(self, array: VariableOrArray | None) -> None:
        array = getattr(array, 'array', array)
        self.shape: tuple[int, ...] | None = None if array is None else tuple(array.shape)
        self.dtype: numpy.dtype | None = None if array is None else array.dtype
        self.ndim: int | None = None if self.shape is None else len(self.shape)

    def matches(self, array: VariableOrArray | None) -> bool:
        """Whether ``array`` has the recorded shape and dtype."""
        array = getattr(array, 'array', array)
        if array is None or self.shape is None:
            return array is None and self.shape is None
        return tuple(array.shape) == self.shape and array.dtype == self.dtype

    def __repr__(self) -> str:
        return f'<ArrayInfo shape={self.shape} dtype={self.dtype}>'


class StaticSchedule:
    """What one static forward did for one signature: its functions, and how to replay it.

    Args:
        key: the signature (configuration and arguments) the schedule belongs to.
        functions: the labels of the functions the forward called, in order.
        trace: the recording to replay (None: the forward cannot be replayed, e.g. it
            called a ``static_code`` function, and runs define-by-run).
        params: the chain's parameters when the recording was made.

    Attributes:
        reason: why the schedule is not replayed ('' when it is).
    """

    def __init__(self, key: Hashable, functions: list[str], trace: Any = None,
                 params: tuple[Parameter, ...] = (), reason: str = '') -> None:
        self.key = key
        self.functions = tuple(functions)
        self.trace = trace
        self.reason = reason
        self._params = params
        # the arrays of the parameters the recording used, as last checked, and their
        # types, shapes and dtypes
        self._arrays = [] if trace is None else [p._data for p in trace.params]
        self._signature = _param_signature(self._arrays)

    def __len__(self) -> int:
        return len(self.functions)

    def __repr__(self) -> str:
        return f'<StaticSchedule of {len(self)} functions: {", ".join(self.functions)}>'

    def matches(self, params: tuple[Parameter, ...]) -> bool:
        """Whether the chain's parameters ``params`` are those the recording used (the
        same objects, holding arrays of the same type, shape and dtype)."""
        mine = self._params
        if len(params) != len(mine) or not all(map(operator.is_, params, mine)):
            return False
        if self.trace is None:
            return True
        arrays = [p._data for p in self.trace.params]
        if all(map(operator.is_, arrays, self._arrays)):
            return True  # (the usual case: updated in place)
        if _param_signature(arrays) != self._signature:
            return False
        self._arrays = arrays
        return True

    def replay(self, leaves: list[Any]) -> Any:
        """Run the recording on the array arguments ``leaves``; return what the forward
        returns."""
        trace = self.trace
        outputs = Replay(trace).apply((*leaves, *trace.params))
        if trace.structure == 'var':
            return outputs[0]
        return _trace.rebuild(trace.structure, outputs)


def _param_signature(arrays: list[Any]) -> list[tuple[Any, ...]]:
    return [(type(a), a.shape, a.dtype) for a in arrays]


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
        """Mark the end of a forward pass (an iteration), as v7's static chains expect.

        Only counted here: each call replays into its own function node, so calls in
        flight need no reset.
        """
        self.forward_count += 1

    def __repr__(self) -> str:
        return (f'<ScheduleManager: {len(self.schedules)} schedules, '
                f'{self.forward_count} forward passes ended>')


# v7's classes of a traced schedule: both are the schedule itself here.
ScheduleInfo = StaticSchedule
StaticScheduleFunction = StaticSchedule


def _key(value: Any, leaves: list[Any]) -> Hashable:
    """The signature of an argument; its Variables and arrays are appended to ``leaves``."""
    array: Any
    if isinstance(value, Variable):
        array = value._data
        if array is None:
            raise TypeError('static_graph: an argument is a Variable without an array')
        leaves.append(value)
        return (type(array), array.shape, array.dtype)
    if isinstance(value, _array_types):
        leaves.append(value)
        array = value
        return (type(array), array.shape, array.dtype)
    if type(value) is tuple or type(value) is list:
        return (type(value), tuple([_key(v, leaves) for v in value]))
    try:
        hash(value)
    except TypeError:
        raise TypeError(
            'static_graph: the arguments of a static forward must be Variables, arrays, '
            'tuples or lists of them, or hashable values (part of the signature that '
            f'selects a recording), not {type(value).__name__}') from None
    return (type(value), value)


def _wrap(func: Callable[..., Any], verbosity_level: int, replay: bool) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapped(*args: Any, **kwargs: Any) -> Any:
        # a method of a chain (duck-typed: links live in another distribution)
        chain = args[0] if args and hasattr(args[0], 'namedlinks') else None
        if chain is None or not config.use_static_graph or _trace.active() is not None:
            # v7 forbids nesting: a static chain inside another runs as part of its trace
            return func(*args, **kwargs)
        manager = chain.__dict__.get('schedule_manager')
        if manager is None:
            manager = ScheduleManager(verbosity_level)
            chain.schedule_manager = manager
        leaves: list[Any] = []
        key = (bool(config.train), bool(config.enable_backprop), _key(args[1:], leaves),
               _key(tuple(sorted(kwargs.items())), leaves) if kwargs else ())
        schedule = manager.schedules.get(key)
        if schedule is not None:
            params = tuple(chain.params())
            if schedule.matches(params):
                chain.static_schedule = schedule
                if (schedule.trace is not None and replay and not config.debug
                        and not chainer._n_function_hooks):
                    return schedule.replay(leaves)
                return func(*args, **kwargs)
        tracer = _trace.Tracer(leaves)
        with tracer:
            out = func(*args, **kwargs)
        trace = tracer.finish(out) if tracer.replayable else None
        schedule = StaticSchedule(key, tracer.labels, trace, tuple(chain.params()),
                                  tracer.reason)
        manager.schedules[key] = schedule
        if verbosity_level >= 2:
            print(f'static_graph: {type(chain).__name__} recorded {schedule!r}')
        chain.static_schedule = schedule
        return out

    return wrapped


def static_graph(*args: Any, **kwargs: Any) -> Any:
    """Chainer v7's static-graph decorator of a chain's ``forward`` (or ``__call__``).

    The first call for a signature (configuration, argument shapes and dtypes) runs
    define-by-run and records the functions it applies; later calls replay the recording
    as one function node, skipping the graph bookkeeping of each function, with the same
    results and gradients. A static forward must compute the same functions on every call
    of a signature: no Python side effects (they run only when recording; put them in a
    :func:`~chainer.static_code` function, which makes the chain define-by-run), no
    control flow on array values, and outputs computed by chainer functions from the
    arguments and parameters (arrays and Variables without a graph made inside it are
    held as constants as they were when recorded; a Variable with a graph from outside is
    refused).

    Usable bare (``@static_graph``) or with v7's options: ``verbosity_level`` (2 or more
    prints each schedule recorded), ``enable_double_backprop`` (True keeps every call
    define-by-run, so that the gradients can be differentiated again; a replayed forward
    has a first-order backward only and raises for double backprop);
    ``forward_convert``, ``backward_convert`` and ``minimize_cache_size`` have no effect.

    Returns:
        The wrapped method (bare use), or a decorator returning it.

    Raises:
        ValueError: (from the decorated method) on recording, when a function gets a
            Variable computed outside the forward, or the forward returns something no
            function inside it computed.
        TypeError: for an argument that is neither an array, a Variable, a tuple or list
            of them, nor hashable.
        RuntimeError: for double backprop through a replayed forward.
    """
    if len(args) == 1 and not kwargs and callable(args[0]):
        return _wrap(args[0], 0, True)
    if args:
        raise TypeError('static_graph takes keyword options only, e.g. '
                        '@static_graph(verbosity_level=1)')
    verbosity_level = int(kwargs.get('verbosity_level', 0))
    replay = not kwargs.get('enable_double_backprop', False)

    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        return _wrap(func, verbosity_level, replay)

    return decorator
