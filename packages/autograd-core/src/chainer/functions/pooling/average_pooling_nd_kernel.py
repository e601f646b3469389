"""CUDA kernel sources of N-d average pooling (Chainer v7's module); see
:mod:`chainer.functions.pooling.pooling_nd_kernel`. Both kernels take a last input
``T coeff``, the factor each window's sum is multiplied by (``1 / prod(ksize)``)."""

from __future__ import annotations

from chainer.functions.pooling import pooling_nd_kernel


class _AverageKernel(pooling_nd_kernel._PoolingNDKernel):
    """Both directions: sum the loop's values of the raw input, then scale by ``coeff``."""

    name = 'avg_pool'

    def in_params(self, ndim: int) -> list[str]:
        return ['T coeff']

    def main(self, offset: str, *coordinates: list[str]) -> str:
        """Add the raw input at ``offset`` to ``val`` (the coordinates do not matter)."""
        return f'val = val + {self.source}[{offset}];'

    def after(self, at: list[str]) -> str:
        return f'{self.target} = val * coeff;'


class AveragePoolingNDKernelForward(_AverageKernel, pooling_nd_kernel.PoolingNDKernelForward):
    """Forward of N-d average pooling: ``out = coeff * sum(window)``."""


class AveragePoolingNDKernelBackward(_AverageKernel,
                                     pooling_nd_kernel.PoolingNDKernelBackward):
    """Backward of N-d average pooling: ``gx = coeff * sum(gy of the windows holding x)``."""
