"""Maxout: a linear layer followed by a max over groups of its outputs."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import numpy

from chainer import functions
from chainer.initializer import Initializer
from chainer.link import Chain
from chainer.links.connection.linear import Linear

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class _InMaxoutLayout:
    """A plain callable initializer run on the child Linear's parameter viewed in
    Maxout's layout ``(out_size, pool_size, ...)``, as Chainer v7 runs one.

    Args:
        initializer: the callable given as ``initialW`` or ``initial_bias``.
        shape: Maxout's layout of the parameter.
    """

    def __init__(self, initializer: Callable[[Any], None], shape: tuple[int, ...]) -> None:
        self.initializer = initializer
        self.shape = shape
        self.dtype = getattr(initializer, 'dtype', None)

    def __call__(self, array: Any) -> None:
        view = array.reshape(self.shape)  # the Linear's fresh parameter is contiguous
        self.initializer(view)


def _initial_array(initializer: Any, shape: tuple[int, ...], name: str) -> Any:
    """``initializer`` for the child Linear, as Chainer v7 passes it on.

    An array given in Maxout's ``(out_size, pool_size, ...)`` layout is flattened to the
    Linear's; a plain callable runs on the Linear's parameter viewed in Maxout's layout;
    an :class:`~chainer.Initializer`, a scalar or None is left to the Linear, so it draws
    on the Linear's own shape (fans and seeded draws as in v7).

    Raises:
        ValueError: when an array of another shape is given.
    """
    if isinstance(initializer, numpy.ndarray) or type(initializer).__name__ == 'ndarray':
        if initializer.shape != shape:
            raise ValueError(f'Maxout: {name} must have shape {shape}, not '
                             f'{initializer.shape}')
        return initializer.reshape((shape[0] * shape[1],) + shape[2:])
    if callable(initializer) and not isinstance(initializer, Initializer):
        return _InMaxoutLayout(initializer, shape)
    return initializer


class Maxout(Chain):
    """Fully-connected maxout layer (Goodfellow et al., "Maxout Networks").

    ``y_i = max_j (W_ij x + b_ij)`` for ``j < pool_size``: a child
    :class:`~chainer.links.Linear` ``linear`` of ``out_size * pool_size``
    outputs, followed by :func:`chainer.functions.maxout`.

    Args:
        in_size: the input size (the axes after the first are flattened).
        out_size: the output size.
        pool_size: the number of linear pieces per output.
        initialW: initializer of the weights: an array in the layout
            ``(out_size, pool_size, in_size)``; a plain callable, called with the weight
            viewed in that layout; or an :class:`~chainer.Initializer` (LeCun normal by
            default), drawn on the Linear's ``(out_size * pool_size, in_size)`` weight,
            as in v7.
        initial_bias: initializer of the biases (an array in the layout
            ``(out_size, pool_size)``; zero by default); None for no bias.

    Raises:
        ValueError: when an initial array has the wrong shape.
    """

    def __init__(self, in_size: int, out_size: int, pool_size: int,
                 initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = 0) -> None:
        super().__init__()
        linear_out_size = out_size * pool_size
        W = _initial_array(initialW, (out_size, pool_size, in_size), 'initialW')
        b = None if initial_bias is None else _initial_array(
            initial_bias, (out_size, pool_size), 'initial_bias')
        with self.init_scope():
            self.linear = Linear(in_size, linear_out_size, nobias=b is None, initialW=W,
                                 initial_bias=b)
        self.out_size = out_size
        self.pool_size = pool_size

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the layer to ``x`` of shape ``(batch, ...)``; returns ``(batch, out_size)``.

        Raises:
            chainer.utils.type_check.InvalidType: when ``x`` does not have ``in_size``
                elements per sample.
        """
        return functions.maxout(self.linear(x), self.pool_size)
