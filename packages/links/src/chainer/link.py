"""Links: the building blocks of models that own parameters.

A :class:`Link` owns :class:`~chainer.Parameter` objects and persistent values;
a :class:`Chain` composes child links by name and a :class:`ChainList` by
index. Parameters and children are registered by assigning them to attributes
inside ``with self.init_scope():``.
"""

from __future__ import annotations

import contextlib
import copy as _copy
import operator
import warnings
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TypeVar, cast, overload

import numpy

from chainer import backend, device_resident, initializers, link_hook
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.device_resident import DeviceResidentsVisitor
    from chainer.sequential import Sequential
    from chainer.serializer import AbstractSerializer
    from chainer.types import DTypeSpec, InitializerSpec, NdArray, ScalarValue, ShapeSpec

# a Link subclass: copies and links of the same structure have the type of ``self``
_LinkT = TypeVar('_LinkT', bound='Link')
_ChainT = TypeVar('_ChainT', bound='Chain')
_ChainListT = TypeVar('_ChainListT', bound='ChainList')

_COPY_MODES = ('share', 'copy', 'init')


def _is_shape(value: Any) -> bool:
    if value is None:
        return True
    if isinstance(value, Sequence) and not isinstance(value, str):
        return all(_is_shape(v) for v in value)
    try:
        return operator.index(value) >= 0
    except TypeError:
        return False


def _shape_and_dtype(value: ShapeSpec | tuple[ShapeSpec, DTypeSpec]) -> tuple[Any, Any]:
    # ``Link(W=(3, 2))`` gives a float32 parameter; ``Link(W=((3, 2), 'f8'))``
    # names the dtype too.
    if _is_shape(value):
        return value, numpy.float32
    if isinstance(value, tuple) and len(value) == 2:
        return value
    raise TypeError(
        f'a parameter given to Link() must be a shape or a (shape, dtype) pair, not {value!r}')


def _describe_entry(serializer: AbstractSerializer, name: str) -> str:
    """The entry ``name`` of ``serializer`` as the deserializer names it in messages."""
    describe = getattr(serializer, 'describe', None)
    return describe(name) if describe is not None else repr(name)


def _array_types() -> tuple[type, ...]:
    cupy = backend.cuda.cupy
    if cupy is None:
        return (numpy.ndarray,)
    return (numpy.ndarray, cupy.ndarray)


def _check_copy_mode(mode: str) -> None:
    if mode not in _COPY_MODES:
        raise ValueError(f"copy mode must be one of {_COPY_MODES}, not {mode!r}")


def _check_link(link: object) -> Link:
    if not isinstance(link, Link):
        raise TypeError(
            f'cannot register a non-link object ({type(link).__name__}) as a child')
    return link


def _init_not_called() -> RuntimeError:
    return RuntimeError('Link.__init__() has not been called.')


def _indent(text: str) -> str:
    return ''.join(f'  {line}\n' for line in text.splitlines())


class Link(device_resident.DeviceResident):
    """Building block of models: a holder of parameters and persistent values.

    Parameters are :class:`~chainer.Parameter` objects assigned to attributes
    inside :meth:`init_scope` (or added by :meth:`add_param`); persistent values
    (:meth:`add_persistent`) are saved and loaded with the parameters but not
    optimized. Calling a link runs its ``forward`` method.

    Args:
        params: names of parameters to create, each mapped to a shape or to a
            ``(shape, dtype)`` pair; the data is filled with NaN.

    Attributes:
        name: the name given by the parent chain (None for a root link).

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> class Scale(chainer.Link):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.w = chainer.Parameter(np.array([2.], np.float32))
        ...     def forward(self, x):
        ...         return self.w * x
        >>> link = Scale()
        >>> [name for name, _ in link.namedparams()]
        ['/w']
        >>> link(np.array([3.], np.float32)).array
        array([6.], dtype=float32)
    """

    name: str | None
    if TYPE_CHECKING:
        # set through __dict__ in __init__ (so that __setattr__ does not register them)
        _params: set[str]
        _persistent: set[str]

    def __init__(self, **params: ShapeSpec | tuple[ShapeSpec, DTypeSpec]) -> None:
        super().__init__()
        d = self.__dict__
        d['_params'] = set()
        d['_persistent'] = set()
        d['_within_init_scope'] = False
        d['name'] = None
        d['_local_link_hooks'] = None
        for name, value in params.items():
            shape, dtype = _shape_and_dtype(value)
            self.add_param(name, shape, dtype=dtype)

    @classmethod
    def from_params(cls, *args: Any, **kwargs: Any) -> Link:
        """Build a link from existing parameter arrays (defined by some links).

        Raises:
            NotImplementedError: when the link class does not support it.
        """
        raise NotImplementedError(f'{cls.__name__} does not implement from_params()')

    # -- registration -----------------------------------------------------------
    @property
    def within_init_scope(self) -> bool:
        """True inside ``with self.init_scope():`` (where attributes register)."""
        return self.__dict__.get('_within_init_scope', False)

    @contextlib.contextmanager
    def init_scope(self) -> Iterator[None]:
        """Context in which assigned Parameters (and child links) are registered."""
        d = self.__dict__
        if '_params' not in d:
            raise _init_not_called()
        old = d['_within_init_scope']
        d['_within_init_scope'] = True
        try:
            yield
        finally:
            d['_within_init_scope'] = old

    def __setattr__(self, name: str, value: Any) -> None:
        if self.within_init_scope and isinstance(value, Parameter):
            value.name = name
            self._params.add(name)
            self._persistent.discard(name)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        self._params.discard(name)
        self._persistent.discard(name)
        super().__delattr__(name)

    def add_param(self, name: str, shape: ShapeSpec | None = None,
                  dtype: DTypeSpec = numpy.float32,
                  initializer: InitializerSpec | None = None) -> None:
        """Register a new parameter ``name``.

        Args:
            name: the attribute name of the parameter.
            shape: its shape; None leaves it uninitialized until
                ``param.initialize(shape)`` is called.
            dtype: the dtype used when no initializer is given (NaN fill).
            initializer: an initializer, scalar or array for the data.

        Raises:
            AttributeError: when the link already has an attribute ``name``.
        """
        d = self.__dict__
        if '_params' not in d:
            raise _init_not_called()
        if name in d:
            raise AttributeError(f'cannot register a new parameter {name}: attribute exists')
        if initializer is None:
            initializer = initializers.NaN(dtype)
        param = Parameter(initializer, shape)
        with self.init_scope():
            setattr(self, name, param)

    def add_persistent(self, name: str, value: NdArray | ScalarValue | None) -> None:
        """Register ``value`` as persistent attribute ``name`` (serialized, not trained).

        Raises:
            AttributeError: when the link already has an attribute ``name``.
        """
        d = self.__dict__
        if name in d:
            raise AttributeError(
                f'cannot register a new persistent value {name}: attribute exists')
        self._persistent.add(name)
        self._params.discard(name)
        d[name] = value

    def register_persistent(self, name: str) -> None:
        """Mark the existing attribute ``name`` as a persistent value.

        Raises:
            AttributeError: when the link has no attribute ``name``.
        """
        if not hasattr(self, name):
            raise AttributeError(
                f'cannot register non-existent attribute {name} as a persistent value')
        self._persistent.add(name)
        self._params.discard(name)

    # -- calling ------------------------------------------------------------------
    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        """Run :meth:`forward` with the given arguments (and the link hooks around it).

        A link without ``forward`` falls back to the ``__call__`` of a class
        later in its MRO (a mixin), as in v7.

        Raises:
            RuntimeError: when ``Link.__init__`` was not called.
            AttributeError: when there is neither ``forward`` nor an inherited ``__call__``.
        """
        d = self.__dict__
        try:
            local = d['_local_link_hooks']
        except KeyError:
            raise _init_not_called() from None
        try:
            forward = self.forward  # type: ignore[attr-defined]  # a subclass's method
        except AttributeError:
            forward = self._inherited_call()
        hooks = link_hook.get_link_hooks()
        if local:
            hooks = OrderedDict(hooks)
            hooks.update(local)
        if not hooks:
            return forward(*args, **kwargs)
        pre = link_hook._ForwardPreprocessCallbackArgs(self, 'forward', args, kwargs)
        for hook in hooks.values():
            hook.forward_preprocess(pre)
        out = forward(*args, **kwargs)
        post = link_hook._ForwardPostprocessCallbackArgs(self, 'forward', args, kwargs, out)
        for hook in hooks.values():
            hook.forward_postprocess(post)
        return out

    def _inherited_call(self) -> Any:
        try:
            return super().__call__  # type: ignore[misc]
        except AttributeError:
            raise AttributeError(
                f'{type(self).__name__} defines neither forward() nor __call__()') from None

    @property
    def local_link_hooks(self) -> OrderedDict[str, link_hook.LinkHook]:
        """The link hooks registered on this link (name -> hook)."""
        d = self.__dict__
        hooks = d.get('_local_link_hooks')
        if hooks is None:
            hooks = d['_local_link_hooks'] = OrderedDict()
        return hooks

    def add_hook(self, hook: link_hook.LinkHook, name: str | None = None) -> Link:
        """Register ``hook`` on this link; returns self.

        Raises:
            TypeError: when ``hook`` is not a :class:`~chainer.LinkHook`.
            KeyError: when a hook of the same name is registered.
        """
        if not isinstance(hook, link_hook.LinkHook):
            raise TypeError(f'Hook must be of type LinkHook, not {type(hook).__name__}')
        if name is None:
            name = hook.name
        hooks = self.local_link_hooks
        if name in hooks:
            raise KeyError(f'Hook {name} already exists')
        hooks[name] = hook
        hook.added(self)
        return self

    def delete_hook(self, name: str) -> None:
        """Unregister the hook called ``name``.

        Raises:
            KeyError: when there is no such hook.
        """
        hooks = self.local_link_hooks
        if name not in hooks:
            raise KeyError(f'Hook {name} does not exist')
        hooks[name].deleted(self)
        del hooks[name]

    # -- traversal ------------------------------------------------------------------
    def params(self, include_uninit: bool = True) -> Iterator[Parameter]:
        """Yield every parameter of the hierarchy (own ones first, names sorted).

        Args:
            include_uninit: also yield parameters whose data is not allocated yet.
        """
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            if include_uninit or param.array is not None:
                yield param

    def namedparams(self, include_uninit: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(path, param)`` pairs, paths like ``'/W'`` relative to this link."""
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            if include_uninit or param.array is not None:
                yield '/' + name, param

    def links(self, skipself: bool = False) -> Iterator[Link]:
        """Yield every link of the hierarchy, this one first unless ``skipself``."""
        if not skipself:
            yield self

    def namedlinks(self, skipself: bool = False) -> Iterator[tuple[str, Link]]:
        """Yield ``(path, link)`` pairs; this link has path ``'/'``."""
        if not skipself:
            yield '/', self

    def children(self) -> Iterator[Link]:
        """Yield the direct child links (none for a plain Link)."""
        return iter(())

    def count_params(self) -> int:
        """The total number of parameter elements (uninitialized ones warn and count 0)."""
        size = 0
        for path, param in self.namedparams():
            if param.array is None:
                warnings.warn(
                    f"Parameter '{path}' has not been initialized, so the resulting count "
                    'will not include the number of parameters in it.')
                continue
            size += param.array.size
        return size

    # -- gradients --------------------------------------------------------------------
    def cleargrads(self) -> None:
        """Set the gradient of every parameter to None."""
        for param in self.params():
            param.cleargrad()

    def zerograds(self) -> None:
        """Fill every gradient with zeros (deprecated: use :meth:`cleargrads`)."""
        warnings.warn('Link.zerograds is deprecated. Use Link.cleargrads instead.',
                      DeprecationWarning)
        for param in self.params():
            param.zerograd()

    def addgrads(self: _LinkT, link: _LinkT) -> None:
        """Add the gradients of the same-structured ``link`` to this link's ones."""
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            dst[name].addgrad(src[name])

    def copyparams(self: _LinkT, link: _LinkT, copy_persistent: bool = True) -> None:
        """Copy the parameter data (and persistent values) of ``link`` into this one.

        Gradients are not copied. Arrays are copied across devices as needed.
        """
        src = link.__dict__
        dst = self.__dict__
        for name in self._params:
            source = src[name]
            if source.array is None and dst[name].array is None:
                continue  # both still uninitialized: nothing to copy
            dst[name].copydata(source)
        if copy_persistent:
            array_types = _array_types()
            for name in self._persistent:
                d, s = dst[name], src[name]
                if isinstance(d, array_types) and isinstance(s, array_types):
                    backend.copyto(cast('NdArray', d), cast('NdArray', s))
                else:
                    dst[name] = _copy.deepcopy(s)

    # -- update switch ----------------------------------------------------------------
    @property
    def update_enabled(self) -> bool:
        """True if any parameter has an enabled update rule."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None and rule.enabled:
                return True
        return False

    def enable_update(self) -> None:
        """Enable the update rules of every parameter in the hierarchy."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = True

    def disable_update(self) -> None:
        """Disable the update rules of every parameter (freezes the link)."""
        for param in self.params():
            rule = param.update_rule
            if rule is not None:
                rule.enabled = False

    # -- copying ------------------------------------------------------------------------
    def copy(self: _LinkT, mode: str = 'share') -> _LinkT:
        """Copy the link hierarchy.

        Args:
            mode: ``'share'``: new Parameter objects sharing the arrays (gradients
                dropped); ``'copy'``: deep copy of everything; ``'init'``: deep copy
                with every initialized parameter re-drawn from its initializer.

        Returns:
            The copy (in ``'share'`` mode its ``name`` is reset to None).

        Raises:
            ValueError: for an unknown ``mode``.
        """
        _check_copy_mode(mode)
        if mode == 'share':
            return self._copy_share()
        ret = _copy.deepcopy(self)
        if mode == 'init':
            for param in ret.params(include_uninit=False):
                param.initialize(param.shape)
        return ret

    def _copy_share(self: _LinkT) -> _LinkT:
        ret = _copy.copy(self)
        d = ret.__dict__
        d['_params'] = set(self._params)
        d['_persistent'] = set(self._persistent)
        d['name'] = None
        local = d.get('_local_link_hooks')
        if local is not None:
            d['_local_link_hooks'] = OrderedDict(local)
        for name in ret._params:
            shared = _copy.copy(d[name])
            shared.cleargrad()
            d[name] = shared
        return ret

    def repeat(self, n_repeat: int, mode: str = 'init') -> Sequential:
        """Return a :class:`~chainer.Sequential` of ``n_repeat`` copies of this link.

        Args:
            n_repeat: the number of copies (0 or less gives an empty Sequential).
            mode: the :meth:`copy` mode of each copy (``'init'`` by default).
        """
        from chainer.sequential import Sequential

        _check_copy_mode(mode)
        ret = Sequential()
        for _ in range(n_repeat):
            ret.append(self.copy(mode))
        return ret

    # -- devices and serialization ------------------------------------------------------
    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` visit this link, its parameters and persistent arrays."""
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in sorted(self._params):
            visitor.visit_variable(d[name])
        array_types = _array_types()
        for name in sorted(self._persistent):
            value = d[name]
            # a ChainerX array too: to_device('@numpy') brings it back to NumPy
            if (isinstance(value, array_types)
                    or backend.ChainerxDevice.from_array(value) is not None):
                d[name] = visitor.visit_array(cast('NdArray', value))

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Save or load the parameters and persistent values with ``serializer``.

        Loading into an uninitialized parameter initializes it with the shape of
        the stored array.

        Raises:
            ValueError: when the array loaded for an uninitialized parameter is not
                numeric.
        """
        d = self.__dict__
        for name in sorted(self._params):
            param = d[name]
            data = serializer(name, param.array)
            if param.array is None and data is not None:
                kind = getattr(getattr(data, 'dtype', None), 'kind', '')
                if not kind or kind not in 'biuf':
                    raise ValueError(
                        f'cannot initialize parameter {name!r} from '
                        f'{_describe_entry(serializer, name)}: it holds '
                        f'{getattr(data, "dtype", type(data).__name__)} data, not numbers')
                param.initialize(data.shape)
                backend.copyto(cast('NdArray', param.array), data)
        for name in sorted(self._persistent):
            d[name] = serializer(name, d[name])

    # -- printing ------------------------------------------------------------------------
    @property
    def printable_specs(self) -> Iterator[tuple[str, Any]]:
        """``(name, value)`` pairs shown by ``str(link)`` (none by default)."""
        return iter(())

    def __str__(self) -> str:
        specs = ', '.join(f'{k}={v}' for k, v in self.printable_specs)
        return f'{type(self).__name__}({specs})'


class Chain(Link):
    """A link composed of named child links.

    Children are registered by assigning links to attributes inside
    ``with self.init_scope():`` or by :meth:`add_link`; their parameters appear
    under ``'/<child name>/...'`` paths.

    Args:
        links: child links, registered under their keyword names.

    Example:
        >>> import numpy as np
        >>> import chainer
        >>> import chainer.functions as F
        >>> import chainer.links as L
        >>> class MLP(chainer.Chain):
        ...     def __init__(self):
        ...         super().__init__()
        ...         with self.init_scope():
        ...             self.l1 = L.Linear(3, 4)
        ...             self.l2 = L.Linear(4, 2)
        ...     def forward(self, x):
        ...         return self.l2(F.relu(self.l1(x)))
        >>> model = MLP()
        >>> sorted(name for name, _ in model.namedparams())
        ['/l1/W', '/l1/b', '/l2/W', '/l2/b']
        >>> model(np.zeros((5, 3), np.float32)).shape
        (5, 2)
    """

    if TYPE_CHECKING:
        _children: set[str]  # names of the child links

    def __init__(self, **links: Link) -> None:
        super().__init__()
        self.__dict__['_children'] = set()
        for name, link in links.items():
            self.add_link(name, link)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.within_init_scope and isinstance(value, Link):
            if hasattr(self, name):
                raise AttributeError(f'cannot register a new link {name}: attribute exists')
            value.name = name
            self._children.add(name)
        super().__setattr__(name, value)

    def __delattr__(self, name: str) -> None:
        self._children.discard(name)
        super().__delattr__(name)

    def __getitem__(self, name: str) -> Any:
        """Return the attribute (typically a child link) called ``name``."""
        return getattr(self, name)

    def add_link(self, name: str, link: Link) -> None:
        """Register ``link`` as child ``name``.

        Raises:
            AttributeError: when the chain already has an attribute ``name``.
            TypeError: when ``link`` is not a Link.
        """
        if name in self.__dict__:
            raise AttributeError(f'cannot register a new link {name}: attribute exists')
        _check_link(link)
        with self.init_scope():
            setattr(self, name, link)

    def children(self) -> Iterator[Link]:
        """Yield the child links (sorted by name)."""
        d = self.__dict__
        for name in sorted(self._children):
            yield d[name]

    def params(self, include_uninit: bool = True) -> Iterator[Parameter]:
        """Yield the own parameters, then those of each child (sorted by name)."""
        yield from Link.params(self, include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].params(include_uninit)

    def namedparams(self, include_uninit: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(path, param)`` pairs, e.g. ``('/l1/W', param)``."""
        yield from Link.namedparams(self, include_uninit)
        d = self.__dict__
        for name in sorted(self._children):
            prefix = '/' + name
            for path, param in d[name].namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself: bool = False) -> Iterator[Link]:
        """Yield this chain (unless ``skipself``) and every link below it."""
        if not skipself:
            yield self
        d = self.__dict__
        for name in sorted(self._children):
            yield from d[name].links()

    def namedlinks(self, skipself: bool = False) -> Iterator[tuple[str, Link]]:
        """Yield ``(path, link)`` pairs: ``'/'`` for this chain, ``'/l1'`` for a child."""
        if not skipself:
            yield '/', self
        d = self.__dict__
        for name in sorted(self._children):
            child = d[name]
            prefix = '/' + name
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def copy(self: _ChainT, mode: str = 'share') -> _ChainT:
        """Copy the hierarchy (see :meth:`Link.copy` for the modes)."""
        return super().copy(mode)

    def _copy_share(self: _ChainT) -> _ChainT:
        ret = super()._copy_share()
        d = ret.__dict__
        d['_children'] = set(self._children)
        for name in ret._children:
            child = d[name]._copy_share()
            child.__dict__['name'] = name
            d[name] = child
        return ret

    def addgrads(self: _ChainT, link: _ChainT) -> None:
        """Add the gradients of the same-structured ``link`` (recursively)."""
        super().addgrads(link)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].addgrads(src[name])

    def copyparams(self: _ChainT, link: _ChainT, copy_persistent: bool = True) -> None:
        """Copy parameters (and persistent values) of ``link`` recursively."""
        super().copyparams(link, copy_persistent)
        src = link.__dict__
        dst = self.__dict__
        for name in self._children:
            dst[name].copyparams(src[name], copy_persistent)

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` visit this chain and then every child."""
        super().device_resident_accept(visitor)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].device_resident_accept(visitor)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Serialize own values, then each child under its name."""
        super().serialize(serializer)
        d = self.__dict__
        for name in sorted(self._children):
            d[name].serialize(serializer[name])

    def __str__(self) -> str:
        reps = ''.join(_indent(f'({child.name}): {child},') for child in self.children())
        if reps:
            reps = '\n' + reps
        return f'{type(self).__name__}({reps})'


class ChainList(Link):
    """A link composed of a list of child links, named ``'0'``, ``'1'``, ...

    Args:
        links: the initial child links.
    """

    if TYPE_CHECKING:
        _children: list[Link]

    def __init__(self, *links: Link) -> None:
        super().__init__()
        self.__dict__['_children'] = []
        for link in links:
            self.add_link(link)

    def __setattr__(self, name: str, value: Any) -> None:
        if self.within_init_scope and isinstance(value, Link):
            raise TypeError(
                'cannot register a new link within a "with chainlist.init_scope():" block; '
                'use add_link() or append()')
        super().__setattr__(name, value)

    @overload
    def __getitem__(self, index: int) -> Link: ...

    @overload
    def __getitem__(self, index: slice) -> list[Link]: ...

    def __getitem__(self, index: int | slice) -> Link | list[Link]:
        """Return the child at ``index`` (a list for a slice)."""
        return self._children[index]

    @overload
    def __setitem__(self, index: int, value: Link) -> None: ...

    @overload
    def __setitem__(self, index: slice, value: Iterable[Link]) -> None: ...

    def __setitem__(self, index: int | slice, value: Link | Iterable[Link]) -> None:
        """Replace the child at ``index`` (or the children of a slice) and renumber.

        Raises:
            TypeError: when a new child is not a Link.
        """
        if isinstance(index, slice):
            self._children[index] = [_check_link(link) for link in cast(Iterable[Link], value)]
        else:
            self._children[index] = _check_link(value)
        self._renumber()

    def __delitem__(self, index: int | slice) -> None:
        """Remove the child at ``index`` (or a slice) and renumber the rest."""
        del self._children[index]
        self._renumber()

    def __iadd__(self, other: ChainList) -> ChainList:
        """Append every child of the ChainList ``other``."""
        if not isinstance(other, ChainList):
            return NotImplemented
        for link in list(other):
            self.add_link(link)
        return self

    def __iter__(self) -> Iterator[Link]:
        return iter(self._children)

    def __len__(self) -> int:
        return len(self._children)

    def _renumber(self) -> None:
        for i, child in enumerate(self._children):
            child.name = str(i)

    def add_link(self, link: Link) -> None:
        """Append ``link`` as the last child.

        Raises:
            TypeError: when ``link`` is not a Link.
        """
        _check_link(link)
        link.name = str(len(self._children))
        self._children.append(link)

    def append(self, link: Link) -> None:
        """Append ``link`` as the last child (same as :meth:`add_link`)."""
        self.add_link(link)

    def insert(self, index: int, link: Link) -> None:
        """Insert ``link`` at ``index`` and renumber the following children."""
        _check_link(link)
        self._children.insert(index, link)
        self._renumber()

    def children(self) -> Iterator[Link]:
        """Yield the child links in order."""
        yield from self._children

    def params(self, include_uninit: bool = True) -> Iterator[Parameter]:
        """Yield the own parameters, then those of each child in order."""
        yield from Link.params(self, include_uninit)
        for child in self._children:
            yield from child.params(include_uninit)

    def namedparams(self, include_uninit: bool = True) -> Iterator[tuple[str, Parameter]]:
        """Yield ``(path, param)`` pairs, e.g. ``('/0/W', param)``."""
        yield from Link.namedparams(self, include_uninit)
        for idx, child in enumerate(self._children):
            prefix = f'/{idx}'
            for path, param in child.namedparams(include_uninit):
                yield prefix + path, param

    def links(self, skipself: bool = False) -> Iterator[Link]:
        """Yield this list (unless ``skipself``) and every link below it."""
        if not skipself:
            yield self
        for child in self._children:
            yield from child.links()

    def namedlinks(self, skipself: bool = False) -> Iterator[tuple[str, Link]]:
        """Yield ``(path, link)`` pairs: ``'/'`` for this list, ``'/0'`` for a child."""
        if not skipself:
            yield '/', self
        for idx, child in enumerate(self._children):
            prefix = f'/{idx}'
            yield prefix, child
            for path, link in child.namedlinks(True):
                yield prefix + path, link

    def copy(self: _ChainListT, mode: str = 'share') -> _ChainListT:
        """Copy the hierarchy (see :meth:`Link.copy` for the modes)."""
        return super().copy(mode)

    def _copy_share(self: _ChainListT) -> _ChainListT:
        ret = super()._copy_share()
        children = []
        for idx, child in enumerate(self._children):
            copied = child._copy_share()
            copied.__dict__['name'] = str(idx)
            children.append(copied)
        ret.__dict__['_children'] = children
        return ret

    def addgrads(self: _ChainListT, link: _ChainListT) -> None:
        """Add the gradients of the same-structured ``link`` (recursively)."""
        super().addgrads(link)
        for a, b in zip(self._children, link._children, strict=True):
            a.addgrads(b)

    def copyparams(self: _ChainListT, link: _ChainListT, copy_persistent: bool = True
                   ) -> None:
        """Copy parameters (and persistent values) of ``link`` recursively."""
        super().copyparams(link, copy_persistent)
        for a, b in zip(self._children, link._children, strict=True):
            a.copyparams(b, copy_persistent)

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` visit this list and then every child."""
        super().device_resident_accept(visitor)
        for child in self._children:
            child.device_resident_accept(visitor)

    def serialize(self, serializer: AbstractSerializer) -> None:
        """Serialize own values, then each child under its index."""
        super().serialize(serializer)
        for idx, child in enumerate(self._children):
            child.serialize(serializer[str(idx)])

    def __str__(self) -> str:
        reps = ''.join(_indent(f'({i}): {child},') for i, child in enumerate(self._children))
        if reps:
            reps = '\n' + reps
        return f'{type(self).__name__}({reps})'
