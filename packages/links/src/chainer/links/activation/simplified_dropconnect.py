"""SimplifiedDropconnect: a linear layer with DropConnect on its weights."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy

from chainer import functions, initializers
from chainer.link import Link
from chainer.links import _util
from chainer.variable import Parameter

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, NdArray, VariableOrArray
    from chainer.variable import Variable


class SimplifiedDropconnect(Link):
    """Fully-connected layer with simplified DropConnect regularization.

    In training, each weight is dropped with probability ``ratio`` (and the
    rest scaled by ``1 / (1 - ratio)``), with one mask per sample or one for the
    batch. See :func:`chainer.functions.simplified_dropconnect`.

    Args:
        in_size: the input size, or None (read off the first input).
        out_size: the output size.
        ratio: the dropping probability.
        nobias: if True, there is no bias.
        initialW: initializer of ``W`` ``(out_size, in_size)`` (LeCun normal).
        initial_bias: initializer of ``b`` (zero by default).
    """

    def __init__(self, in_size: int | None, out_size: int, ratio: float = .5,
                 nobias: bool = False, initialW: InitializerSpec | None = None,
                 initial_bias: InitializerSpec | None = None) -> None:
        super().__init__()
        self.out_size = out_size
        self.ratio = ratio
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW))
            if in_size is not None:
                self._initialize_params(in_size)
            self.b = _util.bias_parameter(nobias, initial_bias, out_size)

    def _initialize_params(self, in_size: int) -> None:
        self.W.initialize((self.out_size, in_size))

    def forward(self, x: VariableOrArray, train: bool = True, mask: NdArray | None = None,
                use_batchwise_mask: bool = True) -> Variable:
        """Apply the layer to ``x`` of shape ``(batch, ...)``.

        Args:
            x: the input; the axes after the first are flattened.
            train: if False, no weight is dropped.
            mask: a given mask (``(batch, out_size, in_size)`` or
                ``(out_size, in_size)``); drawn at random when None.
            use_batchwise_mask: whether each sample gets its own mask.

        Raises:
            chainer.utils.type_check.InvalidType: when ``x`` or ``mask`` does not
                match ``W``.
        """
        if self.W.array is None:
            self._initialize_params(int(numpy.prod(x.shape[1:], dtype=numpy.int64)))
        return functions.simplified_dropconnect(x, self.W, self.b, self.ratio, train, mask,
                                                use_batchwise_mask)
