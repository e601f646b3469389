"""CUDA kernel sources of N-d average pooling (Chainer v7's module); see
:mod:`chainer.functions.pooling.pooling_nd_kernel`. Both kernels take a last input
``T coeff``, the factor each window's sum is multiplied by (``1 / prod(ksize)``)."""

from __future__ import annotations

from chainer.functions.pooling import pooling_nd_kernel


class AveragePoolingNDKernelForward(pooling_nd_kernel.PoolingNDKernelForward):
    """Forward of N-d average pooling: ``out = coeff * sum(window)``."""

    name = 'avg_pool'

    def in_params(self, ndim: int) -> list[str]:
        return ['T coeff']

    def before(self) -> str:
        return 'T val = 0;'

    def main(self, offset: str, xs: list[str]) -> str:
        return f'val = val + in[{offset}];'

    def after(self, out_xs: list[str]) -> str:
        return 'out = val * coeff;'


class AveragePoolingNDKernelBackward(pooling_nd_kernel.PoolingNDKernelBackward):
    """Backward of N-d average pooling: ``gx = coeff * sum(gy of the windows holding x)``."""

    name = 'avg_pool'

    def in_params(self, ndim: int) -> list[str]:
        return ['T coeff']

    def before(self) -> str:
        return 'T val = 0;'

    def main(self, offset: str, xs: list[str], out_xs: list[str]) -> str:
        return f'val = val + gy[{offset}];'

    def after(self, xs: list[str]) -> str:
        return 'gx = val * coeff;'
