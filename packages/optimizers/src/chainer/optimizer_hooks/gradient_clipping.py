"""GradientClipping: rescale all gradients when their global L2 norm is too large."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import Optimizer
    from chainer.types import NdArray


def _sum_sqnorm(arrays: list[NdArray]) -> float:
    total = 0.0
    for a in arrays:
        flat = a.ravel()
        if flat.dtype.itemsize < 4:
            flat = flat.astype('f')  # float16 squares overflow: accumulate in float32
        total += float(flat.dot(flat))
    return total


class GradientClipping:
    """Scale the gradients so that their global L2 norm is at most ``threshold``.

    The norm is taken over the gradients of all parameters of the target;
    when it exceeds ``threshold`` every gradient is multiplied by
    ``threshold / norm``.

    Args:
        threshold: the maximum L2 norm.

    Raises:
        ValueError: when ``threshold`` is not positive.
    """

    name = 'GradientClipping'
    timing = 'pre'

    def __init__(self, threshold: float) -> None:
        if not threshold > 0:
            raise ValueError(f'threshold must be positive, not {threshold}')
        self.threshold = py_number(threshold)

    def __call__(self, opt: Optimizer) -> None:
        """Clip the gradients of ``opt.target`` in place."""
        grads = [p.grad for p in opt._check_setup().params(False) if p.grad is not None]
        norm = math.sqrt(_sum_sqnorm(grads))
        threshold = self.threshold
        scale = opt._loss_scale
        if scale is not None:
            threshold *= scale
        if norm == 0.0:
            return
        rate = threshold / norm
        if rate < 1:
            for g in grads:
                g *= rate
