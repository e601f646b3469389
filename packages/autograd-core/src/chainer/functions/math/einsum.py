"""Einstein summation."""

from __future__ import annotations

import string
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math._util import cast_like
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from types import EllipsisType

    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray

# Integer labels of the sublist form map to letters in NumPy's order (0-25: A-Z, 26-51:
# a-z), so an implicit output sorts the same way.
_LABELS = string.ascii_uppercase + string.ascii_lowercase


def _split_subs(in_subs: str | Sequence[str]) -> tuple[str, ...]:
    return tuple(in_subs.split(',')) if isinstance(in_subs, str) else tuple(in_subs)


def _ellipsis_ndim(sub: str, ndim: int) -> int:
    return ndim - (len(sub) - 3) if '...' in sub else 0


def _expand(in_subs: Sequence[str], out_sub: str, ndims: Sequence[int]
            ) -> tuple[tuple[str, ...], str]:
    """Replace every ``...`` by letters unused elsewhere, one per dimension it covers."""
    used = set(''.join(in_subs)) | set(out_sub)
    fresh = ''.join(c for c in _LABELS if c not in used)
    n = max((_ellipsis_ndim(s, d) for s, d in zip(in_subs, ndims)), default=0)
    ell = fresh[:n]
    return tuple(s.replace('...', ell) for s in in_subs), out_sub.replace('...', ell)


class EinSum(FunctionNode):
    """Einstein summation of operands with explicit output subscripts.

    Args:
        in_subs: the subscripts of the operands, a comma-separated string or a sequence
            of strings (letters, at most one ``...`` each).
        out_sub: the subscripts of the output (unique letters and ``...`` where the
            operands have it).

    The lengths of a letter, and the dimensions covered by ``...``, must be the same in
    every operand (no broadcasting); the type check raises ``InvalidType`` otherwise.
    """

    def __init__(self, in_subs: str | Sequence[str], out_sub: str) -> None:
        self.in_subs = _split_subs(in_subs)
        self.out_sub = out_sub

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, tuple(f'operand{i}' for i in range(len(in_types))))
        type_check.expect(in_types.size() == len(self.in_subs))
        for t in in_types:
            type_check.expect(t.dtype.kind == 'f')
        first_ell = None  # (type, position of "...", letters after it)
        dims: dict[str, Any] = {}  # letter -> the first dimension it names
        for t, sub in zip(in_types, self.in_subs):
            head, ell, tail = sub.partition('...')
            if not ell:
                type_check.expect(t.ndim == len(sub))
                axes = list(enumerate(sub))
            else:
                type_check.expect(t.ndim >= len(head) + len(tail))
                ndim = type_check.eval(t.ndim)
                axes = list(enumerate(head)) + [(ndim - len(tail) + k, c)
                                               for k, c in enumerate(tail)]
                if first_ell is None:
                    first_ell = (t, len(head), len(tail))
                else:
                    # every "..." covers the same dimensions (no broadcasting)
                    t0, head0, tail0 = first_ell
                    type_check.expect(
                        t.ndim - (len(head) + len(tail)) == t0.ndim - (head0 + tail0))
                    for k in range(ndim - len(head) - len(tail)):
                        type_check.expect(t.shape[len(head) + k] == t0.shape[head0 + k])
            for axis, c in axes:
                if c in dims:
                    type_check.expect(t.shape[axis] == dims[c])
                else:
                    dims[c] = t.shape[axis]

    def _expanded(self, inputs: Any) -> tuple[tuple[str, ...], str]:
        return _expand(self.in_subs, self.out_sub, [x.ndim for x in inputs])

    def _einsum(self, xp: Any, in_subs: Sequence[str], out_sub: str, inputs: Any,
                dtype: Any) -> Any:
        expr = ','.join(in_subs) + '->' + out_sub
        work = numpy.float32 if dtype == numpy.float16 else dtype  # float16 loses digits
        inputs = [x.astype(work, copy=False) for x in inputs]
        if xp is numpy:
            y = numpy.einsum(expr, *inputs, optimize=len(inputs) > 2)
        else:
            y = xp.einsum(expr, *inputs)
        return utils.force_array(y, dtype)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        in_subs, out_sub = self._expanded(inputs)
        dtype = numpy.result_type(*[x.dtype for x in inputs])
        return self._einsum(xp, in_subs, out_sub, inputs, dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        xs = retained_inputs(self)
        gy, = grad_outputs
        in_subs, out_sub = self._expanded(xs)
        ret = []
        for i in indexes:
            others = [j for j in range(len(xs)) if j != i]
            # d(out)/d(x_i): the other operands and gy summed onto x_i's subscripts, which
            # may repeat a letter (a diagonal) or hold one of x_i alone (a broadcast).
            g = DiagEinSum((out_sub,) + tuple(in_subs[j] for j in others), in_subs[i],
                           xs[i].shape).apply((gy,) + tuple(xs[j] for j in others))[0]
            ret.append(cast_like(g, xs[i]))
        return tuple(ret)


class DiagEinSum(EinSum):
    """Einstein summation whose output may repeat a letter or hold letters of no operand.

    A repeated output letter places the values on that diagonal (zeros elsewhere); a
    letter of no operand repeats the values along it. Their lengths come from
    ``out_shape``. This is the adjoint of :class:`EinSum` (its gradients).

    Args:
        in_subs: the subscripts of the operands (comma-separated string or sequence).
        out_sub: the subscripts of the output (letters only).
        out_shape: the shape of the output.
    """

    def __init__(self, in_subs: str | Sequence[str], out_sub: str,
                 out_shape: Sequence[int]) -> None:
        super().__init__(in_subs, out_sub)
        self.out_shape = tuple(int(s) for s in out_shape)
        if len(self.out_shape) != len(out_sub):
            raise ValueError(f'out_shape {self.out_shape} does not match the output '
                             f'subscripts {out_sub!r}')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        dtype = numpy.result_type(*[x.dtype for x in inputs])
        in_subs, out_sub = self._expanded(inputs)
        present = set(''.join(in_subs))
        sizes = dict(zip(out_sub, self.out_shape))
        fresh = iter(c for c in _LABELS if c not in present and c not in out_sub)
        extra_subs = []
        extras = []
        new_out = []
        seen: set[str] = set()
        for c in out_sub:
            if c in seen:
                f = next(fresh)
                extra_subs.append(c + f)
                extras.append(xp.eye(sizes[c], dtype=dtype))
                new_out.append(f)
                continue
            seen.add(c)
            new_out.append(c)
            if c not in present:
                extra_subs.append(c)
                extras.append(xp.ones(sizes[c], dtype=dtype))
        y = self._einsum(xp, tuple(in_subs) + tuple(extra_subs), ''.join(new_out),
                         tuple(inputs) + tuple(extras), dtype)
        return y,


def _parse_sublists(args: Sequence[Any]) -> tuple[str, list[Any]]:
    """Turn the sublist form ``(x0, [0, 1], x1, [1, 2], [0, 2])`` into a subscripts string."""

    def sub(labels: Any) -> str:
        out = []
        for k in labels:
            if k is Ellipsis:
                out.append('...')
            elif isinstance(k, (int, numpy.integer)) and 0 <= k < len(_LABELS):
                out.append(_LABELS[k])
            else:
                raise ValueError(f'einsum subscript labels must be ints in [0, '
                                 f'{len(_LABELS)}) or Ellipsis, not {k!r}')
        return ''.join(out)

    operands = list(args[0::2][:len(args) // 2])
    subs = ','.join(sub(s) for s in args[1::2][:len(args) // 2])
    if len(args) % 2:
        subs += '->' + sub(args[-1])
    return subs, operands


def _check_sub(sub: str, what: str) -> None:
    letters = sub.replace('...', '', 1)
    if '.' in letters or any(c not in _LABELS for c in letters):
        raise ValueError(f'invalid einsum {what} subscripts {sub!r}')


def _parse(subscripts: str, ndims: Sequence[int]) -> tuple[tuple[str, ...], str]:
    """Split ``subscripts`` and make the output explicit.

    Raises:
        ValueError: for malformed subscripts, the wrong number of operands, output letters
            that no operand has, or an ellipsis summed away (undefined in v7).
    """
    subscripts = subscripts.replace(' ', '')
    ins, arrow, out = subscripts.partition('->')
    in_subs = tuple(ins.split(','))
    if len(in_subs) != len(ndims):
        raise ValueError(f'einsum subscripts {subscripts!r} name {len(in_subs)} operands, '
                         f'but {len(ndims)} were given')
    for s in in_subs:
        _check_sub(s, 'input')
    has_ell = any('...' in s for s in in_subs)
    letters = ''.join(s.replace('...', '') for s in in_subs)
    if not arrow:
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        return in_subs, ('...' if has_ell else '') + ''.join(once)
    _check_sub(out, 'output')
    out_letters = out.replace('...', '')
    if len(set(out_letters)) != len(out_letters):
        raise ValueError(f'einsum output subscripts {out!r} repeat a letter')
    missing = set(out_letters) - set(letters)
    if missing:
        raise ValueError(f'einsum output letters {sorted(missing)} appear in no operand')
    if '...' in out and not has_ell:
        raise ValueError(f'einsum output subscripts {out!r} have "..." but no operand has')
    if '...' not in out:
        for s, nd in zip(in_subs, ndims):
            if _ellipsis_ndim(s, nd) > 0:
                raise ValueError('einsum cannot sum over the dimensions of "...": the '
                                 f'output subscripts {out!r} must contain "..."')
    return in_subs, out


@guarded
def einsum(*operands: str | VariableOrArray | Sequence[int | EllipsisType]) -> Variable:
    """Einstein summation over variables, as ``numpy.einsum``.

    ``einsum('ij,jk->ik', a, b)`` is a matrix product. Ellipses, the implicit output
    (``...`` first, then the letters used once, sorted), repeated letters (diagonals) and
    NumPy's sublist form ``einsum(a, [0, 1], b, [1, 2], [0, 2])`` are supported. Unlike
    NumPy, dimensions do not broadcast: each letter, and ``...``, has one length.

    Args:
        operands: the subscripts string followed by the float variables (of different
            dtypes, they combine in the promoted one and each gradient has its
            operand's dtype), or the sublist form.

    Returns:
        The resulting variable.

    Raises:
        TypeError: when no subscripts are given.
        ValueError: for malformed subscripts, or an output that omits ``...``.
        chainer.utils.type_check.InvalidType: for non-float operands or mismatched
            dimensions.
    """
    if not operands:
        raise TypeError('einsum needs subscripts and operands')
    if isinstance(operands[0], str):
        subscripts, xs = operands[0], list(operands[1:])
    elif len(operands) > 1 and isinstance(operands[1], (list, tuple)):
        subscripts, xs = _parse_sublists(operands)
    else:
        raise TypeError('einsum needs a subscripts string as its first argument, or the '
                        'sublist form einsum(x0, sub0, x1, sub1, ...)')
    # the operands besides the subscripts: variables or arrays (as_variable rejects the rest)
    vs = [as_variable(cast('VariableOrArray', x)) for x in xs]
    in_subs, out = _parse(subscripts, [v.ndim for v in vs])
    return EinSum(in_subs, out).apply(tuple(vs))[0]
