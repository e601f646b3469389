"""Zoneout: keep previous hidden states at random."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import chainer
from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.noise._util import parse_kwargs
from chainer.utils import type_check
from chainer.variable import Variable, as_variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class Zoneout(FunctionNode):
    """``h`` with probability ``ratio``, ``x`` elsewhere.

    After forward, ``flag_h`` and ``flag_x`` hold the boolean masks of the
    elements taken from ``h`` and from ``x``.
    """

    _type_check_cache_attrs = ()

    def __init__(self, zoneout_ratio: float) -> None:
        if not 0.0 <= zoneout_ratio <= 1.0:
            raise ValueError(f'zoneout ratio must be in the range [0, 1], got {zoneout_ratio}')
        self.zoneout_ratio = zoneout_ratio

    @property
    def label(self) -> str:
        return 'Zoneout'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('h', 'x'))
        h_type, x_type = in_types
        type_check.expect(h_type.dtype.kind == 'f', x_type.dtype == h_type.dtype,
                          x_type.shape == h_type.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        h, x = inputs
        xp = backend.get_array_module(x)
        # one xp.random.rand call per forward, as in v7 (tests fix it by patching)
        self.flag_x = xp.asarray(xp.random.rand(*x.shape) >= self.zoneout_ratio)
        self.flag_h = ~self.flag_x
        return utils.force_array(xp.where(self.flag_x, x, h), x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        flags = (self.flag_h, self.flag_x)
        return tuple([gy * flags[i].astype(gy.dtype) for i in indexes])


@guarded
def zoneout(h: VariableOrArray, x: VariableOrArray, ratio: float = .5, **kwargs: Any) -> Variable:
    """Zoneout: each element keeps its previous value ``h`` with probability ``ratio``.

    In training mode (``chainer.config.train``) each element of the output is
    ``h`` with probability ``ratio`` and ``x`` otherwise; in test mode ``x`` is
    returned as it is.

    Args:
        h: the previous hidden state.
        x: the new hidden state, of the shape and dtype of ``h``.
        ratio: the zoneout ratio, in ``[0, 1]``.

    Returns:
        The output variable.

    Raises:
        ValueError: for a ratio out of range, or the removed ``train`` argument.
        chainer.utils.type_check.InvalidType: when the shapes or dtypes differ.
    """
    parse_kwargs('zoneout', kwargs)
    if chainer.config.train:
        return Zoneout(ratio).apply((h, x))[0]
    return as_variable(x)
