"""Fused CUDA kernels of the LSTM cell update, shared by ``F.lstm`` and ``L.LSTM``.

On the GPU the dozen elementwise operations of one step (forward) or of its gradient
(backward) are one kernel each: the launch cost, not the arithmetic, dominates these
small arrays. The kernels take the *raw* gate inputs ``a, i, f, o`` (before the tanh and
sigmoids) as separate, possibly strided arrays, so they work on the interleaved layout of
``F.lstm`` and on the transposed layout of ``L.LSTM`` alike; the backward kernel
recomputes the activations instead of storing them.
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.backends import cuda

_ACTIVATIONS = """
    T ta = tanh(za);
    T si = (T)0.5 * tanh((T)0.5 * zi) + (T)0.5;
    T sf = (T)0.5 * tanh((T)0.5 * zf) + (T)0.5;
    T so = (T)0.5 * tanh((T)0.5 * zo) + (T)0.5;
"""

_FORWARD = _ACTIVATIONS + """
    c = ta * si + sf * cp;
    h = so * tanh(c);
"""

_BACKWARD = _ACTIVATIONS + """
    T co = tanh(c);
    T g = gh * so * ((T)1 - co * co) + gc;
    ga = g * si * ((T)1 - ta * ta);
    gi = g * ta * si * ((T)1 - si);
    gf = g * cp * sf * ((T)1 - sf);
    go = gh * co * so * ((T)1 - so);
    gcp = g * sf;
"""


def usable(x: Any) -> bool:
    """Whether the fused kernels apply to array ``x`` (a float32/float64 CuPy array)."""
    return (cuda.available and isinstance(x, cuda.ndarray)
            and x.dtype in (numpy.float32, numpy.float64))


def forward(za: Any, zi: Any, zf: Any, zo: Any, cp: Any, c: Any, h: Any) -> None:
    """Write the new cell ``c`` and output ``h`` from the raw gates and ``cp`` (c_prev)."""
    kernel = cuda.elementwise('T za, T zi, T zf, T zo, T cp', 'T c, T h', _FORWARD,
                              'chainer_lstm_fwd')
    kernel(za, zi, zf, zo, cp, c, h)


def backward(za: Any, zi: Any, zf: Any, zo: Any, cp: Any, c: Any, gc: Any, gh: Any,
             ga: Any, gi: Any, gf: Any, go: Any, gcp: Any) -> None:
    """Write the gradients of the raw gates and of ``cp`` (c_prev).

    ``c`` is the new cell; ``gc`` and ``gh`` are the gradients of the new cell and of the
    output (arrays, or None for an absent gradient).
    """
    zero = c.dtype.type(0)
    kernel = cuda.elementwise(
        'T za, T zi, T zf, T zo, T cp, T c, T gc, T gh', 'T ga, T gi, T gf, T go, T gcp',
        _BACKWARD, 'chainer_lstm_bwd')
    kernel(za, zi, zf, zo, cp, c, zero if gc is None else gc, zero if gh is None else gh,
           ga, gi, gf, go, gcp)
