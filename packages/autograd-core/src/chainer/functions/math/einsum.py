"""Einstein summation."""

from __future__ import annotations

import string
from collections import Counter
from typing import Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions.math._util import cast_like, const
from chainer.utils import type_check
from chainer.variable import Variable, as_variable


class EinSum(FunctionNode):
    """``einsum`` with explicit subscripts (no ellipsis, output given)."""

    def __init__(self, in_subs: tuple[str, ...], out_sub: str) -> None:
        self.in_subs = in_subs
        self.out_sub = out_sub

    @property
    def label(self) -> str:
        return 'einsum'

    def check_type_forward(self, in_types: Any) -> None:
        type_check.argname(in_types, tuple(f'operand{i}' for i in range(len(in_types))))
        for t in in_types:
            type_check.expect(t.dtype.kind == 'f')
        for t, sub in zip(in_types, self.in_subs):
            type_check.expect(t.ndim == len(sub))

    def forward(self, inputs: Any) -> Any:
        self.retain_inputs(tuple(range(len(inputs))))
        xp = backend.get_array_module(*inputs)
        expr = ','.join(self.in_subs) + '->' + self.out_sub
        dtype = numpy.result_type(*inputs)
        if xp is numpy:
            y = numpy.einsum(expr, *inputs, optimize=len(inputs) > 1)
        else:
            y = xp.einsum(expr, *inputs)
        return utils.force_array(y, dtype),

    def backward(self, indexes: Any, grad_outputs: Any) -> Any:
        from chainer.functions.array.broadcast import broadcast_to
        from chainer.functions.array.reshape import reshape

        xs = self.get_retained_inputs()
        gy, = grad_outputs
        sizes: dict[str, int] = {}
        for x, sub in zip(xs, self.in_subs):
            for c, s in zip(sub, x.shape):
                sizes[c] = s
        used = set(''.join(self.in_subs)) | set(self.out_sub)
        fresh = [c for c in string.ascii_letters if c not in used]
        ret = []
        for i in indexes:
            sub = self.in_subs[i]
            others = [j for j in range(len(xs)) if j != i]
            avail = set(self.out_sub).union(*(self.in_subs[j] for j in others))
            uniq = ''.join(dict.fromkeys(sub))
            keep = ''.join(c for c in uniq if c in avail)
            g = EinSum((self.out_sub,) + tuple(self.in_subs[j] for j in others),
                       keep).apply((gy,) + tuple(xs[j] for j in others))[0]
            if keep != uniq:
                # Letters summed over in this operand only: the gradient is constant there.
                g = reshape(g, tuple(sizes[c] if c in keep else 1 for c in uniq))
                g = broadcast_to(g, tuple(sizes[c] for c in uniq))
            if uniq != sub:
                # Repeated letters (a diagonal): place the gradient on that diagonal.
                new_sub = []
                eyes = []
                eye_subs = []
                seen: set[str] = set()
                k = 0
                for c in sub:
                    if c in seen:
                        f = fresh[k]
                        k += 1
                        new_sub.append(f)
                        xp = backend.get_array_module(gy.array)
                        eyes.append(const(xp.eye(sizes[c], dtype=gy.dtype)))
                        eye_subs.append(c + f)
                    else:
                        seen.add(c)
                        new_sub.append(c)
                g = EinSum((uniq,) + tuple(eye_subs), ''.join(new_sub)).apply(
                    (g,) + tuple(eyes))[0]
            ret.append(cast_like(g, xs[i]))
        return tuple(ret)


def _parse(subscripts: str, shapes: list[tuple[int, ...]]) -> tuple[list[str], str]:
    """Expand ellipses and the implicit output of ``subscripts`` for operands of ``shapes``."""
    subscripts = subscripts.replace(' ', '')
    if '->' in subscripts:
        ins, out = subscripts.split('->', 1)
        if '->' in out:
            raise ValueError(f'einsum subscripts have more than one "->": {subscripts!r}')
    else:
        ins, out = subscripts, None
    in_subs = ins.split(',')
    if len(in_subs) != len(shapes):
        raise ValueError(f'einsum subscripts {subscripts!r} name {len(in_subs)} operands, '
                         f'but {len(shapes)} were given')
    used = {c for c in subscripts if c in string.ascii_letters}
    for c in subscripts:
        if c not in string.ascii_letters and c not in ',.->':
            raise ValueError(f'invalid character {c!r} in einsum subscripts {subscripts!r}')
    fresh = [c for c in string.ascii_letters if c not in used]
    n_ell = []
    for sub, shape in zip(in_subs, shapes):
        if '...' in sub:
            if sub.count('...') > 1 or '.' in sub.replace('...', '', 1):
                raise ValueError(f'invalid ellipsis in einsum subscripts {sub!r}')
            n = len(shape) - (len(sub) - 3)
        else:
            if '.' in sub:
                raise ValueError(f'invalid ellipsis in einsum subscripts {sub!r}')
            n = 0
            if len(sub) != len(shape):
                raise ValueError(f'einsum subscripts {sub!r} do not match an operand of '
                                 f'{len(shape)} dimensions')
        if n < 0:
            raise ValueError(f'einsum subscripts {sub!r} have more letters than the '
                             f'{len(shape)} dimensions of the operand')
        n_ell.append(n)
    n_max = max(n_ell, default=0)
    ell = ''.join(fresh[:n_max])
    in_subs = [sub.replace('...', ell[n_max - n:]) if '...' in sub else sub
               for sub, n in zip(in_subs, n_ell)]
    if out is None:
        counts = Counter(''.join(in_subs))
        out = ell + ''.join(sorted(c for c, k in counts.items() if k == 1 and c not in ell))
    else:
        if '...' in out:
            if out.count('...') > 1 or '.' in out.replace('...', '', 1):
                raise ValueError(f'invalid ellipsis in einsum output subscripts {out!r}')
            out = out.replace('...', ell)
        elif '.' in out:
            raise ValueError(f'invalid ellipsis in einsum output subscripts {out!r}')
        elif n_max:
            raise ValueError('einsum output subscripts need "..." where the operands have '
                             'one')
        if len(set(out)) != len(out):
            raise ValueError(f'einsum output subscripts {out!r} repeat a letter')
        missing = set(out) - set(''.join(in_subs))
        if missing:
            raise ValueError(f'einsum output letters {sorted(missing)} do not appear in the '
                             'operands')
    return in_subs, out


def einsum(*operands: Any) -> Variable:
    """Einstein summation over variables, as ``numpy.einsum``.

    ``einsum('ij,jk->ik', a, b)`` is a matrix product. Ellipses, the implicit output
    (letters used once, sorted) and repeated letters (diagonals) are supported; dimensions
    of length one broadcast against the others of their letter.

    Args:
        operands: the subscripts string followed by the float variables (of different
            dtypes, they combine in the promoted one and each gradient has its
            operand's dtype).

    Returns:
        The resulting variable.

    Raises:
        ValueError: for malformed subscripts or mismatched dimensions.
        chainer.utils.type_check.InvalidType: for non-float operands.
    """
    from chainer.functions.array.broadcast import broadcast_to

    if not operands or not isinstance(operands[0], str):
        raise TypeError('einsum needs a subscripts string as its first argument')
    xs = [as_variable(x) for x in operands[1:]]
    in_subs, out = _parse(operands[0], [x.shape for x in xs])
    sizes: dict[str, int] = {}
    for x, sub in zip(xs, in_subs):
        for c, s in zip(sub, x.shape):
            old = sizes.get(c)
            if old is None or old == 1:
                sizes[c] = s
            elif s not in (1, old):
                raise ValueError(f'einsum: dimension {c!r} has inconsistent lengths {old} '
                                 f'and {s}')
    for k, (x, sub) in enumerate(zip(xs, in_subs)):
        shape = tuple(sizes[c] for c in sub)
        if shape != x.shape:
            xs[k] = broadcast_to(x, shape)
    return EinSum(tuple(in_subs), out).apply(tuple(xs))[0]
