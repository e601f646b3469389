"""CUDAProfileHook: NVTX ranges around each function, for NVIDIA profilers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.backends import cuda
from chainer.function_hook import FunctionHook

if TYPE_CHECKING:
    from chainer.function_node import FunctionNode


def _nvtx() -> Any:
    try:
        from cupy.cuda import nvtx  # layout: optional
    except ImportError:
        return None
    return nvtx if getattr(nvtx, 'available', True) else None


class CUDAProfileHook(FunctionHook):
    """Function hook marking each forward and backward as an NVTX range.

    Profilers such as Nsight Systems then show ``<label>.forward`` and
    ``<label>.backward`` ranges on the timeline.

    Raises:
        RuntimeError: when CUDA (CuPy with a device) or NVTX is not available.
    """

    name = 'CUDAProfileHook'

    def __init__(self) -> None:
        if not cuda.available:
            raise RuntimeError('CUDAProfileHook needs CUDA: install CuPy (chainer[cuda12] or '
                               'chainer[cuda13]) and run on a machine with a CUDA device')
        self._nvtx = _nvtx()
        if self._nvtx is None:
            raise RuntimeError('CUDAProfileHook needs NVTX, which this CuPy build lacks')

    def forward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._nvtx.RangePush(f'{function.label}.forward')

    def forward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...]) -> None:
        self._nvtx.RangePop()

    def backward_preprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                            out_grad: tuple[Any, ...]) -> None:
        self._nvtx.RangePush(f'{function.label}.backward')

    def backward_postprocess(self, function: FunctionNode, in_data: tuple[Any, ...],
                             out_grad: tuple[Any, ...]) -> None:
        self._nvtx.RangePop()
