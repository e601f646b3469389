"""Shape helpers working on arrays and Variables alike."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from chainer.utils import size_of_shape, sum_to  # noqa: F401  (v7 exposes them here too)

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


def as_vec(x: VariableOrArray) -> Any:
    """``x`` flattened to one dimension (a Variable stays differentiable)."""
    if x.ndim == 1:
        return x
    return _reshape(x, (x.size,) if hasattr(x, 'size') else (-1,))


def as_mat(x: VariableOrArray) -> Any:
    """``x`` as a matrix: the first axis kept, the others flattened."""
    if x.ndim == 2:
        return x
    return _reshape(x, (len(x), -1))


def empty_like(x: VariableOrArray) -> Any:
    """An uninitialized array of the shape, dtype and device of ``x``."""
    from chainer import backend

    return backend.get_array_module(x).empty_like(x)


def _reshape(x: VariableOrArray, shape: tuple[int, ...]) -> Any:
    import chainer

    if isinstance(x, chainer.Variable):
        return chainer.functions.reshape(x, shape)
    return x.reshape(shape)
