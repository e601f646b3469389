"""R^2, the coefficient of determination."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend, utils
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions._util import UnsupportedValueError
from chainer.utils import type_check
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class R2_score(FunctionNode):
    """``1 - SS_res / SS_tot`` over axis 0, for each output."""

    _type_check_cache_attrs = ('multioutput',)

    def __init__(self, sample_weight: NdArray | None = None,
                 multioutput: str = 'uniform_average') -> None:
        if sample_weight is not None:
            raise UnsupportedValueError('r2_score supports sample_weight=None only')
        if multioutput not in ('uniform_average', 'raw_values'):
            raise ValueError("multioutput must be 'uniform_average' or 'raw_values', not "
                             f'{multioutput!r}')
        self.sample_weight = sample_weight
        self.multioutput = multioutput

    @property
    def label(self) -> str:
        return 'R2_score'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('pred', 'true'))
        p_type, t_type = in_types
        # v7's checks first (it did not require one dtype), so that the same failure
        # is reported
        type_check.expect(p_type.dtype.kind == 'f', t_type.dtype.kind == 'f')
        type_check.expect(p_type.shape == t_type.shape)
        type_check.expect(p_type.dtype == t_type.dtype, p_type.ndim >= 1)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        pred, true = inputs
        xp = backend.get_array_module(pred)
        p = pred.astype(xp.float64) if pred.dtype.itemsize < 4 else pred
        t = true.astype(p.dtype, copy=False)
        ss_res = ((p - t) ** 2).sum(axis=0)
        if t.shape[0]:
            ss_tot = ((t - t.mean(axis=0)) ** 2).sum(axis=0)
        else:
            ss_tot = xp.zeros(t.shape[1:], t.dtype)
        zero = ss_tot == 0
        r2 = xp.where(zero, 0.0, 1 - ss_res / xp.where(zero, 1, ss_tot))
        r2 = r2.astype(pred.dtype, copy=False)
        if self.multioutput == 'uniform_average':
            return utils.force_array(r2.mean() if r2.size else xp.asarray(0.0), pred.dtype),
        return utils.force_array(r2, pred.dtype),

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:
        return (None,) * len(indexes)


@guarded
def r2_score(pred: VariableOrArray, true: VariableOrArray, sample_weight: NdArray | None = None,
             multioutput: str = 'uniform_average') -> Variable:
    """R^2 (coefficient of determination) regression score.

    For each output (each index of the non-batch axes),
    ``R^2 = 1 - sum((pred - true)^2) / sum((true - mean(true))^2)`` over axis 0;
    an output whose targets are constant scores 0.

    Args:
        pred: estimated target values, of shape ``(N, ...)`` and a float dtype.
        true: correct target values, of the shape and dtype of ``pred``.
        sample_weight: only None is supported (kept for scikit-learn compatibility).
        multioutput: ``'uniform_average'`` (the mean of the scores) or
            ``'raw_values'`` (one score per output).

    Returns:
        A scalar variable, or the scores of shape ``pred.shape[1:]``; not
        differentiable.

    Raises:
        NotImplementedError: when ``sample_weight`` is given.
        ValueError: for an unknown ``multioutput``.
        chainer.utils.type_check.InvalidType: when the shapes or dtypes differ.
    """
    return R2_score(sample_weight, multioutput).apply((as_array(pred), as_array(true)))[0]
