"""The fused update steps of Adam and MomentumSGD as compiled kernels (Numba).

Each is one pass over a contiguous 1-D chunk: the NumPy kernels of ``adam.py`` and
``momentum_sgd.py`` make 10 and 4 passes over it. They keep the NumPy kernels' order of
operations and dtype (the scalars are given in the parameter's dtype, as NumPy casts
Python floats), so both give the same numbers bit for bit; tests compare them. Callers
take these only when ``chainer.internal.jit_enabled()`` (``chainer.config.use_numba``).
"""

from __future__ import annotations

import numpy

from chainer import internal

# 1-D contiguous chunks, and scalars of their dtype (float32 or float64)
NDArray = numpy.ndarray
Scalar = numpy.floating


@internal.jit_kernel
def adam_step(p: NDArray, g: NDArray, m: NDArray, v: NDArray, one_minus_beta1: Scalar,
              one_minus_beta2: Scalar, eps: Scalar, alpha_t: Scalar, eta: Scalar,
              decay: Scalar) -> None:  # pragma: no cover (compiled; tests run it in Numba)
    """Adam without AMSGrad or AdaBound: ``m``, ``v`` and ``p`` updated in place.

    ``decay`` is ``1 - eta * weight_decay_rate``; the other scalars are those of
    ``adam._Scalars``, all in ``p``'s dtype.
    """
    # no branches in the loop, so that it vectorizes: a factor of 1 changes nothing
    # (x * 1 == x exactly, NaN and infinities included), so eta and decay always apply
    for i in range(p.shape[0]):
        gi = g[i]
        mi = m[i] + (gi - m[i]) * one_minus_beta1
        m[i] = mi
        vi = v[i] + (gi * gi - v[i]) * one_minus_beta2
        v[i] = vi
        p[i] = p[i] * decay - alpha_t / (numpy.sqrt(vi) + eps) * mi * eta


@internal.jit_kernel
def momentum_sgd_step(p: NDArray, g: NDArray, v: NDArray, lr: Scalar,
                      momentum: Scalar) -> None:  # pragma: no cover (compiled)
    """MomentumSGD: ``v = v * momentum - g * lr; p += v``, in place."""
    for i in range(p.shape[0]):
        vi = v[i] * momentum - g[i] * lr
        v[i] = vi
        p[i] = p[i] + vi
