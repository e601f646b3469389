"""The shared core of group and layer normalization: normalize the rows of a view
of the input, then apply a per-channel affine map."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._util import channel_sum, grad_by_recompute, retained_inputs, row_sums
from chainer.functions.array.cast import cast
from chainer.functions.array.reshape import reshape
from chainer.functions.math.average import mean as f_mean
from chainer.functions.math.sqrt import rsqrt
from chainer.functions.normalization.batch_normalization import channel_dot, compute_dtype

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray


def row_mean(x2: Any, xp: Any) -> Any:
    """The mean of each row of a 2-D array (a GEMV)."""
    return row_sums(x2, xp) / x2.dtype.type(x2.shape[1])


class AffineRowNormalization(FunctionNode):
    """Base of the functions ``y = gamma * normalize_rows(x) + beta``.

    Subclasses give :meth:`views`: the 2-D shape whose rows are normalized, and
    the ``(A, C, B)`` shape over which ``gamma`` and ``beta`` (of size ``C``)
    are broadcast; both are views of the input in C order.
    """

    def __init__(self, eps: float) -> None:
        self.eps = eps

    def views(self, shape: tuple[int, ...]) -> tuple[tuple[int, int], tuple[int, int, int]]:
        raise NotImplementedError

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1, 2))
        x, gamma, beta = inputs
        xp = backend.get_array_module(x)
        rows, view3 = self.views(x.shape)
        cdt = compute_dtype(x.dtype)
        x2: NdArray = x.reshape(rows).astype(cdt, copy=False)
        if x2.shape[1] == 0 or x2.shape[0] == 0:
            self.x_hat = x2.copy()
            self.inv_std = xp.ones(x2.shape[0], cdt)
        else:
            x_hat = x2 - row_mean(x2, xp)[:, None]
            var = xp.einsum('rk,rk->r', x_hat, x_hat) / cdt.type(x2.shape[1])
            self.inv_std = inv_std = 1 / xp.sqrt(var + cdt.type(self.eps))
            x_hat *= inv_std[:, None]
            self.x_hat = x_hat
        y3 = self.x_hat.reshape(view3) * gamma.reshape(-1, 1).astype(cdt)
        y3 += beta.reshape(-1, 1).astype(cdt)
        return y3.reshape(x.shape).astype(x.dtype, copy=False),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if chainer.config.enable_backprop:
            return grad_by_recompute(self, self._composed, indexes, grad_outputs)
        x, gamma, _ = (v.array for v in retained_inputs(self))
        xp = backend.get_array_module(x)
        rows, view3 = self.views(x.shape)
        cdt = compute_dtype(x.dtype)
        g3 = gy.array.reshape(view3).astype(cdt, copy=False)
        x_hat = self.x_hat
        gbeta = channel_sum(g3, xp)
        ggamma = channel_dot(g3, x_hat.reshape(view3), xp)
        gx = (g3 * gamma.reshape(-1, 1).astype(cdt)).reshape(rows)
        if gx.size:
            k = cdt.type(rows[1])
            mean_g = row_mean(gx, xp)
            mean_gx = xp.einsum('rk,rk->r', gx, x_hat) / k
            gx -= mean_g[:, None]
            gx -= x_hat * mean_gx[:, None]
            gx *= self.inv_std[:, None]
        return (gx.reshape(x.shape).astype(x.dtype, copy=False),
                ggamma.reshape(gamma.shape).astype(gamma.dtype, copy=False),
                gbeta.reshape(gamma.shape).astype(gamma.dtype, copy=False))

    def _composed(self, x: Any, gamma: Any, beta: Any) -> tuple[Any]:

        rows, view3 = self.views(x.shape)
        x2 = reshape(x, rows)
        xc = x2 - f_mean(x2, axis=1, keepdims=True)
        x_hat = xc * rsqrt(f_mean(xc * xc, axis=1, keepdims=True) + x.dtype.type(self.eps))
        if gamma.dtype != x.dtype:
            gamma, beta = cast(gamma, x.dtype), cast(beta, x.dtype)
        y = (reshape(x_hat, view3) * reshape(gamma, (-1, 1))) + reshape(beta, (-1, 1))
        return reshape(y, x.shape),
