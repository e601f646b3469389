"""The base of the hooks that add the gradient of a penalty on each parameter."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import UpdateRule
    from chainer.types import NdArray
    from chainer.variable import Variable


class GradientPenalty:
    """Add ``rate * penalty_grad(param)`` to each gradient before the update.

    The rate is multiplied by the parameter's loss scale, like its gradient.
    Subclasses define :meth:`penalty_grad` and ``name``.

    Args:
        rate: the coefficient of the penalty.
    """

    call_for_each_param = True
    timing = 'pre'

    def __init__(self, rate: float) -> None:
        self.rate = py_number(rate)  # a NumPy scalar as a Python number (keeps dtypes)

    def __call__(self, rule: UpdateRule, param: Variable) -> None:
        """Add to the gradient of ``param`` (skipped without data or gradient)."""
        p, g = param.array, param.grad
        if p is None or g is None:
            return
        rate = self.rate
        scale = param._loss_scale
        if scale is not None:
            rate *= scale
        g += rate * self.penalty_grad(p)

    def penalty_grad(self, p: NdArray) -> NdArray:
        """The gradient of the penalty at the parameter array ``p``."""
        raise NotImplementedError(f'{type(self).__name__} does not implement penalty_grad')
