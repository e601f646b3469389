"""Discrete Fourier transform of a complex signal given as (real, imag)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.math._util import const, expect_float
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class FFT(FunctionNode):
    """1-D DFT (``method='fft'``) or its inverse (``'ifft'``) over the last axis."""

    def __init__(self, method: str) -> None:
        self._method = method

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        expect_float(in_types, ('real', 'imag'))
        r, i = in_types
        type_check.expect(r.shape == i.shape, r.ndim >= 1, r.shape[-1] > 0)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        real, imag = inputs
        self._n = real.shape[-1]
        xp = backend.get_array_module(real)
        ctype = numpy.complex128 if real.dtype == numpy.float64 else numpy.complex64
        x = real.astype(ctype) + imag.astype(ctype) * ctype(1j)
        y = getattr(xp.fft, self._method)(x)
        return (utils.force_array(y.real, real.dtype),
                utils.force_array(y.imag, real.dtype))

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gr, gi = grad_outputs
        n = self._n
        if gr is None or gi is None:
            ref = gi if gr is None else gr
            assert ref is not None  # backward runs only when some output has a gradient
            xp = backend.get_array_module(ref.array)
            zero = const(xp.zeros(ref.shape, ref.dtype))
            gr = zero if gr is None else gr
            gi = zero if gi is None else gi
        # The adjoint of the DFT matrix F is conj(F) = n * F^-1.
        if self._method == 'fft':
            gxr, gxi = FFT('ifft').apply((gr, gi))
            gxr, gxi = gxr * n, gxi * n
        else:
            gxr, gxi = FFT('fft').apply((gr, gi))
            gxr, gxi = gxr * (1.0 / n), gxi * (1.0 / n)
        return tuple((gxr, gxi)[i] for i in indexes)


def _apply(x: Any, method: str) -> tuple[Variable, Variable]:
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise TypeError(f'{method} takes a tuple (real, imag) of two variables')
    real, imag = FFT(method).apply(tuple(x))
    return real, imag


@guarded
def fft(x: VariableOrArray) -> tuple[Variable, Variable]:
    """Fast Fourier transform over the last axis.

    Args:
        x: a tuple ``(real, imag)`` of float variables of one shape and dtype.

    Returns:
        The tuple ``(real, imag)`` of the transform.

    Raises:
        TypeError: when ``x`` is not such a pair.
        chainer.utils.type_check.InvalidType: for mismatched or empty inputs.
    """
    return _apply(x, 'fft')


@guarded
def ifft(x: VariableOrArray) -> tuple[Variable, Variable]:
    """Inverse fast Fourier transform over the last axis.

    Args:
        x: a tuple ``(real, imag)`` of float variables of one shape and dtype.

    Returns:
        The tuple ``(real, imag)`` of the inverse transform.

    Raises:
        TypeError: when ``x`` is not such a pair.
        chainer.utils.type_check.InvalidType: for mismatched or empty inputs.
    """
    return _apply(x, 'ifft')
