"""Bilinear: the bilinear layer ``y = e1^T W e2 + V1^T e1 + V2^T e2 + b``."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions, initializers
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class Bilinear(Link):
    """Bilinear layer (see :func:`chainer.functions.bilinear`).

    ``W`` has shape ``(left_size, right_size, out_size)``; unless ``nobias``,
    ``V1`` ``(left_size, out_size)``, ``V2`` ``(right_size, out_size)`` and ``b``
    ``(out_size,)`` add the linear terms.

    Args:
        left_size: the size of the first input.
        right_size: the size of the second input.
        out_size: the output size.
        nobias: if True, only the bilinear term is used (no ``V1``, ``V2``, ``b``).
        initialW: initializer of ``W`` (LeCun normal by default) or an array.
        initial_bias: a triple of initializers (or arrays) of ``V1``, ``V2`` and
            ``b``; by default LeCun normal, LeCun normal and zero.

    Raises:
        ShapeMismatchError: (a ``ValueError``, and an ``AssertionError`` as in v7)
            when an initial array has the wrong shape.
        ValueError: when ``initial_bias`` is not a triple.
    """

    W: Parameter
    V1: Parameter  # V1, V2 and b: absent with nobias
    V2: Parameter
    b: Parameter

    def __init__(self, left_size: int, right_size: int, out_size: int, nobias: bool = False,
                 initialW: InitializerSpec | None = None,
                 initial_bias: tuple[InitializerSpec | None, InitializerSpec | None,
                                     InitializerSpec] | None = None) -> None:
        super().__init__()
        self.in_sizes = (left_size, right_size)
        self.nobias = nobias
        shape_W = (left_size, right_size, out_size)
        _util.check_initial_array('W', initialW, shape_W)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW), shape_W)
            if nobias:
                return
            initial_V1: InitializerSpec | None
            initial_V2: InitializerSpec | None
            initial_b: InitializerSpec
            if initial_bias is None:
                initial_V1 = initial_V2 = None
                initial_b = 0
            else:
                try:
                    initial_V1, initial_V2, initial_b = initial_bias
                except (TypeError, ValueError):
                    raise ValueError('initial_bias must be a triple (V1, V2, b), not '
                                     f'{initial_bias!r}') from None
            shapes = {'V1': (left_size, out_size), 'V2': (right_size, out_size),
                      'b': (out_size,)}
            for name, initial in (('V1', initial_V1), ('V2', initial_V2), ('b', initial_b)):
                _util.check_initial_array(name, initial, shapes[name])
                setattr(self, name, Parameter(initializers._get_initializer(initial),
                                              shapes[name]))

    def forward(self, e1: VariableOrArray, e2: VariableOrArray) -> Variable:
        """Apply the layer to ``e1`` ``(batch, left_size)`` and ``e2`` ``(batch, right_size)``.

        Inputs with more axes are flattened after the batch axis.
        """
        if self.nobias:
            return functions.bilinear(e1, e2, self.W)
        return functions.bilinear(e1, e2, self.W, self.V1, self.V2, self.b)
