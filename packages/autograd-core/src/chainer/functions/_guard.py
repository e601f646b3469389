"""The argument guard of ``chainer.functions``: errors that name the bad argument.

Every public function of ``chainer.functions`` carries the :func:`guarded`
decorator where it is defined (``@guarded`` above ``def relu(...)``), so that
``F.relu`` and ``chainer.functions.activation.relu.relu`` are the same guarded
function. The wrapper costs one call frame and a ``try`` on the normal path; all
the work happens only when the function raises:

* an ``AttributeError`` (a non-array used as an array deep inside) becomes a
  ``TypeError``; an ``OverflowError``, ``ZeroDivisionError`` or ``KeyError`` (an
  absurd size, an unknown option) becomes a ``ValueError``;
* a ``MemoryError`` in a call with an absurdly large number in an argument (a size
  of 2**31, a box of 1e30) becomes a ``ValueError`` naming that argument;
* a ``TypeError``, ``ValueError`` or ``IndexError`` whose message names none of the
  function's parameters gets the name of the argument found at fault (or, failing
  that, a summary of every argument) appended to its message; an ``InvalidType``
  gets the same text as an exception note (shown in the traceback, not in
  ``str(e)``, which stays Chainer v7's text).

The exception keeps its type (so ``except numpy.AxisError`` still works) and its
traceback; a translated one is chained to the original.

An error is explained once, by the function the caller called: when a guarded function
is called by the code of another one (``F.relu6`` calls ``F.clipped_relu``; only code of
``chainer.functions`` in between), the inner guard passes the error on untouched and the
outer one names its own argument. Whether that is so is looked up on the stack only once
an error is raised, so a call that does not raise costs what it did.
"""

from __future__ import annotations

import functools
import inspect
import re
import sys
from collections.abc import Callable, Iterator
from types import FrameType
from typing import Any, TypeVar, cast

from chainer import _chainerx_bridge
from chainer.utils.type_check import InvalidType
from chainer.utils.type_check import _add_note as add_note

# Set once a Variable over a ChainerX array exists (chainer._chainerx_bridge.activate):
# from then on a guarded function runs in the bridge's fallback mode.
_chainerx_active = False

_TRANSLATED: dict[type[BaseException], type[Exception]] = {
    AttributeError: TypeError,
    OverflowError: ValueError,
    ZeroDivisionError: ValueError,
    KeyError: ValueError,
}
_PLAIN = (TypeError, ValueError, IndexError)  # built from a message alone
_ANNOTATED = (*_PLAIN, InvalidType)
# what a guarded function catches to explain (the tuple built once)
_CAUGHT: tuple[type[BaseException], ...] = (*_ANNOTATED, *_TRANSLATED, MemoryError)
_ABSURD = 2**16  # a number this large, in a call that ran out of memory, is to blame
_QUOTED = re.compile(r"'([A-Za-z_][\w.]*)'")
_DTYPE = re.compile(r'dtype[ =]+(?:numpy\.)?([<>|=]?\w+)')


def guard(func: Callable[..., Any], label: str) -> Callable[..., Any]:
    """Wrap ``func`` so that its errors name the argument at fault (see the module)."""

    @functools.wraps(func)
    def call(*args: Any, **kwargs: Any) -> Any:
        try:
            if _chainerx_active:
                return _chainerx_bridge.call_function(func, args, kwargs)
            return func(*args, **kwargs)
        except _CAUGHT as e:
            if _called_by_guarded():
                raise  # the outer guarded function explains it, naming its own argument
            better = explain(func, label, args, kwargs, e)
            if better is e:
                raise
            raise better from e

    call._chainer_guarded = True  # type: ignore[attr-defined]
    return call


# the code of every guard's wrapper (``call`` above): one code object, shared by all
_WRAPPER_CODE = guard(lambda: None, '').__code__
_PACKAGE = __name__.rpartition('.')[0]  # 'chainer.functions'
_BRIDGE = _chainerx_bridge.__name__  # its frames run a guarded function's code too


def _called_by_guarded() -> bool:
    """Whether the guarded call now handling an error was made by another guarded
    function's code: a guard's wrapper up the stack with only frames of
    ``chainer.functions`` between (a user's callable in between, e.g. the function
    ``F.forget`` runs, makes the inner call the one its caller made)."""
    frame: FrameType | None = sys._getframe(2)  # above the wrapper that called this
    while frame is not None:
        if frame.f_code is _WRAPPER_CODE:
            return True
        module = frame.f_globals.get('__name__', '')
        if module != _PACKAGE and not module.startswith(_PACKAGE + '.') and \
                module != _BRIDGE:
            return False
        frame = frame.f_back
    return False


_F = TypeVar('_F', bound=Callable[..., Any])


def guarded(func: _F) -> _F:
    """Decorator for a public function of ``chainer.functions``: :func:`guard` it
    with the label ``F.<name>`` (the function keeps its name, signature and docs)."""
    return cast(_F, guard(func, 'F.' + func.__name__))


def names_argument(message: str, names: Any) -> bool:
    """Whether ``message`` mentions one of ``names`` as a word."""
    return any(re.search(rf'(?<![\w.]){re.escape(n)}(?!\w)', message) for n in names)


def explain(func: Callable[..., Any], label: str, args: tuple[Any, ...],
            kwargs: dict[str, Any], error: BaseException) -> BaseException:
    """The exception to raise for ``error``: itself (annotated if needed) or a
    translation into an allowed type naming the argument at fault."""
    try:
        bound = _bind(func, args, kwargs)
    except TypeError:
        return error  # a call that does not fit the signature: Python's message says so
    names = [n for n, _ in bound]
    message = str(error)
    if isinstance(error, MemoryError):
        huge = _huge(bound)
        if huge is None:
            return error  # a genuine shortage of memory, not an absurd argument
        return ValueError(f'{label}(): argument {huge[0]!r} is too large '
                          f'({_describe(huge[1])}): {message}')
    target = _TRANSLATED.get(type(error))
    if target is None and names_argument(message, names):
        return error
    culprit = _culprit(bound, message, error)
    if culprit is not None:
        name, value = culprit
        note = f'{label}(): argument {name!r} is at fault: {_describe(value)}'
    else:
        listed = ', '.join(f'{n}={_describe(v)}' for n, v in bound)
        note = f'{label}() was called with {listed}'
    if target is not None:
        new = target(f'{note} ({type(error).__name__}: {message})')
        return new
    return _annotate(error, note)


def _bind(func: Callable[..., Any], args: tuple[Any, ...],
          kwargs: dict[str, Any]) -> list[tuple[str, Any]]:
    """(name, value) of every argument passed; ``*args`` items as ``name[i]``."""
    sig = inspect.signature(func)
    ba = sig.bind(*args, **kwargs)
    out: list[tuple[str, Any]] = []
    for name, value in ba.arguments.items():
        kind = sig.parameters[name].kind
        if kind is inspect.Parameter.VAR_POSITIONAL:
            out.extend((f'{name}[{i}]', v) for i, v in enumerate(value))
        elif kind is inspect.Parameter.VAR_KEYWORD:
            out.extend(value.items())
        else:
            out.append((name, value))
    return out


def _is_array(value: Any) -> bool:
    return hasattr(value, 'shape') and hasattr(value, 'dtype')


def _items(name: str, value: Any, depth: int = 2) -> Iterator[tuple[str, Any]]:
    """``(name, value)`` and, for lists and tuples, their items (to ``depth`` levels)."""
    yield name, value
    if depth and isinstance(value, (list, tuple)):
        for i, v in enumerate(value[:64]):
            yield from _items(f'{name}[{i}]', v, depth - 1)


def _first_item(bound: list[tuple[str, Any]],
                test: Callable[[Any], bool]) -> tuple[str, Any] | None:
    """The first argument, or item of one (see :func:`_items`), that passes ``test``."""
    for name, value in bound:
        for item_name, item in _items(name, value):
            if test(item):
                return item_name, item
    return None


def _culprit(bound: list[tuple[str, Any]], message: str,
             error: BaseException) -> tuple[str, Any] | None:
    """The argument (or item of one) that most likely caused ``error``."""
    quoted = set(_QUOTED.findall(message))
    if isinstance(error, AttributeError):
        obj = getattr(error, 'obj', None)
        if obj is not None or 'NoneType' in quoted:
            found = _first_item(bound, lambda item: item is obj)
            if found is not None:
                return found
    if quoted:
        found = _first_item(
            bound, lambda item: not _is_array(item) and type(item).__name__ in quoted)
        if found is not None:
            return found
    dtypes = set(_DTYPE.findall(message))
    if dtypes:
        found = _first_item(bound, lambda item: _is_array(item) and str(item.dtype) in dtypes)
        if found is not None:
            return found
    # a non-array where the function plainly used one as an array
    if isinstance(error, (AttributeError, TypeError)):
        for name, value in bound:
            if value is None or isinstance(value, str):
                return name, value
    return None


def _magnitude(value: Any) -> float:
    """The largest absolute number in an int, float, sequence or small numeric array."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return abs(float(value)) if value == value else 0.0
    if _is_array(value):
        data = getattr(value, 'array', value)
        kind = getattr(getattr(data, 'dtype', None), 'kind', '')
        if kind in 'iuf' and 0 < data.size <= 4096:
            import numpy

            finite = numpy.abs(numpy.asarray(data, dtype=float))
            finite = finite[numpy.isfinite(finite)]
            return float(finite.max()) if finite.size else 0.0
        return 0.0
    if isinstance(value, (list, tuple)):
        return max((_magnitude(v) for v in value[:64]), default=0.0)
    return 0.0


def _huge(bound: list[tuple[str, Any]]) -> tuple[str, Any] | None:
    """The argument holding the largest number, when that number is absurd as a size."""
    best = max(bound, key=lambda item: _magnitude(item[1]), default=None)
    if best is None or _magnitude(best[1]) < _ABSURD:
        return None
    return best


def _describe(value: Any) -> str:
    """A short description of an argument for an error message."""
    if _is_array(value):
        kind = 'Variable' if type(value).__name__ == 'Variable' else type(value).__name__
        try:
            return f'{kind} of dtype {value.dtype} and shape {tuple(value.shape)}'
        except Exception:
            return kind
    if isinstance(value, (list, tuple)):
        return f'a {type(value).__name__} of {len(value)} item(s)'
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + '...'
    return f'{text} ({type(value).__name__})'


def _annotate(error: BaseException, note: str) -> BaseException:
    """``error`` with ``note`` appended to its message (in place when possible)."""
    if isinstance(error, InvalidType):
        # str(e) stays v7's text (programs compare it); the context goes in a note
        add_note(error, note)
        return error
    before = str(error)
    if error.args and isinstance(error.args[0], str):
        error.args = (f'{error.args[0]} [{note}]', *error.args[1:])
        if str(error) != before:
            return error
    text = f'{before} [{note}]'
    try:  # the same class built anew (e.g. numpy.AxisError formats its own message)
        new = type(error)(text)
        if str(new) == text:
            return new
    except Exception:
        pass
    for base in _PLAIN:  # (an InvalidType returned above)
        if isinstance(error, base):
            return base(text)
    return error
