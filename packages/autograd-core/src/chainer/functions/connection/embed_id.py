"""Embedding lookup (``embed_id``): the rows of ``W`` picked by integer IDs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, cast

from chainer import _deferred_grad, backend
from chainer.configuration import config
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import retained_inputs
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


def _check_ids(xp: Any, x: Any, n_rows: int, ignore_label: int | None) -> None:
    valid = (x >= 0) & (x < n_rows)
    if ignore_label is not None:
        valid |= x == ignore_label
    if not bool(valid.all()):
        raise ValueError(f'Each not ignored `x` value need to satisfy `0 <= x < len(W)` '
                         f'(len(W) = {n_rows}, ignore_label = {ignore_label})')


def _lookup(xp: Any, x: Any, W: Any, ignore_label: int | None) -> Any:
    if ignore_label is None:
        return W.take(x, axis=0)
    mask = x == ignore_label
    y = W.take(xp.where(mask, 0, x), axis=0)
    y[mask] = 0
    return y


def _scatter(x: Any, gy: Any, w_shape: tuple[int, ...], ignore_label: int | None) -> Any:
    """The gradient of ``W``: the rows of ``gy`` summed into the rows ``x`` of zeros."""
    return _deferred_grad.scatter_rows(w_shape, gy.dtype, x.ravel(),
                                       gy.reshape(-1, w_shape[1]), ignore_label)


class EmbedIDFunction(FunctionNode):
    """``(x, W) -> W[x]``, with rows of ``ignore_label`` IDs set to zero."""

    _type_check_cache_attrs = ()

    def __init__(self, ignore_label: int | None = None) -> None:
        self.ignore_label = ignore_label

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        x_type, w_type = in_types  # unnamed (in_types[i]), as in v7
        type_check.expect(
            x_type.dtype.kind == 'i',
            x_type.ndim >= 1,
            w_type.dtype.kind == 'f',
            w_type.ndim == 2,
        )

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0,))
        x, W = inputs
        self._w_shape = W.shape
        xp = backend.get_array_module(x, W)
        if config.debug:
            _check_ids(xp, x, len(W), self.ignore_label)
        return _lookup(xp, x, W, self.ignore_label),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        gy, = grad_outputs
        assert gy is not None
        if not config.enable_backprop:
            # first order: no graph of the backward is needed, so no EmbedIDGrad node
            x, gy = self.inputs[0].data, gy.array
            size = self._w_shape[0] * self._w_shape[1]
            if _deferred_grad.wanted(self, self.inputs[1], size):
                # a DeferredGrad, which the pass that asked for it (wanted) accepts
                return None, cast(Variable, _deferred_grad.RowScatterSum(
                    self._w_shape, gy.dtype, x, gy, self.ignore_label))
            return None, Variable._new(_scatter(x, gy, self._w_shape, self.ignore_label), False)
        x = retained_inputs(self)[0]
        return None, EmbedIDGrad(self._w_shape, self.ignore_label).apply((x, gy))[0]


class EmbedIDGrad(FunctionNode):
    """``(x, gy) -> gW``: the rows of ``gy`` summed into the rows ``x`` of a zero ``W``."""

    def __init__(self, w_shape: tuple[int, ...], ignore_label: int | None = None) -> None:
        self.w_shape = tuple(w_shape)
        self.ignore_label = ignore_label

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray]:
        self.retain_inputs((0,))
        x, gy = inputs
        return _scatter(x, gy, self.w_shape, self.ignore_label),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        x = retained_inputs(self)[0]
        ggW, = grad_outputs
        assert ggW is not None
        return None, embed_id(x, ggW, self.ignore_label)


@guarded
def embed_id(x: VariableOrArray, W: VariableOrArray, ignore_label: int | None = None) -> Variable:
    """Efficient linear function for one-hot input: the rows ``W[x]``.

    Args:
        x: integer IDs of any shape (``int`` dtype).
        W: embedding matrix of shape ``(n_ids, n_units)``.
        ignore_label: an ID whose output rows are zero (and that gets no
            gradient), or None.

    Returns:
        Output of shape ``x.shape + (n_units,)``, of ``W``'s dtype.

    Raises:
        chainer.utils.type_check.InvalidType: for a non-integer ``x`` or a
            ``W`` that is not a 2-D float array.
        ValueError: in debug mode, for an ID outside ``[0, n_ids)`` other than
            ``ignore_label``.

    Example:
        >>> import numpy as np
        >>> import chainer.functions as F
        >>> W = np.array([[0., 0.], [1., 1.], [2., 4.]], np.float32)
        >>> x = np.array([2, 0, 1], np.int32)
        >>> print(F.embed_id(x, W).array)
        [[2. 4.]
         [0. 0.]
         [1. 1.]]
    """
    return EmbedIDFunction(ignore_label=ignore_label).apply((x, W))[0]
