"""Generators of the CUDA source of N-dimensional pooling kernels (Chainer v7's module).

Each generator class builds, for a number of spatial axes ``ndim``, the four arguments
``(in_params, out_params, operation, name)`` of a CuPy elementwise kernel
(``chainer.backends.cuda.elementwise(*Generator.generate(ndim))``). The pooling
functions of this project pool through array operations and do not use these kernels;
the generators are kept for code that builds its own kernels from them.

Subclasses fill in the per-window parts: :meth:`before` (declarations before the
loop; by default ``T val = 0;``), :meth:`main` (the body run for each element of the
window, given its flat ``offset`` and its coordinates), :meth:`after` (the code that
writes the outputs).
``generate`` is memoized (``chainer.backends.cuda.clear_memo`` clears it).
"""

from __future__ import annotations

from chainer.backends import cuda


def _names(prefix: str, ndim: int) -> list[str]:
    return [f'{prefix}_{j}' for j in range(ndim)]


def _params(prefix: str, ndim: int) -> str:
    return ', '.join(f'int32 {n}' for n in _names(prefix, ndim))


def _product(names: list[str]) -> str:
    return ' * '.join(names) if names else '1'


class _PoolingNDKernel:
    """What the forward and backward generators share: one thread per element of the
    ``grid`` array, a loop over the window of the other side, the parameters and name.

    A direction sets ``source`` (the raw input), ``target`` (the output), the thread's
    coordinates ``at`` over the sizes ``grid``, the loop variables ``loop`` with bounds
    ``bound_j_0``/``bound_j_1`` over the sizes ``extent``, and the ``suffix`` of the name.
    """

    name = 'pooling'
    source = 'in'
    target = 'out'
    grid = 'out'
    at = 'out_x'
    loop = 'x'
    bound = 'in_x'
    extent = 'd'
    suffix = 'fwd'

    @classmethod
    @cuda.memoize()
    def generate(cls, ndim: int) -> tuple[str, str, str, str]:
        """``(in_params, out_params, operation, name)`` for ``ndim`` spatial axes."""
        return cls._generate(ndim)

    @classmethod
    def _generate(cls, ndim: int) -> tuple[str, str, str, str]:
        return cls()._build(int(ndim))

    def in_params(self, ndim: int) -> list[str]:
        """Extra input parameters (besides the raw input and the geometry)."""
        return []

    def out_params(self) -> list[str]:
        """The output parameters."""
        return [f'T {self.target}']

    def before(self) -> str:
        """Code before the loop: by default an accumulator ``val`` set to 0."""
        return 'T val = 0;'

    def after(self, at: list[str]) -> str:
        """Code that writes the outputs, given the thread's coordinates ``at``."""
        raise NotImplementedError

    def _coordinate(self, j: int) -> str:
        """What is added to the thread's coordinate ``j`` (nothing by default)."""
        return ''

    def _bounds(self, j: int) -> list[str]:
        """The declarations of the loop bounds of axis ``j``."""
        raise NotImplementedError

    def _body(self, offset: str, ndim: int) -> str:
        """The code run for each element of the loop (calls :meth:`main`)."""
        raise NotImplementedError

    def _build(self, ndim: int) -> tuple[str, str, str, str]:
        sizes = _names(self.grid, ndim)
        in_params = ', '.join([f'raw T {self.source}']
                              + [_params(p, ndim) for p in ('d', 'out', 'k', 's', 'p')]
                              + self.in_params(ndim))
        lines = [f'int c0 = i / ({_product(sizes)});']
        for j in range(ndim):
            lines.append(f'int {self.at}_{j} = i / ({_product(sizes[j + 1:])}) % '
                         f'{self.grid}_{j}{self._coordinate(j)};')
        for j in range(ndim):
            lines.extend(self._bounds(j))
        lines.append(self.before())
        offset, v, b = 'c0', self.loop, self.bound
        for j in range(ndim):
            lines.append(f'for (int {v}_{j} = {b}_{j}_0; {v}_{j} < {b}_{j}_1; ++{v}_{j}) {{')
            lines.append(f'int offset_{j} = {self.extent}_{j} * {offset} + {v}_{j};')
            offset = f'offset_{j}'
        lines.append(self._body(offset, ndim))
        lines.append('}' * ndim)
        lines.append(self.after(_names(self.at, ndim)))
        return (in_params, ', '.join(self.out_params()), '\n'.join(lines),
                f'{self.name}_{ndim}d_{self.suffix}')


class PoolingNDKernelForward(_PoolingNDKernel):
    """The CUDA elementwise kernel of N-d pooling's forward: one thread per output.

    Inputs: ``raw T in``, the spatial sizes ``d_j``, output sizes ``out_j``, window
    sizes ``k_j``, strides ``s_j`` and paddings ``p_j``; output: ``T out``.
    """

    def main(self, offset: str, xs: list[str]) -> str:
        """Code for one window element at flat input ``offset``, coordinates ``xs``."""
        raise NotImplementedError

    def _bounds(self, j: int) -> list[str]:
        return [f'int in_x_{j}_0 = max(0, out_x_{j} * s_{j} - p_{j});',
                f'int in_x_{j}_1 = min(d_{j}, out_x_{j} * s_{j} + k_{j} - p_{j});']

    def _body(self, offset: str, ndim: int) -> str:
        return self.main(offset, _names('x', ndim))


class PoolingNDKernelBackward(_PoolingNDKernel):
    """The CUDA elementwise kernel of N-d pooling's backward: one thread per input.

    Inputs: ``raw T gy``, the spatial sizes ``d_j``, output sizes ``out_j``, window
    sizes ``k_j``, strides ``s_j`` and paddings ``p_j``; output: ``T gx``. The loop runs
    over the outputs whose windows hold the input element.
    """

    source = 'gy'
    target = 'gx'
    grid = 'd'
    at = 'x'
    loop = 'out_x'
    bound = 'out_x'
    extent = 'out'
    suffix = 'bwd'

    def main(self, offset: str, xs: list[str], out_xs: list[str]) -> str:
        """Code for one output at flat ``offset`` (coordinates ``out_xs``) whose window
        holds the input at ``xs``."""
        raise NotImplementedError

    def _coordinate(self, j: int) -> str:
        return f' + p_{j}'

    def _bounds(self, j: int) -> list[str]:
        return [f'int out_x_{j}_0 = max(0, (x_{j} - k_{j} + s_{j}) / s_{j});',
                f'int out_x_{j}_1 = min(out_{j}, (x_{j} + s_{j}) / s_{j});']

    def _body(self, offset: str, ndim: int) -> str:
        return self.main(offset, _names('x', ndim), _names('out_x', ndim))
