"""GradientNoise: add annealed Gaussian noise to every gradient."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from chainer.utils.numeric_args import py_number

if TYPE_CHECKING:
    from chainer.optimizer import UpdateRule
    from chainer.types import DTypeSpec, NdArray, Shape, Xp
    from chainer.variable import Variable


def exponential_decay_noise(xp: Xp, shape: Shape, dtype: DTypeSpec, hook: GradientNoise,
                            opt: UpdateRule) -> NdArray:
    """Gaussian noise of variance ``hook.eta / (1 + opt.t) ** 0.55``.

    Args:
        xp: the array module (numpy or cupy).
        shape: the shape of the noise.
        dtype: the dtype of the noise.
        hook: the :class:`GradientNoise` hook (gives ``eta``).
        opt: the update rule (gives the step count ``t``).

    Returns:
        An array of noise.
    """
    std = (hook.eta / (1 + opt.t) ** 0.55) ** 0.5
    return xp.random.normal(0, std, shape).astype(dtype)


class GradientNoise:
    """Add ``noise_func(xp, shape, dtype, hook, update_rule)`` to each gradient.

    By default the noise is Gaussian with variance ``eta / (1 + t) ** 0.55``
    (Neelakantan et al., https://arxiv.org/abs/1511.06807). Under loss
    scaling the noise is scaled like the gradient.

    Args:
        eta: the scale of the noise (0.01, 0.3 or 1.0 recommended).
        noise_func: the function that makes the noise.
    """

    name = 'GradientNoise'
    call_for_each_param = True
    timing = 'pre'

    def __init__(self, eta: float,
                 noise_func: Callable[..., NdArray] = exponential_decay_noise) -> None:
        self.eta = py_number(eta)
        self.noise_func = noise_func

    def __call__(self, rule: UpdateRule, param: Variable) -> None:
        """Add noise to the gradient of ``param`` (skipped without data or gradient)."""
        g = param.grad
        if param.array is None or g is None:
            return
        noise = self.noise_func(param.device.xp, g.shape, g.dtype, self, rule)
        scale = param._loss_scale
        if scale is not None:
            noise = noise * scale
        g += noise
