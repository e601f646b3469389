"""CUDA elementwise-kernel sources for N-dimensional im2col and col2im.

:meth:`Im2colNDKernel.generate` and :meth:`Col2imNDKernel.generate` return,
for a number of spatial axes ``ndim``, the arguments of
``chainer.backends.cuda.elementwise`` (``in_params``, ``out_params``,
``operation``, ``name``); the sources are built once per ``ndim`` (cached
with :func:`chainer.backends.cuda.memoize`, cleared by ``cuda.clear_memo()``).
Building a source needs no GPU; running the kernel needs CuPy.

The im2col kernel is launched with ``col`` (shape
``(n, c, k_1..k_d, out_1..out_d)``) as output and takes the image (shape
``(n, c, d_1..d_d)``), then the lengths ``d_*``, ``out_*``, ``k_*``,
``s_*`` (strides), ``p_*`` (paddings) and ``di_*`` (dilations). The col2im
kernel writes the image from ``col`` and the same lengths::

    in_params, out_params, operation, name = Im2colNDKernel.generate(2)
    cuda.elementwise(in_params, out_params, operation, name)(
        img.reduced_view(), *dims, *outs, *ksize, *stride, *pad, *dilate, col)
"""

from __future__ import annotations

from chainer.backends import cuda

__all__ = ['Col2imNDKernel', 'Im2colNDKernel']

_LENGTHS = ('d', 'out', 'k', 's', 'p', 'di')


def _check_ndim(ndim: int) -> None:
    if not isinstance(ndim, int) or ndim <= 0:
        raise ValueError(f'ndim must be a positive int, not {ndim!r}')


def _length_params(ndim: int) -> str:
    """``int32 d_0, ..., int32 di_{ndim-1}``: the lengths each kernel takes."""
    return ', '.join(f'int32 {name}_{j}' for name in _LENGTHS for j in range(ndim))


def _unravel(index: str, names: list[str], sizes: list[str]) -> list[str]:
    """Statements splitting ``index`` into ``names`` (C order over ``sizes``).

    What is left of ``index`` after the split (the batch and channel index)
    ends in the variable ``nc``.
    """
    lines = [f'int rest = {index};']
    for name, size in reversed(list(zip(names, sizes))):
        lines.append(f'int {name} = rest % {size}; rest /= {size};')
    lines.append('int nc = rest;')
    return lines


def _ravel(target: str, names: list[str], sizes: list[str]) -> list[str]:
    """Statements computing ``target``, the C-order index of ``nc, names...`` over ``sizes``."""
    lines = [f'int {target} = nc;']
    lines += [f'{target} = {target} * {size} + {name};' for name, size in zip(names, sizes)]
    return lines


class Im2colNDKernel:
    """The source of the N-dimensional im2col kernel (col[n, c, k.., o..] = padded image)."""

    def _generate(self, ndim: int) -> tuple[str, str, str, str]:
        _check_ndim(ndim)
        r = range(ndim)
        in_params = f'raw T img, {_length_params(ndim)}'
        out_params = 'T col'
        body = _unravel('i', [f'kx_{j}' for j in r] + [f'ox_{j}' for j in r],
                        [f'k_{j}' for j in r] + [f'out_{j}' for j in r])
        body += [f'int x_{j} = kx_{j} * di_{j} + ox_{j} * s_{j} - p_{j};' for j in r]
        inside = ' && '.join(f'0 <= x_{j} && x_{j} < d_{j}' for j in r)
        body.append(f'if ({inside}) {{')
        body += ['  ' + s for s in _ravel('src', [f'x_{j}' for j in r], [f'd_{j}' for j in r])]
        body.append('  col = img[src];')
        body.append('} else {')
        body.append('  col = (T)0;')
        body.append('}')
        return in_params, out_params, '\n'.join(body), f'im2col_{ndim}d'

    @classmethod
    def generate(cls, ndim: int) -> tuple[str, str, str, str]:
        """``(in_params, out_params, operation, name)`` for ``ndim`` spatial axes (cached)."""
        return _generate_im2col(ndim)


class Col2imNDKernel:
    """The source of the N-dimensional col2im kernel (sums the patches into the image)."""

    def _generate(self, ndim: int) -> tuple[str, str, str, str]:
        _check_ndim(ndim)
        r = range(ndim)
        in_params = f'raw T col, {_length_params(ndim)}'
        out_params = 'T img'
        body = _unravel('i', [f'x_{j}' for j in r], [f'd_{j}' for j in r])
        body.append('T val = (T)0;')
        indent = ''
        for j in r:
            # The output positions whose window covers x_j with kernel offset kx_j.
            body.append(f'{indent}for (int kx_{j} = 0; kx_{j} < k_{j}; ++kx_{j}) {{')
            indent += '  '
            body.append(f'{indent}int t_{j} = x_{j} + p_{j} - kx_{j} * di_{j};')
            body.append(f'{indent}if (t_{j} < 0 || t_{j} % s_{j} != 0) continue;')
            body.append(f'{indent}int ox_{j} = t_{j} / s_{j};')
            body.append(f'{indent}if (ox_{j} >= out_{j}) continue;')
        body += [indent + s for s in _ravel(
            'src', [f'kx_{j}' for j in r] + [f'ox_{j}' for j in r],
            [f'k_{j}' for j in r] + [f'out_{j}' for j in r])]
        body.append(f'{indent}val = val + col[src];')
        for _ in r:
            indent = indent[:-2]
            body.append(f'{indent}}}')
        body.append('img = val;')
        return in_params, out_params, '\n'.join(body), f'col2im_{ndim}d'

    @classmethod
    def generate(cls, ndim: int) -> tuple[str, str, str, str]:
        """``(in_params, out_params, operation, name)`` for ``ndim`` spatial axes (cached)."""
        return _generate_col2im(ndim)


@cuda.memoize()
def _generate_im2col(ndim: int) -> tuple[str, str, str, str]:
    return Im2colNDKernel()._generate(ndim)


@cuda.memoize()
def _generate_col2im(ndim: int) -> tuple[str, str, str, str]:
    return Col2imNDKernel()._generate(ndim)
