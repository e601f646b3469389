"""Generators of the CUDA source of N-dimensional pooling kernels (Chainer v7's module).

Each generator class builds, for a number of spatial axes ``ndim``, the four arguments
``(in_params, out_params, operation, name)`` of a CuPy elementwise kernel
(``chainer.backends.cuda.elementwise(*Generator.generate(ndim))``). The pooling
functions of this project pool through array operations and do not use these kernels;
the generators are kept for code that builds its own kernels from them.

Subclasses fill in the per-window parts: :meth:`before` (declarations before the
loop), :meth:`main` (the body run for each element of the window, given its flat
``offset`` and its coordinates), :meth:`after` (the code that writes the outputs).
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


class PoolingNDKernelForward:
    """The CUDA elementwise kernel of N-d pooling's forward: one thread per output.

    Inputs: ``raw T in``, the spatial sizes ``d_j``, output sizes ``out_j``, window
    sizes ``k_j``, strides ``s_j`` and paddings ``p_j``; output: ``T out``.
    """

    name = 'pooling'

    @classmethod
    @cuda.memoize()
    def generate(cls, ndim: int) -> tuple[str, str, str, str]:
        """``(in_params, out_params, operation, name)`` for ``ndim`` spatial axes."""
        return cls._generate(ndim)

    @classmethod
    def _generate(cls, ndim: int) -> tuple[str, str, str, str]:
        return cls()._build(int(ndim))

    def in_params(self, ndim: int) -> list[str]:
        """Extra input parameters (besides ``in`` and the geometry)."""
        return []

    def out_params(self) -> list[str]:
        """The output parameters."""
        return ['T out']

    def before(self) -> str:
        """Code before the window loop."""
        raise NotImplementedError

    def main(self, offset: str, xs: list[str]) -> str:
        """Code for one window element at flat input ``offset``, coordinates ``xs``."""
        raise NotImplementedError

    def after(self, out_xs: list[str]) -> str:
        """Code that writes the outputs, given the output coordinates ``out_xs``."""
        raise NotImplementedError

    def _build(self, ndim: int) -> tuple[str, str, str, str]:
        outs = _names('out', ndim)
        in_params = ', '.join(['raw T in'] + [_params(p, ndim) for p in
                                              ('d', 'out', 'k', 's', 'p')]
                              + self.in_params(ndim))
        lines = [f'int c0 = i / ({_product(outs)});']
        for j in range(ndim):
            lines.append(f'int out_x_{j} = i / ({_product(outs[j + 1:])}) % out_{j};')
        for j in range(ndim):
            lines.append(f'int in_x_{j}_0 = max(0, out_x_{j} * s_{j} - p_{j});')
            lines.append(f'int in_x_{j}_1 = min(d_{j}, out_x_{j} * s_{j} + k_{j} - p_{j});')
        lines.append(self.before())
        offset = 'c0'
        for j in range(ndim):
            lines.append(f'for (int x_{j} = in_x_{j}_0; x_{j} < in_x_{j}_1; ++x_{j}) {{')
            lines.append(f'int offset_{j} = d_{j} * {offset} + x_{j};')
            offset = f'offset_{j}'
        lines.append(self.main(offset, _names('x', ndim)))
        lines.append('}' * ndim)
        lines.append(self.after(_names('out_x', ndim)))
        return (in_params, ', '.join(self.out_params()), '\n'.join(lines),
                f'{self.name}_{ndim}d_fwd')


class PoolingNDKernelBackward:
    """The CUDA elementwise kernel of N-d pooling's backward: one thread per input.

    Inputs: ``raw T gy``, the spatial sizes ``d_j``, output sizes ``out_j``, window
    sizes ``k_j``, strides ``s_j`` and paddings ``p_j``; output: ``T gx``. The loop runs
    over the outputs whose windows hold the input element.
    """

    name = 'pooling'

    @classmethod
    @cuda.memoize()
    def generate(cls, ndim: int) -> tuple[str, str, str, str]:
        """``(in_params, out_params, operation, name)`` for ``ndim`` spatial axes."""
        return cls._generate(ndim)

    @classmethod
    def _generate(cls, ndim: int) -> tuple[str, str, str, str]:
        return cls()._build(int(ndim))

    def in_params(self, ndim: int) -> list[str]:
        """Extra input parameters (besides ``gy`` and the geometry)."""
        return []

    def out_params(self) -> list[str]:
        """The output parameters."""
        return ['T gx']

    def before(self) -> str:
        """Code before the loop over outputs."""
        raise NotImplementedError

    def main(self, offset: str, xs: list[str], out_xs: list[str]) -> str:
        """Code for one output at flat ``offset`` (coordinates ``out_xs``) whose window
        holds the input at ``xs``."""
        raise NotImplementedError

    def after(self, xs: list[str]) -> str:
        """Code that writes ``gx``."""
        raise NotImplementedError

    def _build(self, ndim: int) -> tuple[str, str, str, str]:
        ds = _names('d', ndim)
        in_params = ', '.join(['raw T gy'] + [_params(p, ndim) for p in
                                              ('d', 'out', 'k', 's', 'p')]
                              + self.in_params(ndim))
        lines = [f'int c0 = i / ({_product(ds)});']
        for j in range(ndim):
            lines.append(f'int x_{j} = i / ({_product(ds[j + 1:])}) % d_{j} + p_{j};')
        for j in range(ndim):
            lines.append(f'int out_x_{j}_0 = max(0, (x_{j} - k_{j} + s_{j}) / s_{j});')
            lines.append(f'int out_x_{j}_1 = min(out_{j}, (x_{j} + s_{j}) / s_{j});')
        lines.append(self.before())
        offset = 'c0'
        for j in range(ndim):
            lines.append(f'for (int out_x_{j} = out_x_{j}_0; out_x_{j} < out_x_{j}_1; '
                         f'++out_x_{j}) {{')
            lines.append(f'int offset_{j} = out_{j} * {offset} + out_x_{j};')
            offset = f'offset_{j}'
        lines.append(self.main(offset, _names('x', ndim), _names('out_x', ndim)))
        lines.append('}' * ndim)
        lines.append(self.after(_names('x', ndim)))
        return (in_params, ', '.join(self.out_params()), '\n'.join(lines),
                f'{self.name}_{ndim}d_bwd')
