"""Flattening into one dimension."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer.functions._guard import guarded
from chainer.functions.array.reshape import reshape
from chainer.variable import Variable, as_array

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


@guarded
def flatten(x: VariableOrArray) -> Variable:
    """Flatten ``x`` into a one-dimensional variable of ``x.size`` elements.

    Args:
        x: input variable or array.

    Returns:
        The flattened variable (a reshape: its gradient is reshaped back).

    Raises:
        TypeError: when ``x`` is not a variable or an array.
    """
    size = getattr(as_array(x), 'size', None)
    if not isinstance(size, int):
        raise TypeError(f'flatten needs a Variable or an array, not {type(x).__name__}')
    return reshape(x, (size,))
