"""Type checking of function inputs: a small expression language.

``check_type_forward`` implementations write conditions such as
``type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)``. Every
operand records how it was built, so a failed condition raises
:class:`InvalidType` whose message shows the expectation and the actual
values. Messages are formatted only when read.
"""

from __future__ import annotations

import operator
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, SupportsIndex, cast, overload

import numpy

from chainer.utils.error import ArgumentTypeError

if TYPE_CHECKING:
    from chainer.types import DTypeSpec, NdArray

_thread = threading.local()


class InvalidType(Exception):
    """Raised when the inputs of a function have unexpected types.

    Attributes:
        expect: the expected condition, as text.
        actual: the actual values, as text.
    """

    if sys.version_info < (3, 11):
        def add_note(self, note: str) -> None:
            """Python 3.10's stand-in for ``BaseException.add_note`` (3.11+): keeps
            ``note`` in ``__notes__`` (3.10's tracebacks do not show it)."""
            notes = self.__dict__.setdefault('__notes__', [])
            notes.append(note)

    def __init__(self, expect: object, actual: object, msg: str | None = None) -> None:
        super().__init__()
        self._expect = expect
        self._actual = actual
        self._msg = msg
        self._context: str | None = None
        # v7 reports a message of its own (``msg``: a broadcast failure, a wrong number
        # of arguments) without the "Invalid operation" header; set where this applies
        self._bare = False

    @property
    def expect(self) -> str:
        return str(self._expect)

    @property
    def actual(self) -> str:
        return str(self._actual)

    def __str__(self) -> str:
        # laid out as in v7, so that code matching its messages keeps working
        if self._msg is not None:
            text = self._msg.lstrip('\n')
        else:
            text = f'Expect: {self.expect}\nActual: {self.actual}'
        if self._context and not self._bare:
            return f'\nInvalid operation is performed in: {self._context} (Forward)\n\n{text}'
        if self._bare:
            return text
        return f'\n{text}'

    def __reduce__(self) -> Any:
        return (_rebuild_invalid_type,
                (self.expect, self.actual, self._msg, self._context, self._bare, type(self)),
                {'__notes__': self.__notes__} if hasattr(self, '__notes__') else None)


def _rebuild_invalid_type(expect: object, actual: object, msg: Any, context: Any,
                          bare: bool = False, cls: type[InvalidType] = InvalidType
                          ) -> InvalidType:
    e = cls.__new__(cls)
    InvalidType.__init__(e, expect, actual, msg)
    e._context = context
    e._bare = bare
    return e


def _recast(e: InvalidType, cls: type) -> InvalidType:
    """``e`` (its text, context and notes) as an instance of ``cls``, a subclass of
    InvalidType that is also another exception (ValueError, ...), so that both
    ``except`` forms catch it."""
    new = _rebuild_invalid_type(e._expect, e._actual, e._msg, e._context, e._bare, cls)
    for note in getattr(e, '__notes__', ()):
        new.add_note(note)
    return new


def _add_note(e: BaseException, note: str) -> None:
    """Attach the argument guard's ``note`` to ``e``: shown in tracebacks, not in
    ``str(e)`` (Python 3.11+), and kept in ``e._note``. A later call replaces the
    note of an earlier one (an outer function's call is the one the user made)."""
    notes = getattr(e, '__notes__', None)
    old = getattr(e, '_note', None)
    if notes is not None and old is not None and old in notes:
        notes.remove(old)
    e._note = note  # type: ignore[attr-defined]
    add = getattr(e, 'add_note', None)
    if add is not None:
        add(note)


def _bare(expect: Any, actual: Any, msg: str) -> InvalidType:
    """An InvalidType whose text is ``msg`` alone, as v7 writes its own messages."""
    e = InvalidType(expect, actual, msg)
    e._bare = True
    return e


def _repr(v: Any) -> str:
    """``v`` as source text: expressions as written, lists and tuples item by item."""
    if isinstance(v, Expr):
        return str(v)
    if isinstance(v, list):
        return f'[{", ".join(map(_repr, v))}]'
    if isinstance(v, tuple):
        if len(v) == 1:
            return f'({_repr(v[0])},)'
        return f'({", ".join(map(_repr, v))})'
    return repr(v)


def _str(v: Any) -> str:
    """A value as messages show it: ``str`` (``f``, ``float64``), lists item by item."""
    if isinstance(v, (list, tuple)):
        return _repr(v)
    if v is numpy.bool_:
        return "<class 'numpy.bool_'>"  # as v7 (NumPy 1) printed it; NumPy 2 says numpy.bool
    return str(v)


class Expr:
    """An expression whose value and construction are both known.

    Args:
        priority: its operator precedence, which decides where its text needs
            parentheses (0: never).
    """

    priority = 0

    def __init__(self, priority: int) -> None:
        self.priority = priority

    def eval(self) -> Any:
        """The value of the expression."""
        raise NotImplementedError

    def __bool__(self) -> bool:
        raise RuntimeError(
            'an Expr cannot be converted to bool: pass conditions to '
            'chainer.utils.type_check.expect(), or call .eval() for the value')

    def __getattr__(self, name: str) -> Expr:
        if name.startswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)

    def __getitem__(self, key: Any) -> Expr:
        return GetItem(self, key)

    def __call__(self, *args: Any) -> Expr:
        return Call(self, args)

    def __len__(self) -> int:
        return len(self.eval())

    __hash__ = object.__hash__

    if TYPE_CHECKING:
        # The operators below are set on the class at run time (see the loops after
        # it); they are declared here so that checks such as ``x.ndim == 2`` and
        # ``x.shape[0] + 1`` type-check as expressions. Comparisons build an Expr, not
        # a bool, hence the overrides of object's __eq__/__ne__.
        def __eq__(self, other: object) -> Expr: ...  # type: ignore[override]
        def __ne__(self, other: object) -> Expr: ...  # type: ignore[override]
        def __lt__(self, other: Any) -> Expr: ...
        def __le__(self, other: Any) -> Expr: ...
        def __gt__(self, other: Any) -> Expr: ...
        def __ge__(self, other: Any) -> Expr: ...
        def __neg__(self) -> Expr: ...
        def __pos__(self) -> Expr: ...
        def __invert__(self) -> Expr: ...
        def __add__(self, other: Any) -> Expr: ...
        def __radd__(self, other: Any) -> Expr: ...
        def __sub__(self, other: Any) -> Expr: ...
        def __rsub__(self, other: Any) -> Expr: ...
        def __mul__(self, other: Any) -> Expr: ...
        def __rmul__(self, other: Any) -> Expr: ...
        def __truediv__(self, other: Any) -> Expr: ...
        def __rtruediv__(self, other: Any) -> Expr: ...
        def __floordiv__(self, other: Any) -> Expr: ...
        def __rfloordiv__(self, other: Any) -> Expr: ...
        def __mod__(self, other: Any) -> Expr: ...
        def __rmod__(self, other: Any) -> Expr: ...
        def __pow__(self, other: Any) -> Expr: ...
        def __rpow__(self, other: Any) -> Expr: ...
        def __lshift__(self, other: Any) -> Expr: ...
        def __rlshift__(self, other: Any) -> Expr: ...
        def __rshift__(self, other: Any) -> Expr: ...
        def __rrshift__(self, other: Any) -> Expr: ...
        def __and__(self, other: Any) -> Expr: ...
        def __rand__(self, other: Any) -> Expr: ...
        def __xor__(self, other: Any) -> Expr: ...
        def __rxor__(self, other: Any) -> Expr: ...
        def __or__(self, other: Any) -> Expr: ...
        def __ror__(self, other: Any) -> Expr: ...


def _operand(v: Any) -> Expr:
    return v if isinstance(v, Expr) else Constant(v)


def _eval(v: Any) -> Any:
    """The value of ``v``: expressions evaluated, also inside lists and tuples."""
    if isinstance(v, Expr):
        return v.eval()
    if isinstance(v, list):
        return [_eval(x) for x in v]
    if isinstance(v, tuple):
        return tuple([_eval(x) for x in v])
    return v


class Atom(Expr):
    """A leaf of an expression: a constant or a named value (never parenthesized)."""

    priority = 8

    def __init__(self) -> None:
        super().__init__(Atom.priority)


class Constant(Atom):
    """A constant value."""

    def __init__(self, value: object) -> None:
        self.value = value

    def eval(self) -> Any:
        value = self.value
        if isinstance(value, (list, tuple)):
            return _eval(value)
        return value

    def __str__(self) -> str:
        return _str(self.value)


class Variable(Atom):
    """A named value (e.g. ``in_types``)."""

    def __init__(self, value: object, name: str) -> None:
        self.value = value
        self.name = name

    def eval(self) -> Any:
        return self.value

    def __str__(self) -> str:
        return self.name


class GetAttr(Expr):
    """``obj.name`` (``name`` a str, or an expression giving one)."""

    priority = 8

    def __init__(self, obj: Expr, name: str | Expr) -> None:
        self.obj = obj
        self.name = name

    def eval(self) -> Any:
        return getattr(self.obj.eval(), _eval(self.name))

    def __str__(self) -> str:
        name: object = self.name
        if isinstance(name, Constant):
            name = name.value
        if isinstance(name, str):
            return f'{_paren(self.obj, self.priority)}.{name}'
        return f'getattr({self.obj}, {_repr(name)})'


class GetItem(Expr):
    """``obj[key]``."""

    priority = 8

    def __init__(self, obj: Expr, key: object) -> None:
        self.obj = obj
        self.key = key

    def eval(self) -> Any:
        return self.obj.eval()[_eval_key(self.key)]

    def __str__(self) -> str:
        return f'{_paren(self.obj, self.priority)}[{_key_str(self.key)}]'


def _eval_key(key: Any) -> Any:
    if isinstance(key, tuple):
        return tuple(_eval_key(k) for k in key)
    if isinstance(key, slice):
        return slice(_eval(key.start), _eval(key.stop), _eval(key.step))
    return _eval(key)


def _key_str(key: Any) -> str:
    if isinstance(key, tuple):
        return ', '.join(_key_str(k) for k in key)
    if isinstance(key, slice):
        parts = ['' if p is None else _repr(p) for p in (key.start, key.stop)]
        text = ':'.join(parts)
        return text if key.step is None else f'{text}:{_repr(key.step)}'
    if key is Ellipsis:
        return '...'
    return _repr(key)


class Call(Expr):
    """``obj(*args)``."""

    priority = 8

    def __init__(self, obj: Expr, args: tuple[Any, ...]) -> None:
        self.obj = obj
        self.args = args

    def eval(self) -> Any:
        return self.obj.eval()(*[_eval(a) for a in self.args])

    def __str__(self) -> str:
        return f'{_paren(self.obj, self.priority)}({", ".join(map(_repr, self.args))})'


def _paren(e: Any, priority: int) -> str:
    text = str(e)
    if isinstance(e, Expr) and e.priority < priority and e.priority != 0:
        return f'({text})'
    return text


class BinaryOperator(Expr):
    """A binary operation between two expressions."""

    def __init__(self, priority: int, lhs: object, rhs: object, exp: str,
                 func: Callable[[Any, Any], Any], right_associative: bool = False) -> None:
        self.priority = priority
        self.lhs = _operand(lhs)
        self.rhs = _operand(rhs)
        self.exp = exp
        self.func = func
        self.right_associative = right_associative

    def eval(self) -> Any:
        return self.func(self.lhs.eval(), self.rhs.eval())

    def __str__(self) -> str:
        left = _paren(self.lhs, self.priority + (1 if self.right_associative else 0))
        right = _paren(self.rhs, self.priority + (0 if self.right_associative else 1))
        return f'{left} {self.exp} {right}'


class UnaryOperator(Expr):
    """A unary operation on an expression."""

    def __init__(self, priority: int, term: object, exp: str, func: Callable[[Any], Any]) -> None:
        self.priority = priority
        self.term = _operand(term)
        self.exp = exp
        self.func = func

    def eval(self) -> Any:
        return self.func(self.term.eval())

    def __str__(self) -> str:
        return f'{self.exp}{_paren(self.term, self.priority)}'


class Testable:
    """An expression :func:`expect` can test: it raises when the condition is false."""

    def expect(self) -> None:
        """Raise :class:`InvalidType` if the condition does not hold."""
        raise NotImplementedError


class BoolBinaryOperator(BinaryOperator, Testable):
    """A comparison such as ``x.ndim == 2``.

    Args:
        lhs, rhs: the operands (expressions or plain values).
        exp: the operator's text, e.g. ``'=='``.
        inv: the text of its negation, shown with the actual values, e.g. ``'!='``.
        func: the comparison itself.
    """

    def __init__(self, lhs: object, rhs: object, exp: str, inv: str,
                 func: Callable[[Any, Any], Any]) -> None:
        super().__init__(-1, lhs, rhs, exp, func)
        self.inv = inv

    def expect(self) -> None:
        """Raise :class:`InvalidType` if the comparison is false."""
        left = self.lhs.eval()
        right = self.rhs.eval()
        if not self.func(left, right):
            raise InvalidType(_Lazy(str, self), _Lazy(_actual_text, self, left, right))


class _Lazy:
    def __init__(self, fn: Any, *args: Any) -> None:
        self.fn = fn
        self.args = args

    def __str__(self) -> str:
        return self.fn(*self.args)


def _actual_text(expr: BoolBinaryOperator, left: Any, right: Any) -> str:
    return f'{_str(left)} {expr.inv} {_str(right)}'


def _binary(exp: str, priority: int, func: Any, right_assoc: bool = False) -> Any:
    def op(self: Any, other: Any) -> Expr:
        return BinaryOperator(priority, self, other, exp, func, right_assoc)

    def rop(self: Any, other: Any) -> Expr:
        return BinaryOperator(priority, other, self, exp, func, right_assoc)

    return op, rop


for _name, _exp, _prio, _func in [
        ('add', '+', 4, operator.add), ('sub', '-', 4, operator.sub),
        ('mul', '*', 5, operator.mul), ('truediv', '/', 5, operator.truediv),
        ('floordiv', '//', 5, operator.floordiv), ('mod', '%', 5, operator.mod),
        ('pow', '**', 7, operator.pow), ('lshift', '<<', 3, operator.lshift),
        ('rshift', '>>', 3, operator.rshift), ('and', '&', 2, operator.and_),
        ('xor', '^', 1, operator.xor), ('or', '|', 0, operator.or_)]:
    _op, _rop = _binary(_exp, _prio, _func, _name == 'pow')
    setattr(Expr, f'__{_name}__', _op)
    setattr(Expr, f'__r{_name}__', _rop)


def _compare(exp: str, inv: str, func: Any) -> Any:
    def op(self: Any, other: Any) -> BoolBinaryOperator:
        return BoolBinaryOperator(self, other, exp, inv, func)

    return op


for _name, _exp, _inv, _func in [('eq', '==', '!=', operator.eq), ('ne', '!=', '==', operator.ne),
                                 ('lt', '<', '>=', operator.lt), ('le', '<=', '>', operator.le),
                                 ('gt', '>', '<=', operator.gt), ('ge', '>=', '<', operator.ge)]:
    setattr(Expr, f'__{_name}__', _compare(_exp, _inv, _func))

Expr.__neg__ = lambda self: UnaryOperator(6, self, '-', operator.neg)  # type: ignore
Expr.__pos__ = lambda self: UnaryOperator(6, self, '+', operator.pos)  # type: ignore
Expr.__invert__ = lambda self: UnaryOperator(6, self, '~', operator.invert)  # type: ignore


class TypeInfo:
    """The shape and dtype of one input array."""

    def __init__(self, shape: tuple[int, ...], dtype: DTypeSpec) -> None:
        self.shape = shape
        self.dtype = dtype
        self.ndim = len(shape)

    @property
    def size(self) -> int:
        n = 1
        for s in self.shape:
            n *= s
        return n

    def __repr__(self) -> str:
        return f'<TypeInfo shape={self.shape} dtype={self.dtype}>'


class TypeInfoTuple(tuple):
    """A tuple of TypeInfo; ``size()`` is the number of inputs as an expression."""

    name = 'in_types'
    _names: tuple[str, ...] | None = None

    def _name_of(self, i: int) -> str:
        # an input keeps its name through negative indexes and slices, as in v7:
        # in_types[-1] of two inputs is ``in_types[1]``
        if self._names is not None:
            return self._names[i]
        return f'{self.name}[{i}]'

    @overload
    def __getitem__(self, key: SupportsIndex) -> Expr: ...
    @overload
    def __getitem__(self, key: slice) -> TypeInfoTuple: ...

    def __getitem__(self, key: SupportsIndex | slice) -> Expr | TypeInfoTuple:
        if isinstance(key, slice):
            sub = TypeInfoTuple(tuple.__getitem__(self, key))
            sub.name = self.name
            sub._names = tuple([self._name_of(i) for i in range(len(self))[key]])
            return sub
        value = tuple.__getitem__(self, key)
        i = operator.index(key)
        return _TypeExpr(value, self._name_of(i + len(self) if i < 0 else i))

    def __iter__(self) -> Iterator[Expr]:
        for i in range(len(self)):
            yield self[i]

    def size(self) -> Expr:
        """The number of inputs, as an expression."""
        return _Size(self)


class _Size(Expr):
    def __init__(self, types: TypeInfoTuple) -> None:
        self.types = types

    def eval(self) -> int:
        return len(self.types)

    def __str__(self) -> str:
        return f'{self.types.name}.size'  # as v7 writes it


class _TypeExpr(Variable):
    """A TypeInfo as an expression: ``.shape``, ``.dtype``, ``.ndim``, ``.size``."""

    def __getattr__(self, name: str) -> Expr:
        if name.startswith('__'):
            raise AttributeError(name)
        if name == 'dtype':
            return _DtypeGetAttr(self, name)
        return GetAttr(self, name)

    def size(self) -> Expr:
        return GetAttr(self, 'size')


class _DtypeGetAttr(GetAttr):
    def __getattr__(self, name: str) -> Expr:
        if name.startswith('__'):
            raise AttributeError(name)
        return GetAttr(self, name)


def get_types(data: Sequence[NdArray | None], name: str, accept_none: bool, *,
              shapes: Sequence[Sequence[int]] | None = None) -> TypeInfoTuple:
    """Build the TypeInfoTuple of ``data`` (a tuple of arrays) named ``name``.

    Args:
        data: the arrays (None entries allowed with ``accept_none``).
        name: the name of the tuple in messages.
        accept_none: whether None entries are allowed.
        shapes: shapes to report instead of the arrays' own (one per array).

    Raises:
        InvalidType: for a None entry without ``accept_none``.
        chainer.utils.error.ArgumentTypeError: (also an AssertionError, as
            in v7) when ``data`` is not a tuple or a list.
    """
    if not isinstance(data, (tuple, list)):
        raise ArgumentTypeError(f'data must be a tuple of arrays, not {type(data).__name__}')
    infos: list[TypeInfo | None] = []
    for i, x in enumerate(data):
        if x is None:
            if not accept_none:
                raise InvalidType('array', 'None', f'{name}: None is not accepted here')
            infos.append(None)
        else:
            infos.append(TypeInfo(x.shape if shapes is None else tuple(shapes[i]), x.dtype))
    t = TypeInfoTuple(infos)
    t.name = name
    return t


def get_function_check_context(f: object) -> Any:
    """Context in which type errors are reported as raised in the function ``f``."""
    return _FunctionContext(f)


class _FunctionContext:
    def __init__(self, function: Any) -> None:
        self.function = function

    def __enter__(self) -> None:
        pass

    def __exit__(self, exc_type: Any, exc: Any, tb: Any) -> None:
        if isinstance(exc, InvalidType) and exc._context is None:
            exc._context = getattr(self.function, 'label', type(self.function).__name__)


def expect(*bool_exprs: Any) -> None:
    """Check every condition; raise :class:`InvalidType` at the first false one.

    Args:
        *bool_exprs: comparisons built from type expressions, or plain bools
            (in light mode every condition is a plain value).

    Raises:
        InvalidType: naming the failed expectation and the actual values.
    """
    if in_light_mode():
        for e in bool_exprs:
            if isinstance(e, Testable):
                e.expect()
            elif not e:
                raise InvalidType('a true condition', f'{e!r}')
        return
    for e in bool_exprs:
        if isinstance(e, Testable):
            e.expect()
        elif isinstance(e, Expr):
            if not e.eval():
                raise InvalidType(_Lazy(str, e), 'False')
        elif not e:
            raise InvalidType('a true condition', f'{e!r}')


def same_types(*arrays: Any) -> bool:
    """Whether all arrays are of one array kind: all NumPy (subclasses included) or all CuPy."""
    kinds = {numpy.ndarray if isinstance(a, numpy.ndarray) else type(a)
             for a in arrays if a is not None}
    return len(kinds) <= 1


def eval(exp: object) -> Any:
    """Evaluate an expression (plain values are returned as they are)."""
    return _eval(exp)


def make_variable(value: object, name: str) -> Variable:
    """Make a named expression of ``value``."""
    return Variable(value, name)


def _make_variable_from_array(array: Any, name: str) -> Any:
    """A type expression named ``name`` of ``array`` (its ``shape``, ``dtype``, ``ndim``),
    for a check on an array that is not an input (v7's helper of this name). In light
    mode, the array itself."""
    if in_light_mode():
        return array
    return _TypeExpr(TypeInfo(tuple(array.shape), array.dtype), name)


def argname(in_types: TypeInfoTuple | LightTypeInfoTuple, names: Sequence[str]) -> None:
    """Name the inputs in messages (e.g. ``argname(in_types, ('x', 'W'))``)."""
    if isinstance(in_types, LightTypeInfoTuple):
        if len(in_types) != len(names):
            raise InvalidType(f'{len(names)} argument(s)', f'{len(in_types)} argument(s)')
        return
    if len(in_types) != len(names):
        # v7's text; the details are in expect/actual and in a note (Python 3.11+)
        e = _bare(f'{len(names)} argument(s)', f'{len(in_types)} argument(s)',
                  'Invalid number of arguments')
        if hasattr(e, 'add_note'):
            e.add_note(f'expected {len(names)} arguments ({", ".join(names)}), '
                       f'got {len(in_types)}')
        raise e
    if isinstance(in_types, TypeInfoTuple):
        in_types._names = tuple(names)


# The name Chainer v7's functions (and code modelled on them) call.
_argname = argname


class LightMode:
    """Context manager: checks run on plain values (shapes, dtypes), without
    building expressions. A failure raises InvalidType without details; callers
    that need the message check again outside light mode."""

    def __enter__(self) -> None:
        _thread.light_depth = getattr(_thread, 'light_depth', 0) + 1

    def __exit__(self, *args: Any) -> None:
        _thread.light_depth -= 1


light_mode = LightMode()


def in_light_mode() -> bool:
    """Whether type checks currently run in light mode."""
    return getattr(_thread, 'light_depth', 0) > 0


class LightTypeInfoTuple(tuple):
    """The light-mode counterpart of :class:`TypeInfoTuple`: the arrays themselves."""

    def size(self) -> int:
        """The number of inputs."""
        return len(self)


def get_light_types(data: Sequence[NdArray | None], *,
                    shapes: Sequence[Sequence[int]] | None = None) -> LightTypeInfoTuple:
    """The light-mode types of ``data``: the arrays themselves (they have shape, dtype,
    ndim and size), or, with ``shapes``, plain TypeInfos of those shapes."""
    if shapes is None:
        return LightTypeInfoTuple(data)
    return LightTypeInfoTuple(
        None if x is None else TypeInfo(tuple(shape), x.dtype) for x, shape in zip(data, shapes))


class _Prod(Expr):
    priority = 8

    def __init__(self, xs: Any) -> None:
        self.xs = xs

    def eval(self) -> int:
        n = 1
        for v in _eval(self.xs):
            n *= v
        return n

    def __str__(self) -> str:
        return f'prod({_repr(self.xs)})'


def prod(xs: Expr | Sequence[int | Expr]) -> Any:
    """The product of ``xs`` (e.g. a shape): an expression, or a number in light mode."""
    if not in_light_mode():
        return _Prod(xs)
    n = 1
    for v in cast('Sequence[int]', xs):  # plain ints in light mode
        n *= v
    return n




def expect_broadcast_shapes(*shape_types: Any, allow_none: bool = False) -> None:
    """Check that the shapes (expressions or tuples) broadcast together.

    Raises:
        InvalidType: naming the shapes when they do not broadcast.
    """
    shapes = [_eval(s) for s in shape_types]
    if allow_none and any(s is None for s in shapes):
        return
    try:
        numpy.broadcast_shapes(*shapes)
    except ValueError:
        lines = ['cannot broadcast inputs of the following shapes:']
        lines += [f'{t} = {s}' for t, s in zip(shape_types, shapes)]
        raise _bare('', '', '\n'.join(lines)) from None
