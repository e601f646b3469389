"""Window geometry shared by convolutions and pooling, on backend (NumPy or CuPy) arrays:
argument normalization, output sizes, padded inputs, views of every window, and the
accumulation of per-window values back into an image (col2im)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy

from chainerx._errors import DimensionError


def as_tuple(value: Any, n: int, name: str) -> tuple[int, ...]:
    """An int (repeated *n* times) or *n* ints as a tuple; DimensionError otherwise."""
    if isinstance(value, int | numpy.integer):
        return (int(value),) * n
    t = tuple(int(v) for v in value)
    if len(t) != n:
        raise DimensionError(f'{name} has {len(t)} values for {n} spatial dimensions')
    return t


def out_size(size: int, k: int, s: int, p: int, cover_all: bool) -> int:
    """The number of windows along one axis (*cover_all*: the last partial one too)."""
    if cover_all:
        return (size + 2 * p - k + s - 1) // s + 1
    return (size + 2 * p - k) // s + 1


def out_sizes(spatial: Sequence[int], k: Sequence[int], s: Sequence[int],
              p: Sequence[int], cover_all: bool) -> tuple[int, ...]:
    """:func:`out_size` per axis; DimensionError when one is not positive."""
    out = tuple(out_size(n, kk, ss, pp, cover_all) for n, kk, ss, pp in zip(spatial, k, s, p))
    if any(o <= 0 for o in out):
        raise DimensionError(f'no window fits: input {tuple(spatial)}, kernel {tuple(k)}, '
                             f'stride {tuple(s)}, pad {tuple(p)}')
    return out


def _as_strided(xp: Any, a: Any, shape: tuple[int, ...], strides: tuple[int, ...]) -> Any:
    return xp.lib.stride_tricks.as_strided(a, shape=shape, strides=strides)


def padded(xp: Any, x: Any, k: Sequence[int], s: Sequence[int], p: Sequence[int],
           out: Sequence[int], value: Any = 0) -> Any:
    """*x* (N, C, *spatial) padded by *p* on each side, and further on the high side as
    far as the last of *out* windows reaches."""
    widths = [(0, 0), (0, 0)]
    for n, kk, ss, pp, o in zip(x.shape[2:], k, s, p, out):
        reach = (o - 1) * ss + kk
        widths.append((pp, max(pp, reach - n - pp)))
    if all(a == 0 and b == 0 for a, b in widths):
        return x
    return xp.pad(x, widths, mode='constant', constant_values=value)


def windows(xp: Any, xpad: Any, k: Sequence[int], s: Sequence[int],
            out: Sequence[int]) -> Any:
    """A view (N, C, *out, *k) of every window of the padded *xpad* (N, C, *spatial)."""
    st = xpad.strides
    shape = xpad.shape[:2] + tuple(out) + tuple(k)
    strides = st[:2] + tuple(a * b for a, b in zip(st[2:], s)) + st[2:]
    return _as_strided(xp, xpad, shape, strides)


def col2im(xp: Any, cols: Any, s: Sequence[int], p: Sequence[int],
           outsize: Sequence[int], dtype: Any) -> Any:
    """The image (N, C, *outsize) whose padded version gets, at each window of
    *cols* (N, C, *k, *in), that window's values added (windows overlap: they add up)."""
    nd = len(outsize)
    k = cols.shape[2:2 + nd]
    n_in = cols.shape[2 + nd:]
    full = tuple(max(ss * (i - 1) + kk, o + 2 * pp)
                 for ss, i, kk, o, pp in zip(s, n_in, k, outsize, p))
    buf = xp.zeros(cols.shape[:2] + full, dtype)
    head = (slice(None), slice(None))
    for kidx in numpy.ndindex(*k):
        dst = tuple(slice(kk, kk + ss * (i - 1) + 1, ss) for kk, ss, i in zip(kidx, s, n_in))
        buf[head + dst] += cols[head + kidx]
    crop = tuple(slice(pp, pp + o) for pp, o in zip(p, outsize))
    return buf[head + crop]
