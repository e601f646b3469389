"""Helpers of v7's static graphs (``chainer.static_code``)."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer.graph_optimizations import _trace

if TYPE_CHECKING:
    from collections.abc import Sequence

    from chainer.function_node import FunctionNode
    from chainer.types import NdArray

__all__ = ['static_code', 'static_forward_optimizations']


def static_forward_optimizations(func: FunctionNode, inputs: Sequence[NdArray | None]) -> None:
    """v7 called this from ``FunctionNode.apply`` while tracing a static graph.

    Here the tracer of ``static_graph`` records function nodes through a function hook,
    so there is nothing to do: it checks that ``func`` is a function node and returns
    None.

    Raises:
        TypeError: when ``func`` has no ``forward``.
    """
    if not callable(getattr(func, 'forward', None)):
        raise TypeError(f'static_forward_optimizations: {func!r} is not a function node')


def static_code(*dec_args: Any, **dec_kwargs: Any) -> Any:
    """Mark code of a static forward that must run on every call (v7's side-effect code).

    A replayed static forward runs only the functions it recorded, so Python code in it
    runs only when it is recorded. A call of a function decorated with ``static_code``
    while a static forward is recorded makes that forward define-by-run for its
    signature: every call then runs all of its code, the decorated function included
    (v7 replayed the decorated function alone; the results are the same, the speed-up is
    lost). Outside a static forward the function runs as it is.

    Usable bare (``@static_code``) or with v7's options (ignored).
    """
    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(func)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            tracer = _trace.active()
            if tracer is not None:
                tracer.mark_unreplayable(f'it calls the static_code function '
                                         f'{getattr(func, "__name__", func)!r}')
            return func(*args, **kwargs)

        return wrapped

    if len(dec_args) == 1 and not dec_kwargs and callable(dec_args[0]):
        return decorator(dec_args[0])
    return decorator
