"""The LSTM cell's elementwise work on the CPU as compiled kernels (Numba; see
``chainer.internal.jit_kernel``).

:class:`~chainer.links.rnn._lstm_cell.LSTMCell` works on the gates in a gate-major
``(4, units, batch)`` layout with about a dozen NumPy operations per step forward and
twenty backward, each a pass over a few thousand elements whose cost is mostly the call.
These kernels make the arithmetic in one pass each and leave the hyperbolic tangents to
NumPy (the same calls on the same arrays as the NumPy path), so that both paths compute
every element with the same operations in the same order and agree bit for bit:

- :func:`gates`: the gate sources reordered to the gate-major layout with the bias added,
  the sigmoid gates' halved (before NumPy's ``tanh``);
- :func:`state`: the sigmoids completed (``t / 2 + 1 / 2``) and the new cell
  ``c = a i + f c_prev``;
- :func:`backward`: the gradients of the raw gates, in the weights' interleaved row order,
  and of ``c_prev``, from ``tanh(c)``.
"""

from __future__ import annotations

import numpy

from chainer import internal

NDArray = numpy.ndarray
Scalar = numpy.floating


@internal.jit_kernel
def gates(z: NDArray, b: NDArray, half: Scalar,
          out: NDArray) -> None:  # pragma: no cover (compiled)
    """``out[g, u] = z[4 u + g] + b[4 u + g]``, times ``half`` for the sigmoid gates
    ``g >= 1`` (``z``: (4 units, batch); ``out``: (4, units, batch))."""
    _, units, batch = out.shape
    for u in range(units):
        for g in range(4):
            row = z[4 * u + g]
            bias = b[4 * u + g]
            dst = out[g, u]
            if g == 0:
                for k in range(batch):
                    dst[k] = row[k] + bias
            else:
                for k in range(batch):
                    dst[k] = (row[k] + bias) * half


@internal.jit_kernel
def state(gates: NDArray, c_prev: NDArray, half: Scalar,
          c: NDArray) -> None:  # pragma: no cover (compiled)
    """The sigmoids ``gates[1:] = gates[1:] * half + half`` (from their ``tanh``) and
    ``c = a * i + f * c_prev.T`` (``c_prev``: (batch, units); ``c``: (units, batch))."""
    _, units, batch = gates.shape
    for u in range(units):
        a = gates[0, u]
        i = gates[1, u]
        f = gates[2, u]
        o = gates[3, u]
        dst = c[u]
        for k in range(batch):
            si = i[k] * half + half
            sf = f[k] * half + half
            i[k] = si
            f[k] = sf
            o[k] = o[k] * half + half
            dst[k] = a[k] * si + sf * c_prev[k, u]


@internal.jit_kernel
def backward(gates: NDArray, c_prev: NDArray, co: NDArray, gh: NDArray, gc_out: NDArray,
             with_gh: bool, with_gc: bool, one: Scalar, gz: NDArray,
             gc_prev: NDArray) -> None:  # pragma: no cover (compiled)
    """The gradients of one step: ``gz`` (4 units, batch), rows interleaved as the
    weights' (unit ``u``'s gates at ``4 u .. 4 u + 3``), and ``gc_prev`` (units, batch).

    ``gates``: the activated gates (4, units, batch); ``c_prev``, ``gh``, ``gc_out``:
    (batch, units), ``gh``/``gc_out`` read only ``with_gh``/``with_gc``; ``co``:
    ``tanh(c)`` (units, batch).
    """
    _, units, batch = gates.shape
    zero = one - one
    for u in range(units):
        a = gates[0, u]
        i = gates[1, u]
        f = gates[2, u]
        o = gates[3, u]
        t = co[u]
        for k in range(batch):
            if with_gh:
                h = gh[k, u]
                go = h * t[k]
                gc = ((one - t[k] * t[k]) * o[k]) * h
                if with_gc:
                    gc = gc + gc_out[k, u]
            else:
                go = zero
                gc = gc_out[k, u] if with_gc else zero
            gz[4 * u, k] = ((one - a[k] * a[k]) * i[k]) * gc
            gz[4 * u + 1, k] = (gc * a[k]) * ((one - i[k]) * i[k])
            gz[4 * u + 2, k] = (gc * c_prev[k, u]) * ((one - f[k]) * f[k])
            gz[4 * u + 3, k] = go * ((one - o[k]) * o[k])
            gc_prev[u, k] = gc * f[k]
