"""CUDA elementwise kernels of N-dimensional im2col and col2im (for CuPy).

:meth:`Im2colNDKernel.generate` and :meth:`Col2imNDKernel.generate` return,
for a number of spatial dimensions ``ndim``, the ``(in_params, out_params,
operation, name)`` of a :func:`chainer.backends.cuda.elementwise` kernel
(memoized per ``ndim``). The convolution functions of this project take
patches through strided views instead (:func:`chainer.utils.conv.im2col_nd`,
the same code on NumPy and CuPy); these kernels are kept for code written
against Chainer v7 that launches them, and :func:`im2col_nd_gpu_kernel` /
:func:`col2im_nd_gpu_kernel` launch them on CuPy arrays.

Parameters of both kernels, after the array: the image lengths ``d_0..``,
the output lengths ``out_0..``, then ``k_0..`` (kernel), ``s_0..`` (stride),
``p_0..`` (padding) and ``di_0..`` (dilation), all ``int32``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from chainer.backends import cuda

if TYPE_CHECKING:
    from chainer.types import NdArray

_GROUPS = ('d', 'out', 'k', 's', 'p', 'di')


# -- v7's helpers for writing kernel source (C expressions built as strings) ---------
def _joinexp(name: str, op: str, xs: Iterable[str], init: str | None) -> str:
    """``init`` (when given) and the expressions ``xs`` joined by the C operator ``op``;
    ``name`` is the caller's, for the error on no expression at all."""
    terms = ([] if init is None else [init]) + list(xs)
    if not terms:
        raise ValueError(f'{name} needs at least one expression')
    return op.join(terms)


def mulexp(xs: Iterable[str], init: str | None = None) -> str:
    """The C product of the expressions ``xs`` (``'a * b * c'``), after ``init`` when given.

    Raises:
        ValueError: for no expression at all.
    """
    return _joinexp('mulexp', ' * ', xs, init)


def andexp(xs: Iterable[str], init: str | None = None) -> str:
    """The C conjunction of the expressions ``xs`` (``'a && b'``), after ``init`` when given.

    Raises:
        ValueError: for no expression at all.
    """
    return _joinexp('andexp', ' && ', xs, init)


def muladdexp(xs: Sequence[str], ys: Sequence[str], init: str | None = None) -> str:
    """The row-major flat index of the indices ``ys`` in an array of lengths ``xs``.

    Built in Horner form: for ``xs = (X0, X1)``, ``ys = (y0, y1)`` it is
    ``'(y1 + X1 * (y0))'``; with ``init`` the outermost index is ``init`` times ``X0``
    plus ``y0`` (``init`` is the index of the enclosing (n, c) plane).

    Raises:
        ValueError: when ``xs`` and ``ys`` differ in length, or both are empty without
            ``init``.
    """
    if len(xs) != len(ys):
        raise ValueError(f'muladdexp: {len(xs)} lengths but {len(ys)} indices')
    if init is None:
        if not ys:
            raise ValueError('muladdexp needs at least one index or init')
        exp, pairs = ys[0], list(zip(xs[1:], ys[1:]))
    else:
        exp, pairs = init, list(zip(xs, ys))
    for x, y in pairs:
        exp = f'({y} + {x} * ({exp}))'
    return exp


def map_(fn: Callable[..., Any], *lst: Iterable[Any]) -> list[Any]:
    """``list(map(fn, *lst))``."""
    return list(map(fn, *lst))


def succ_sublists(xs: Sequence[Any]) -> list[list[Any]]:
    """The tails of ``xs`` after each element: ``[a, b, c]`` -> ``[[b, c], [c], []]``.

    The products of the tails of the lengths are the strides of a row-major array.
    """
    return [list(xs[i + 1:]) for i in range(len(xs))]


def vars(prefix: str, n: int) -> list[str]:  # v7's name, shadowing the builtin here
    """Numbered variable names: ``vars('x', 3)`` -> ``['x_0', 'x_1', 'x_2']``."""
    return [f'{prefix}_{i}' for i in range(n)]


class Writer:
    """Collects lines of kernel source with indentation (two spaces a level)."""

    def __init__(self) -> None:
        self._indent = 0
        self._lines: list[str] = []

    def write(self, line: str, indent: str | None = None) -> None:
        """Add ``line``.

        Args:
            line: the source line, without indentation.
            indent: ``'inc'`` indents the following lines one level more, ``'dec'``
                writes this line (and the following) one level less, ``'decinc'`` both
                (as for ``} else {``).

        Raises:
            ValueError: for another ``indent``, or indentation below zero.
        """
        if indent not in (None, 'inc', 'dec', 'decinc'):
            raise ValueError(f"indent must be None, 'inc', 'dec' or 'decinc', not {indent!r}")
        if indent in ('dec', 'decinc'):
            if self._indent == 0:
                raise ValueError('Writer: cannot dedent below zero')
            self._indent -= 1
        self._lines.append('  ' * self._indent + line)
        if indent in ('inc', 'decinc'):
            self._indent += 1

    def get(self) -> str:
        """The source written so far, lines joined by newlines."""
        return '\n'.join(self._lines)


def _params(ndim: int) -> list[str]:
    return [f'{g}_{j}' for g in _GROUPS for j in range(ndim)]


def _in_params(array: str, ndim: int) -> str:
    return ', '.join([f'raw T {array}'] + [f'int32 {name}' for name in _params(ndim)])


def _check_ndim(ndim: int) -> None:
    if not isinstance(ndim, int) or ndim <= 0:
        raise ValueError(f'ndim must be a positive int, not {ndim!r}')


def _unravel(index: str, names: list[str], sizes: list[str]) -> list[str]:
    # C statements splitting `index` (row-major over `sizes`) into `names`; the
    # remaining leading index is left in `index`
    lines = []
    for name, size in zip(reversed(names), reversed(sizes)):
        lines.append(f'int {name} = {index} % {size}; {index} /= {size};')
    return lines


class Im2colNDKernel:
    """Kernel writing ``col`` (n, c, k_0.., out_0..) from ``img`` (n, c, d_0..)."""

    @staticmethod
    def _generate(ndim: int) -> tuple[str, str, str, str]:
        _check_ndim(ndim)
        r = range(ndim)
        lines = ['int rest = i;']
        lines += _unravel('rest', [f'x_{j}' for j in r], [f'out_{j}' for j in r])
        lines += _unravel('rest', [f'kx_{j}' for j in r], [f'k_{j}' for j in r])
        # rest is now the (n, c) plane index
        lines.append('int index = rest;')
        lines.append('bool inside = true;')
        for j in r:
            lines.append(f'int y_{j} = x_{j} * s_{j} + kx_{j} * di_{j} - p_{j};')
            lines.append(f'inside = inside && 0 <= y_{j} && y_{j} < d_{j};')
            lines.append(f'index = index * d_{j} + (inside ? y_{j} : 0);')
        lines.append('col = inside ? img[index] : (T)0;')
        return (_in_params('img', ndim), 'T col', '\n'.join(lines), f'im2col_{ndim}d')

    @staticmethod
    @cuda.memoize()
    def generate(ndim: int) -> tuple[str, str, str, str]:
        """The ``(in_params, out_params, operation, name)`` of the ``ndim``-d kernel."""
        return Im2colNDKernel._generate(ndim)


class Col2imNDKernel:
    """Kernel writing ``img`` (n, c, d_0..) as the sum of ``col`` (n, c, k_0.., out_0..)."""

    @staticmethod
    def _generate(ndim: int) -> tuple[str, str, str, str]:
        _check_ndim(ndim)
        r = range(ndim)
        lines = ['int rest = i;']
        lines += _unravel('rest', [f'x_{j}' for j in r], [f'd_{j}' for j in r])
        lines.append('T val = (T)0;')
        # iterate over every kernel offset; keep those whose window starts on the stride
        lines.append('int n_k = 1;')
        for j in r:
            lines.append(f'n_k *= k_{j};')
        lines.append('for (int kk = 0; kk < n_k; ++kk) {')
        lines.append('  int krest = kk;')
        lines += ['  ' + s for s in _unravel('krest', [f'kx_{j}' for j in r],
                                            [f'k_{j}' for j in r])]
        lines.append('  bool hit = true;')
        lines.append('  int index = rest;')
        for j in r:
            lines.append(f'  int t_{j} = x_{j} + p_{j} - kx_{j} * di_{j};')
            lines.append(f'  hit = hit && t_{j} >= 0 && t_{j} % s_{j} == 0 '
                         f'&& t_{j} / s_{j} < out_{j};')
        for j in r:
            lines.append(f'  index = index * k_{j} + kx_{j};')
        for j in r:
            lines.append(f'  index = index * out_{j} + (hit ? t_{j} / s_{j} : 0);')
        lines.append('  if (hit) val = val + col[index];')
        lines.append('}')
        lines.append('img = val;')
        return (_in_params('col', ndim), 'T img', '\n'.join(lines), f'col2im_{ndim}d')

    @staticmethod
    @cuda.memoize()
    def generate(ndim: int) -> tuple[str, str, str, str]:
        """The ``(in_params, out_params, operation, name)`` of the ``ndim``-d kernel."""
        return Col2imNDKernel._generate(ndim)


def im2col_nd_gpu_kernel(img: NdArray, ksize: tuple[int, ...], stride: tuple[int, ...],
                         pad: tuple[int, ...], out_size: tuple[int, ...],
                         dilate: tuple[int, ...]) -> Any:
    """Run :class:`Im2colNDKernel` on a CuPy image: a new ``(n, c, k.., out..)`` array."""
    ndim = img.ndim - 2
    col = cuda.cupy.empty(img.shape[:2] + tuple(ksize) + tuple(out_size), img.dtype)
    kernel = cuda.elementwise(*Im2colNDKernel.generate(ndim))
    kernel(cuda.cupy.ascontiguousarray(img), *img.shape[2:], *out_size, *ksize, *stride,
           *pad, *dilate, col)
    return col


def col2im_nd_gpu_kernel(col: NdArray, stride: tuple[int, ...], pad: tuple[int, ...],
                         size: tuple[int, ...], dilate: tuple[int, ...]) -> Any:
    """Run :class:`Col2imNDKernel` on CuPy patches: a new ``(n, c) + size`` image."""
    ndim = (col.ndim - 2) // 2
    ksize, out_size = col.shape[2:2 + ndim], col.shape[2 + ndim:]
    img = cuda.cupy.empty(col.shape[:2] + tuple(size), col.dtype)
    kernel = cuda.elementwise(*Col2imNDKernel.generate(ndim))
    kernel(cuda.cupy.ascontiguousarray(col), *size, *out_size, *ksize, *stride, *pad,
           *dilate, img)
    return img
