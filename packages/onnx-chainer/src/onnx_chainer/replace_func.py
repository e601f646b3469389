"""Make a Python function show up as one node in the exported graph.

Code that computes on arrays directly (``x.array + 1``, ``numpy.full``) cuts the
Chainer graph, so the exporter cannot see it. Wrapping that code with
:func:`as_funcnode` (or :func:`fake_as_funcnode`) makes each call one
``FunctionNode`` named as you choose, whose inputs are the Variables among the
arguments and whose other arguments become attributes a converter reads
(``params.func.value``). Backward goes through the code's own graph, when it has one.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainer.utils import experimental

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs

RenameSpec = Sequence[tuple[int | str, str]] | None


def _flatten(structure: Any, leaf: Callable[[Any], bool]) -> list[Any]:
    found: list[Any] = []

    def walk(v: Any) -> None:
        if leaf(v):
            found.append(v)
        elif isinstance(v, (list, tuple)):
            for item in v:
                walk(item)
        elif isinstance(v, dict):
            for item in v.values():
                walk(item)
    walk(structure)
    return found


def _rebuild(structure: Any, leaf: Callable[[Any], bool], values: list[Any]) -> Any:
    it = iter(values)

    def walk(v: Any) -> Any:
        if leaf(v):
            return next(it)
        if isinstance(v, tuple):
            return tuple(walk(item) for item in v)
        if isinstance(v, list):
            return [walk(item) for item in v]
        if isinstance(v, dict):
            return {k: walk(item) for k, item in v.items()}
        return v
    return walk(structure)


def _is_variable(v: Any) -> bool:
    return isinstance(v, chainer.Variable)


def _is_output(v: Any) -> bool:
    return isinstance(v, (chainer.Variable, *chainer.get_array_types()))


class WrappedFunctionNode(chainer.FunctionNode):
    """One call of a wrapped Python function, as a node named ``name``.

    Args:
        name: the node's name; the exporter looks its converter up by it.
        func: the wrapped function.
        args: its positional arguments (Variables anywhere in them are the inputs).
        kwargs: its keyword arguments.
        attributes: ``{name: value}`` set on the node for converters.
    """

    def __init__(self, name: str, func: Callable[..., Any], args: tuple[Any, ...],
                 kwargs: dict[str, Any], attributes: dict[str, Any]):
        self.custom_function_node_name = name
        self.func = func
        self.args = args
        self.kwargs = kwargs
        for key, value in attributes.items():
            setattr(self, key, value)
        self._inner_inputs: list[chainer.Variable] = []
        self._inner_outputs: list[Any] = []
        self.output_structure: Any = None

    @property
    def label(self) -> str:
        return self.custom_function_node_name

    def forward(self, inputs: tuple[Any, ...]) -> tuple[Any, ...]:
        inner = [chainer.Variable(x) for x in inputs]
        args = _rebuild(self.args, _is_variable, inner[:len(_flatten(self.args, _is_variable))])
        kwargs = _rebuild(self.kwargs, _is_variable,
                          inner[len(_flatten(self.args, _is_variable)):])
        with chainer.using_config('enable_backprop', True):
            result = self.func(*args, **kwargs)
        outputs = _flatten(result, _is_output)
        if not outputs:
            raise ValueError(f'{self.custom_function_node_name}: the wrapped function returned '
                             'no Variable or array')
        self._inner_inputs = inner
        self._inner_outputs = outputs
        self.output_structure = result
        return tuple(y.array if isinstance(y, chainer.Variable) else y for y in outputs)

    def backward(self, target_input_indexes: tuple[int, ...],
                 grad_outputs: GradOutputs) -> GradInputs:
        pairs = [(y, gy) for y, gy in zip(self._inner_outputs, grad_outputs)
                 if gy is not None]
        if any(not isinstance(y, chainer.Variable) for y, _ in pairs):
            raise ValueError(
                f'{self.custom_function_node_name}: the wrapped function returns arrays, not '
                'Variables, so its outputs cannot be differentiated')
        targets = [self._inner_inputs[i] for i in target_input_indexes]
        if not pairs:
            return tuple(None for _ in targets)
        grads = chainer.grad([y for y, _ in pairs], targets,
                             grad_outputs=[gy for _, gy in pairs])
        return tuple(grads)


def _attributes(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any],
                rename_attributes: RenameSpec) -> dict[str, Any]:
    """The non-Variable arguments by parameter name (defaults included), renamed."""
    renames = dict(rename_attributes or ())
    attributes: dict[str, Any] = {}
    try:
        bound = inspect.signature(func).bind(*args, **kwargs)
        bound.apply_defaults()
        named = list(bound.arguments.items())
    except (TypeError, ValueError):
        named = [(str(i), a) for i, a in enumerate(args)] + list(kwargs.items())
    for index, (name, value) in enumerate(named):
        if _flatten(value, _is_variable):
            continue
        key = renames.get(index, renames.get(name, name))
        attributes[str(key)] = value
    return attributes


def _wrap(func: Callable[..., Any], name: str,
          rename_attributes: RenameSpec) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        node = WrappedFunctionNode(name, func, args, kwargs,
                                   _attributes(func, args, kwargs, rename_attributes))
        inputs = _flatten(args, _is_variable) + _flatten(kwargs, _is_variable)
        outputs = node.apply(inputs)
        return _rebuild(node.output_structure, _is_output, list(outputs))
    return wrapper


def fake_as_funcnode(alt_func: Callable[..., Any], name: str,
                     rename_attributes: RenameSpec = None,
                     experimental_warning: bool = True) -> Callable[..., Any]:
    """Wrap ``alt_func`` so that each call is one node named ``name``.

    Args:
        alt_func: the function (it may compute on arrays).
        name: the node's name, which external converters are keyed by.
        rename_attributes: ``[(position or parameter name, attribute name), ...]`` to
            give non-Variable arguments the attribute names a converter expects.
        experimental_warning: warn that this is an experimental API.

    Returns:
        The wrapped function; its Variable outputs keep the structure (lists, tuples,
        dicts) ``alt_func`` returns.
    """
    if experimental_warning:
        experimental('onnx_chainer.replace_func.fake_as_funcnode')
    return _wrap(alt_func, name, rename_attributes)


def as_funcnode(alt_func_name: str, rename_attributes: RenameSpec = None
                ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator form of :func:`fake_as_funcnode`: ``@as_funcnode('NumpyFull')``."""
    def decorator(func: Callable[..., Any]) -> Callable[..., Any]:
        return fake_as_funcnode(func, alt_func_name, rename_attributes, False)
    return decorator
