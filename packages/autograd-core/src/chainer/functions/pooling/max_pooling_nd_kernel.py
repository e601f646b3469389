"""CUDA kernel sources of N-d max pooling (Chainer v7's module); see
:mod:`chainer.functions.pooling.pooling_nd_kernel`.

The position of a window's maximum is stored as ``indexes``: its row-major index inside
the (unclipped, padded) window of shape ``ksize``.
"""

from __future__ import annotations

from chainer.functions.pooling import pooling_nd_kernel


def _window_index(xs: list[str], out_xs: list[str], padded: bool) -> str:
    """C expression: the row-major index of ``xs`` inside the window of ``out_xs``."""
    expr = '0'
    for j, (x, o) in enumerate(zip(xs, out_xs)):
        pos = f'({x} - {o} * s_{j})' if padded else f'({x} + p_{j} - {o} * s_{j})'
        expr = f'({expr}) * k_{j} + {pos}'
    return expr


class MaxPoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    """Forward of N-d max pooling: ``out`` the window's maximum, ``indexes`` its position."""

    name = 'max_pool'

    def out_params(self) -> list[str]:
        return ['T out', 'S indexes']

    def before(self) -> str:
        return 'T maxval = (T)-(1.0/0.0);\nint argmax_pos = -1;'

    def main(self, offset: str, xs: list[str]) -> str:
        out_xs = [f'out_x_{j}' for j in range(len(xs))]
        return (f'T v = in[{offset}];\n'
                f'if (argmax_pos < 0 || maxval < v) {{ maxval = v; '
                f'argmax_pos = {_window_index(xs, out_xs, False)}; }}')

    def after(self, out_xs: list[str]) -> str:
        return 'out = maxval;\nindexes = argmax_pos;'


class MaxPoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    """Backward of N-d max pooling: each output's gradient goes to its window's maximum
    (given by the ``raw S indexes`` of the forward)."""

    name = 'max_pool'

    def in_params(self, ndim: int) -> list[str]:
        return ['raw S indexes']

    def main(self, offset: str, xs: list[str], out_xs: list[str]) -> str:
        return (f'if (indexes[{offset}] == {_window_index(xs, out_xs, True)}) '
                f'{{ val = val + gy[{offset}]; }}')

    def after(self, xs: list[str]) -> str:
        return 'gx = val;'


class MaxPoolingNDKernelForwardWithIndexes(pooling_nd_kernel.PoolingNDKernelForward):
    """Max pooling with given ``raw S indexes``: ``out`` the input at each window's
    stored position (the double backward of max pooling applies it to ``ggx``)."""

    name = 'max_pool_grad'

    def in_params(self, ndim: int) -> list[str]:
        return ['raw S indexes']

    def main(self, offset: str, xs: list[str]) -> str:
        out_xs = [f'out_x_{j}' for j in range(len(xs))]
        return (f'if (indexes[i] == {_window_index(xs, out_xs, False)}) '
                f'{{ val = in[{offset}]; }}')

    def after(self, out_xs: list[str]) -> str:
        return 'out = val;'


#: v7's second form of the kernel above (it differed in how it read its inputs on the
#: device); here the same generator.
MaxPoolingNDKernelForwardWithIndexes1 = MaxPoolingNDKernelForwardWithIndexes
