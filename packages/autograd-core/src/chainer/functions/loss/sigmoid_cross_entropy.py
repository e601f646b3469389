"""Sigmoid cross entropy for binary (multi-label) classification."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._composite import BackwardNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.functions.activation.sigmoid import sigmoid
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.loss._util import check_reduce, scaled_sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class SigmoidCrossEntropy(FunctionNode):
    """Sigmoid cross entropy of logits ``x`` and 0/1 labels ``t`` (-1: ignore)."""

    _type_check_cache_attrs = ()

    ignore_label = -1

    def __init__(self, normalize: bool = True, reduce: str = 'mean') -> None:
        self.normalize = normalize
        self.reduce = reduce

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('x', 't'))
        x_type, t_type = in_types
        type_check.expect(x_type.dtype.kind == 'f', t_type.dtype.kind == 'i',
                          x_type.shape == t_type.shape)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        self.retain_inputs((0, 1))
        x, t = inputs
        xp = backend.get_array_module(x)
        mask = t != self.ignore_label
        self._weight = mask.astype(x.dtype)
        # log(1 + exp(-|x|)) + max(x, 0) - x t: stable for large |x|
        loss = (xp.log1p(xp.exp(-abs(x))) + xp.maximum(x, 0) - x * t) * self._weight
        if self.reduce == 'mean':
            if self.normalize:
                count = int(mask.sum())
            else:
                count = x.shape[0] if x.ndim else 1
            self._coeff = 1.0 / max(count, 1)
            return scaled_sum(loss, self._coeff, x.dtype),
        return utils.force_array(loss, x.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x, t = retained_inputs(self)
        gy, = grad_outputs
        assert gy is not None
        if self.reduce == 'mean':
            gy = broadcast_to(gy * self._coeff, x.shape)
        ta = t.array.astype(x.dtype)
        return gy * ((sigmoid(x) - ta) * self._weight), None


@guarded
def sigmoid_cross_entropy(x: VariableOrArray, t: VariableOrArray, normalize: bool = True,
                          reduce: str = 'mean') -> Variable:
    """Cross entropy between ``sigmoid(x)`` and binary labels ``t``.

    Computed stably from the logits; differentiable twice with respect to ``x``.

    Args:
        x: logits (float).
        t: int labels of the shape of ``x``, 0 or 1; -1 entries are ignored.
        normalize: with ``reduce='mean'``, divide by the number of non-ignored
            labels (True) or by the batch size ``x.shape[0]`` (False).
        reduce: ``'mean'`` (a scalar) or ``'no'`` (elementwise, 0 where ignored).

    Returns:
        A variable of the loss; it is 0 when every label is ignored.

    Raises:
        ValueError: for an unknown ``reduce``.
        chainer.utils.type_check.InvalidType: for mismatched inputs.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> x = np.array([[0., 2.], [-2., 0.]], np.float32)
        >>> t = np.array([[1, 1], [0, 1]], np.int32)
        >>> print(F.sigmoid_cross_entropy(x, t).array)
        0.4100376
    """
    check_reduce(reduce, ('mean', 'no'))
    return SigmoidCrossEntropy(normalize, reduce).apply((x, t))[0]


class SigmoidCrossEntropyGrad(BackwardNode):
    """The gradient of :class:`SigmoidCrossEntropy`: ``(x, t, gy)`` to ``gx``.

    Args:
        normalize: as in :func:`sigmoid_cross_entropy`.
        reduce: as in :func:`sigmoid_cross_entropy`.
    """

    n_in = 2
    wrt = (0,)

    def __init__(self, normalize: bool = True, reduce: str = 'mean') -> None:
        self.normalize = normalize
        self.reduce = reduce

    def primal(self) -> FunctionNode:
        return SigmoidCrossEntropy(self.normalize, self.reduce)
