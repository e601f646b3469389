"""Gaussian sampling with the reparameterization trick."""

from __future__ import annotations

from typing import TYPE_CHECKING, Literal, overload

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.math.exponential import exp
from chainer.functions.noise._util import expect_noise_shape, parse_kwargs
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Gaussian(FunctionNode):
    """``mean + exp(ln_var / 2) * eps`` with ``eps ~ N(0, 1)`` (or a given ``eps``)."""

    def __init__(self, eps: NdArray | None = None) -> None:
        self.eps = eps

    @property
    def label(self) -> str:
        return 'Gaussian'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('mean', 'ln_var'))
        m_type, v_type = in_types
        type_check.expect(m_type.dtype.kind == 'f', m_type.dtype == v_type.dtype,
                          m_type.shape == v_type.shape)
        if self.eps is not None:
            expect_noise_shape(self.eps, 'eps', v_type, 'ln_var')

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((1,))
        mean, ln_var = inputs
        xp = backend.get_array_module(mean)
        if self.eps is None:
            self.eps = xp.random.standard_normal(ln_var.shape).astype(mean.dtype, copy=False)
        elif self.eps.dtype != mean.dtype:
            self.eps = self.eps.astype(mean.dtype)
        noise = xp.exp(ln_var * ln_var.dtype.type(0.5)) * self.eps
        return utils.force_array(mean + noise, mean.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy)
            else:
                ln_var, = retained_inputs(self)
                eps = self.eps
                assert eps is not None  # given, or drawn by forward
                ret.append(gy * exp(ln_var * 0.5) * (eps * eps.dtype.type(0.5)))
        return tuple(ret)


@overload
def gaussian(mean: VariableOrArray, ln_var: VariableOrArray, *,
             eps: VariableOrArray | None = ..., return_eps: Literal[False] = ...) -> Variable: ...


@overload
def gaussian(mean: VariableOrArray, ln_var: VariableOrArray, *,
             eps: VariableOrArray | None = ...,
             return_eps: Literal[True]) -> tuple[Variable, NdArray]: ...


@overload
def gaussian(mean: VariableOrArray, ln_var: VariableOrArray, *,
             eps: VariableOrArray | None = ...,
             return_eps: bool) -> Variable | tuple[Variable, NdArray]: ...


@guarded
def gaussian(mean: VariableOrArray, ln_var: VariableOrArray,
             **kwargs: VariableOrArray | bool | None) -> Variable | tuple[Variable, NdArray]:
    """Sample from the Gaussian ``N(mean, exp(ln_var))``, differentiably.

    Computes ``mean + exp(ln_var / 2) * eps`` with ``eps`` drawn from the standard
    normal distribution, so the gradient flows to ``mean`` and ``ln_var`` (the
    reparameterization trick). It samples in training and test mode alike.

    Args:
        mean: the mean, of a float dtype.
        ln_var: the log of the variance, of the shape and dtype of ``mean``.
        eps: (keyword) the standard-normal noise to use instead of fresh samples,
            of the shape of ``ln_var``.
        return_eps: (keyword) also return the noise used.

    Returns:
        The sample, or ``(sample, eps)`` when ``return_eps`` is true.

    Raises:
        chainer.utils.type_check.InvalidType: when the shapes or dtypes differ.
        TypeError: for an unknown keyword argument.
    """
    eps, return_eps = parse_kwargs('gaussian', kwargs, eps=None, return_eps=False)
    if isinstance(eps, Variable):
        eps = eps.array
    eps_device = None if eps is None else backend.ChainerxDevice.from_array(eps)
    if eps_device is not None:  # the node runs on the NumPy/CuPy arrays behind ChainerX's
        eps = eps_device.fallback_device.send(eps)
    func = Gaussian(eps)
    y, = func.apply((mean, ln_var))
    if not return_eps:
        return y
    assert func.eps is not None  # drawn by forward when not given
    # on a ChainerX device the node ran on the NumPy/CuPy arrays behind the inputs: the
    # noise goes back as an array of that device, as the sample is
    chx = backend.ChainerxDevice.from_array(y.array)
    return y, (func.eps if chx is None else chx.send(func.eps))


# called with ChainerX arrays, the noise goes back to their device (chainer._chainerx_bridge)
gaussian.__wrapped__._chainerx_array_outputs = True  # type: ignore[attr-defined]
