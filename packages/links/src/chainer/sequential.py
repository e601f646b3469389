"""Sequential: a list of callables applied one after the other."""

from __future__ import annotations

import copy as _copy
import inspect
import types
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, SupportsIndex, cast, overload

from chainer.link import ChainList, Link, _check_copy_mode, _indent


def _layer_name(layer: Any) -> str:
    if isinstance(layer, Link):
        return type(layer).__name__
    return getattr(layer, '__name__', type(layer).__name__)


def _check_callable(layer: Any) -> None:
    if not callable(layer):
        raise ValueError(
            f'All elements of a Sequential must be callable, but {layer!r} is not callable.')


class Sequential(ChainList):
    """A model that applies its layers in order: ``y = f_n(...f_2(f_1(x)))``.

    Layers may be links (registered as children, so their parameters are
    trained and saved, named ``'0'``, ``'1'``, ... in the order of the links)
    or any other callable such as ``chainer.functions.relu``. When a layer
    returns a tuple, the next layer receives its elements as arguments.

    Args:
        layers: the initial layers.

    Raises:
        ValueError: when a layer is not callable.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> model = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        >>> len(model)
        3
        >>> model(np.zeros((5, 3), np.float32)).shape
        (5, 2)
    """

    if TYPE_CHECKING:
        _layers: list[Callable[..., Any]]  # set through __dict__, as Link's tables

    def __init__(self, *layers: Callable[..., Any]) -> None:
        super().__init__()
        self.__dict__['_layers'] = []
        for layer in layers:
            self.append(layer)

    def _sync_children(self) -> None:
        # The children are the links among the layers, in layer order.
        children = [layer for layer in self._layers if isinstance(layer, Link)]
        for i, child in enumerate(children):
            child.name = str(i)
        self.__dict__['_children'] = children

    # -- list protocol -------------------------------------------------------------------
    def __len__(self) -> int:
        return len(self._layers)

    # A Sequential's layers are any callables (functions too), not only links.
    @overload  # type: ignore[override]
    def __getitem__(self, i: int) -> Callable[..., Any]: ...

    @overload
    def __getitem__(self, i: slice) -> list[Callable[..., Any]]: ...

    def __getitem__(self, i: int | slice) -> Callable[..., Any] | list[Callable[..., Any]]:
        """Return the layer at ``i`` (a list of layers for a slice)."""
        return self._layers[i]

    # Any callable (functions too), one at a time (no slices).
    def __setitem__(self, i: int, layer: Callable[..., Any]) -> None:  # type: ignore[override]
        _check_callable(layer)
        self._layers[i] = layer
        self._sync_children()

    def __delitem__(self, i: int | slice) -> None:
        del self._layers[i]
        self._sync_children()

    def __iter__(self) -> Iterator[Any]:
        return iter(self._layers)

    def __reversed__(self) -> Iterator[Any]:
        return reversed(self._layers)

    def __contains__(self, layer: object) -> bool:
        return any(x is layer or x == layer for x in self._layers)

    def __add__(self, other: Sequential) -> Sequential:
        """A new Sequential with the layers of both (links are shared, not copied).

        Raises:
            ValueError: when ``other`` is not a Sequential.
        """
        if not isinstance(other, Sequential):
            raise ValueError('add (+) operator supports only objects of Sequential class, '
                             f'but {type(other)} is given.')
        return Sequential(*self._layers, *other._layers)

    def __iadd__(self, other: ChainList) -> Sequential:
        if not isinstance(other, Sequential):
            raise ValueError('add (+=) operator supports only objects of Sequential class, '
                             f'but {type(other)} is given.')
        self.extend(other)
        return self

    def append(self, layer: Callable[..., Any]) -> None:
        """Add ``layer`` at the end."""
        self.insert(len(self._layers), layer)

    def add_link(self, link: Link) -> None:
        """Append a link (same as :meth:`append`)."""
        self.append(link)

    def insert(self, i: int, layer: Callable[..., Any]) -> None:
        """Insert ``layer`` before position ``i``.

        Raises:
            IndexError: when ``i`` is outside ``[-len(self), len(self)]``.
            ValueError: when ``layer`` is not callable.
        """
        n = len(self._layers)
        if not -n <= i <= n:
            raise IndexError(f'Index out of range: {i}')
        _check_callable(layer)
        self._layers.insert(i, layer)
        if isinstance(layer, Link):
            self._sync_children()

    def extend(self, sequential: Iterable[Callable[..., Any]]) -> None:
        """Append every layer of ``sequential``."""
        for layer in list(sequential):
            self.append(layer)

    def pop(self, i: int = -1) -> Callable[..., Any]:
        """Remove and return the layer at ``i`` (the last by default)."""
        layer = self._layers[i]
        del self[i]
        return layer

    def remove(self, layer: object) -> None:
        """Remove the first occurrence of ``layer``.

        Raises:
            ValueError: when ``layer`` is not in this Sequential.
        """
        for i, x in enumerate(self._layers):
            if x is layer or x == layer:
                del self[i]
                return
        raise ValueError(f'There is no layer object that is same as {layer}')

    def remove_by_layer_type(self, type_name: str) -> None:
        """Remove every layer whose class name (links) or ``__name__`` is ``type_name``."""
        self._layers[:] = [x for x in self._layers if _layer_name(x) != type_name]
        self._sync_children()

    def clear(self) -> None:
        """Remove every layer."""
        self._layers.clear()
        self._sync_children()

    def index(self, layer: Callable[..., Any], start: int | None = None,
              end: int | None = None) -> int:
        """Return the position of ``layer`` (searching ``[start, end)``)."""
        if start is None:
            start = 0
        if end is None:
            end = len(self._layers)
        return self._layers.index(layer, start, end)

    def count(self, layer: Callable[..., Any]) -> int:
        """Return the number of occurrences of ``layer``."""
        return self._layers.count(layer)

    def count_by_layer_type(self, type_name: str) -> int:
        """Return the number of layers whose class name or ``__name__`` is ``type_name``."""
        return sum(_layer_name(x) == type_name for x in self._layers)

    def flatten(self) -> Sequential:
        """Return a new Sequential with nested Sequentials expanded in place."""
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Sequential):
                ret.extend(layer.flatten())
            else:
                ret.append(layer)
        return ret

    # -- computation ------------------------------------------------------------------------
    def forward(self, *x: Any) -> Any:
        """Apply the layers in order to ``x``.

        Raises:
            RuntimeError: when there is no layer.
        """
        layers = self._layers
        if not layers:
            raise RuntimeError('Sequential does not have any layer.')
        for layer in layers:
            x = layer(*x) if isinstance(x, tuple) else layer(x)
        return x

    # -- copying ------------------------------------------------------------------------------
    def copy(self, mode: str = 'share') -> Sequential:
        """Copy the Sequential: links by :meth:`Link.copy` with ``mode``, others shallowly."""
        _check_copy_mode(mode)
        ret = Sequential()
        for layer in self._layers:
            if isinstance(layer, Link):
                ret.append(layer.copy(mode))
            else:
                ret.append(_copy.copy(layer))
        return ret

    def _copy_share(self) -> Sequential:
        return self.copy('share')

    def copyparams(self, link: Sequential, copy_persistent: bool = True) -> None:
        """Copy parameters of the links of the same-structured Sequential ``link``.

        Raises:
            ValueError: when ``link`` is not a Sequential.
        """
        if not isinstance(link, Sequential):
            raise ValueError('Objects other than Sequential object cannot be copied to a '
                             'Sequential object.')
        Link.copyparams(self, link, copy_persistent)
        for mine, theirs in zip(self._layers, link._layers, strict=True):
            if isinstance(mine, Link):
                # same structure: the layer at this place of ``link`` is a link too
                mine.copyparams(cast(Link, theirs), copy_persistent)

    def __deepcopy__(self, memo: dict[int, Any]) -> Sequential:
        # Deep copies work with lambda layers (shared, as functions are immutable),
        # although pickling refuses them.
        new = type(self).__new__(type(self))
        memo[id(self)] = new
        new.__dict__.update(_copy.deepcopy(self.__dict__, memo))
        return new

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        if any(_is_lambda(layer) for layer in self._layers):
            raise ValueError(
                'This Sequential holds a lambda function, which cannot be pickled: use '
                'functools.partial or a named function instead (or the "dill" package).')
        return super().__reduce_ex__(protocol)

    def __str__(self) -> str:
        reps = ''.join(_indent(f'({i}): {_layer_str(layer)},')
                       for i, layer in enumerate(self._layers))
        if reps:
            reps = '\n' + reps
        return f'{type(self).__name__}({reps})'


def _is_lambda(layer: Any) -> bool:
    return isinstance(layer, types.LambdaType) and layer.__name__ == '<lambda>'


def _lambda_source(func: Any) -> str | None:
    """The text of the lambda expression ``func`` was made from, if its source is known."""
    try:
        line = inspect.getsource(func)
    except (OSError, TypeError):
        return None
    start = line.find('lambda')
    if start < 0:
        return None
    depth = 0
    for end in range(start, len(line)):
        c = line[end]
        if c in '([{':
            depth += 1
        elif c in ')]}':
            if depth == 0:
                break
            depth -= 1
        elif (c == ',' and depth == 0) or c == '\n':
            break
    else:
        end = len(line)
    return line[start:end].strip()


def _layer_str(layer: Any) -> str:
    if isinstance(layer, Link):
        return str(layer)
    if _is_lambda(layer):
        source = _lambda_source(layer)
        if source:
            return source
    return repr(layer)
