"""Local response normalization across neighbouring channels."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import grad_by_recompute, retained_inputs
from chainer.functions.array.pad import pad
from chainer.utils import type_check

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray
    from chainer.variable import Variable


def _window_sum(x: Any, half: int, xp: Any) -> Any:
    """``s[:, c] = sum(x[:, c - half:c + half + 1])`` (clipped at the ends), by a cumsum."""
    n_ch = x.shape[1]
    cs = xp.zeros((x.shape[0], n_ch + 1) + x.shape[2:], x.dtype)
    xp.cumsum(x, axis=1, out=cs[:, 1:])
    hi = xp.minimum(xp.arange(n_ch) + half + 1, n_ch)
    lo = xp.maximum(xp.arange(n_ch) - half, 0)
    return cs[:, hi] - cs[:, lo]


class _Constants:
    """Holds the constants ``n, k, alpha, beta`` of local response normalization."""

    def __init__(self, n: int = 5, k: float = 2, alpha: float = 1e-4,
                 beta: float = .75) -> None:
        self.n = n
        self.k = k
        self.alpha = alpha
        self.beta = beta


class LocalResponseNormalization(_Constants, FunctionNode):
    """``y = x / (k + alpha * sum of x**2 over the n neighbouring channels) ** beta``.

    Args:
        n: the size of the channel window (``n // 2`` on each side).
        k, alpha, beta: the constants of the formula.
    """

    @property
    def label(self) -> str:
        return 'LocalResponseNormalization'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        x_type, = in_types  # unnamed (in_types[0]), as in v7
        type_check.expect(x_type.dtype.kind == 'f', x_type.ndim >= 2)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0,))
        x, = inputs
        xp = backend.get_array_module(x)
        dt = x.dtype.type
        s = _window_sum(x * x, self.n // 2, xp)
        s *= dt(self.alpha)
        s += dt(self.k)
        self.unit = s
        self.scale = s ** dt(-self.beta)
        y = x * self.scale
        self.retain_outputs((0,))
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x = retained_inputs(self)[0].array
        y = self.output_data[0]
        g, = grad_outputs
        assert g is not None
        gy = g.array
        xp = backend.get_array_module(x)
        dt = x.dtype.type
        t = _window_sum(gy * y / self.unit, self.n // 2, xp)
        gx = gy * self.scale
        gx -= dt(2 * self.alpha * self.beta) * x * t
        return gx,

    def _composed(self, x: Any) -> tuple[Any]:

        half = self.n // 2
        n_ch = x.shape[1]
        width = [(0, 0)] * x.ndim
        width[1] = (half, half)
        x2 = pad(x * x, width, 'constant')
        s = x2[:, 0:n_ch]
        for i in range(1, 2 * half + 1):
            s = s + x2[:, i:i + n_ch]
        dt = x.dtype.type
        return x * (s * dt(self.alpha) + dt(self.k)) ** dt(-self.beta),


@guarded
def local_response_normalization(x: VariableOrArray, n: int = 5, k: float = 2, alpha: float = 1e-4,
                                 beta: float = .75) -> Variable:
    """Local response normalization across neighbouring channels.

    ``y[:, i] = x[:, i] / (k + alpha * sum(x[:, j] ** 2 for j in window(i))) ** beta``,
    where the window runs from ``i - n // 2`` to ``i + n // 2`` (clipped to the
    channels). See Krizhevsky et al., "ImageNet Classification with Deep
    Convolutional Neural Networks" (2012), section 3.3.

    Args:
        x: the input variable, of shape ``(N, C, ...)``.
        n: the size of the window.
        k: the additive constant.
        alpha: the scale of the sum of squares.
        beta: the exponent.

    Returns:
        The output variable, of the shape and dtype of ``x``.

    Raises:
        chainer.utils.type_check.InvalidType: when ``x`` is not a float array of 2 axes or more.
    """
    return LocalResponseNormalization(n, k, alpha, beta).apply((x,))[0]


class LocalResponseNormalizationGrad(_Constants, BackwardNode):
    """The gradient of :class:`LocalResponseNormalization`: ``(x, gy)`` to ``gx``.

    Args:
        n, k, alpha, beta: as in :func:`local_response_normalization`.
    """

    def primal(self) -> FunctionNode:
        return LocalResponseNormalization(self.n, self.k, self.alpha, self.beta)
