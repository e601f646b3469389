"""Adding values at indexed positions."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import backend
from chainer.function_node import FunctionNode
from chainer.functions._guard import guarded
from chainer.functions.array._util import bool_to_nonzero, has_integer_index, index_add
from chainer.functions.array.get_item import get_item, indexed_dims, normalize_slices, slices_to
from chainer.functions.math.sum import sum_to
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.functions.array.get_item import Index
    from chainer.types import GradInputs, GradOutputs, NdArray, VariableOrArray


class ScatterAdd(FunctionNode):
    """A copy of ``a`` with ``b`` added at ``a[slices]`` (repeated targets accumulate)."""

    def __init__(self, slices: Index) -> None:
        self.slices = normalize_slices(slices)

    @property
    def label(self) -> str:
        return 'ScatterAdd'

    def check_type_forward(self, in_types: type_check.TypeInfoTuple) -> None:
        type_check.argname(in_types, ('a', 'b'))
        type_check.expect(in_types[0].dtype == in_types[1].dtype)
        n = indexed_dims(self.slices)
        type_check.expect(in_types[0].ndim >= n)

    def forward(self, inputs: tuple[NdArray, ...]) -> tuple[NdArray, ...]:
        a, b = inputs
        xp = backend.get_array_module(a)
        self.slices = slices_to(xp, self.slices)
        self._b_shape = b.shape
        y = a.copy()
        target_shape = y[self.slices].shape
        try:
            b = xp.broadcast_to(b, target_shape)
        except ValueError:
            raise ValueError(f'scatter_add: b of shape {b.shape} does not broadcast to the '
                             f'shape of a[slices], {target_shape}') from None
        if has_integer_index(self.slices):
            index_add(y, bool_to_nonzero(self.slices), b)
        else:
            y[self.slices] += b
        return y,

    def backward(self, indexes: tuple[int, ...], grad_outputs: GradOutputs) -> GradInputs:

        gy, = grad_outputs
        assert gy is not None
        ret = []
        for i in indexes:
            if i == 0:
                ret.append(gy)
            else:
                gb = get_item(gy, self.slices)
                if gb.shape != self._b_shape:
                    gb = sum_to(gb, self._b_shape)
                ret.append(gb)
        return tuple(ret)


@guarded
def scatter_add(a: VariableOrArray, slices: Index, b: VariableOrArray) -> Variable:
    """Add ``b`` to the elements ``a[slices]`` of a copy of ``a`` (``a`` is not changed).

    Args:
        a: input variable.
        slices: an index as accepted by :func:`get_item`; with integer arrays,
            repeated targets receive every contribution (like ``numpy.add.at``).
        b: variable of the dtype of ``a`` whose shape broadcasts to ``a[slices]``.

    Returns:
        The result of the scatter addition.

    Raises:
        chainer.utils.type_check.InvalidType: for different dtypes, or an index
            of more axes than ``a`` has.
        ValueError: when ``b`` does not broadcast to ``a[slices]``.
        IndexError: for an index that does not fit ``a``; for more than one
            Ellipsis, the error is also a ValueError (as in Chainer 7).
    """
    return ScatterAdd(slices).apply((a, b))[0]
