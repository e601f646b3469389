"""Variables over ChainerX arrays: v7's NumPy/CuPy fallback.

A Variable over a ChainerX array keeps the NumPy or CuPy array behind it in ``_data``
(the same memory) and its device, a :class:`chainer.backend.ChainerxDevice`, in
``_chx``. Everything inside the graph (forward, backward, retained arrays, gradients,
optimizer updates) runs on the backing arrays, as v7 runs a ``FunctionNode`` without a
ChainerX implementation; the public accessors (``array``, ``grad``, ``xp``, ``device``)
present ChainerX arrays, and ``FunctionNode.apply`` marks its outputs with the device of
its inputs. ``chainerx`` is imported only once a ChainerX array or device shows up.

Chainer's own code sees the backing arrays: inside a backward pass and inside the
functions of ``chainer.functions`` (the *fallback mode* of this thread), the accessors
of a marked Variable give its NumPy/CuPy array, device and module, and the functions get
the ChainerX arrays among their arguments as the arrays behind them.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import backend

if TYPE_CHECKING:
    from chainer.variable import Variable

_backing: list[Any] = []  # chainerx.internal, once imported

#: Whether a Variable over a ChainerX array was ever made (see :func:`activate`).
active = False
# set by activate: chainer.Variable and chainerx.ndarray
_Variable: Any = None
_ndarray: Any = None
_array_types: tuple[type, ...] = ()  # numpy.ndarray (and cupy.ndarray)


class _Mode(threading.local):
    depth = 0


#: ``mode.depth`` > 0: this thread runs Chainer's own code (see the module).
mode = _Mode()


def _module() -> Any:
    if not _backing:
        import chainerx.internal  # layout: optional[chainerx]

        _backing.append(chainerx.internal)
    return _backing[0]


def activate() -> None:
    """Make ``FunctionNode.apply``, the backward pass and ``chainer.functions`` look for
    ChainerX Variables from now on (until then they skip the look-up: none exists)."""
    global active, _Variable, _ndarray, _array_types
    if active:
        return
    import chainerx  # layout: optional[chainerx]
    from chainer import function_node, variable
    from chainer.functions import _guard
    from chainer.variable import Variable

    _array_types = variable._array_types
    _Variable = Variable
    _ndarray = chainerx.ndarray
    active = True
    function_node._chainerx_active = True
    _guard._chainerx_active = True


def split(array: Any) -> tuple[Any, backend.ChainerxDevice]:
    """The backing array and the device of a ChainerX array.

    Raises:
        TypeError: when ``array`` is not a ChainerX array.
    """
    device = backend.ChainerxDevice.from_array(array)
    if device is None:
        raise TypeError(
            'the data of a Variable must be a numpy.ndarray or cupy.ndarray (or a '
            f'chainerx.ndarray, or None), not {type(array).__name__}')
    activate()
    return _module().backing(array), device


def is_chainerx_array(x: Any) -> bool:
    """Whether ``x`` is a ChainerX array."""
    return backend.ChainerxDevice.from_array(x) is not None


def array_of(var: Variable) -> Any:
    """The data of a marked Variable as a ChainerX array: the same object on every call
    while the data and the device stay (v7 keeps one view too)."""
    data = var._data
    if data is None:
        return None
    cached = getattr(var, '_chx_array', None)
    device = var._chx.device
    if cached is not None and cached[0] is data and cached[1].device is device:
        return cached[1]
    array = _module().wrap(data, device)
    var._chx_array = (data, array)
    return array


def device_of(inputs: Any) -> backend.ChainerxDevice | None:
    """The ChainerX device of the first marked Variable among ``inputs`` (None if none;
    called once :func:`activate` ran)."""
    variable = _Variable
    for x in inputs:
        if isinstance(x, variable) and x._chx is not None:
            return x._chx
    return None


def variables_of(inputs: Any) -> tuple[Any, ...] | None:
    """``inputs`` with each ChainerX array replaced by a Variable over it that needs no
    gradient; None when none of them is a ChainerX array."""
    from chainer.variable import Variable

    if is_chainerx_array(inputs):
        return None  # one array where a tuple of inputs belongs
    out = []
    found = False
    for x in inputs:
        if not isinstance(x, Variable) and x is not None and is_chainerx_array(x):
            x = Variable(x, requires_grad=False)
            found = True
        out.append(x)
    return tuple(out) if found else None


def mark(var: Variable, device: Any) -> None:
    """Mark ``var`` as being on ``device`` (None: a plain NumPy/CuPy Variable)."""
    if device is not None and not isinstance(device, backend.ChainerxDevice):
        device = None
    if device is not None:
        activate()
    var._chx = device
    var._chx_array = None


# id(var) -> (a weak reference to var, its fallback Variable); entries go with var.
# (A WeakKeyDictionary would compare Variables, which refuse comparisons.)
_FALLBACKS: dict[int, tuple[weakref.ref[Variable], Variable]] = {}


def _forget(key: int, ref: weakref.ref[Variable]) -> None:
    entry = _FALLBACKS.get(key)
    if entry is not None and entry[0] is ref:
        del _FALLBACKS[key]


def fallback(var: Variable) -> Variable | None:
    """The Variable over the NumPy/CuPy arrays behind a ChainerX Variable (v7's fallback
    variable, for optimizer updates), or None when ``var`` is not on a ChainerX device.

    It shares ``var``'s data and gradient (the same array objects, so updates in place
    show in ``var``) and is the same object on every call for one ``var``; see
    :func:`sync` for updates that replace the arrays instead.
    """
    if var._chx is None:
        return None
    key = id(var)
    entry = _FALLBACKS.get(key)
    if entry is None or entry[0]() is not var:
        from chainer.variable import Variable

        fb = Variable._new(var._data, var._requires_grad)
        fb._nd = var._nd
        ref = weakref.ref(var, lambda r: _forget(key, r))
        _FALLBACKS[key] = (ref, fb)
    else:
        fb = entry[1]
    fb._data = var._data
    fb._grad_var = var._grad_var
    fb._loss_scale = None  # a ChainerX gradient comes unscaled (v7): nothing to divide
    return fb


def sync(var: Variable, fb: Variable) -> None:
    """Adopt into ``var`` the data or gradient its fallback Variable ``fb`` was given
    (an update that assigned new arrays rather than writing in place)."""
    if fb._data is not var._data:
        var._data = fb._data
    if fb._grad_var is not var._grad_var:
        var._grad_var = fb._grad_var


def _to_backing(value: Any, found: list[Any]) -> Any:
    """``value`` with ChainerX arrays (also in a tuple or list) as their backing arrays;
    the first one's device is appended to ``found``."""
    if type(value) in (tuple, list):
        return type(value)(_to_backing(v, found) for v in value)
    if type(value) is not _ndarray:
        return value
    if not found:
        found.append(backend.ChainerxDevice.from_array(value))
    return _module().backing(value)


def _unmarked_outputs(out: Any) -> list[Any]:
    """The Variables among ``out`` (one, or a tuple or list) that are not marked."""
    return [y for y in (out if type(out) in (tuple, list) else (out,))
            if isinstance(y, _Variable) and y._chx is None]


def _needs_conversion(values: Any) -> bool:
    chx = _ndarray
    for v in values:
        t = type(v)
        if t is chx or t is tuple or t is list:
            return True
    return False


def call_function(func: Callable[..., Any], args: tuple[Any, ...],
                  kwargs: dict[str, Any]) -> Any:
    """Call a function of ``chainer.functions`` in the fallback mode: ChainerX arrays
    among its arguments (also in a tuple or list) are passed as their backing arrays,
    and the Variables it returns unmarked (made from arrays it took out of its
    arguments, e.g. ``F.accuracy``) are marked with the device of the first ChainerX
    argument, unless the function puts its output on a device of its own (``F.copy``:
    its ``_chainerx_sets_device``). A function whose ``_chainerx_array_outputs`` is set
    (``F.gaussian``'s noise) also has the NumPy/CuPy arrays of a tuple it returns sent to
    that device."""
    m = mode
    if m.depth:
        return func(*args, **kwargs)  # called by Chainer's own code: already converted
    found: list[Any] = []
    if _needs_conversion(args) or (kwargs and _needs_conversion(kwargs.values())):
        args = tuple([_to_backing(a, found) for a in args])
        if kwargs:
            kwargs = {k: _to_backing(v, found) for k, v in kwargs.items()}
    m.depth += 1
    try:
        out = func(*args, **kwargs)
    finally:
        m.depth -= 1
    if type(out) is _Variable and out._chx is not None:
        return out  # (the common case: apply marked it)
    unmarked = _unmarked_outputs(out)
    arrays_out = type(out) is tuple and getattr(func, '_chainerx_array_outputs', False)
    if (unmarked or arrays_out) and not getattr(func, '_chainerx_sets_device', False):
        device = found[0] if found else device_of(args)
        if device is None and kwargs:
            device = device_of(kwargs.values())
        if device is not None:
            for y in unmarked:
                mark(y, device)
            if arrays_out:
                out = tuple([device.send(v) if isinstance(v, _array_types) else v
                             for v in out])
    return out
