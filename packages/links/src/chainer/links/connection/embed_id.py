"""EmbedID: the lookup table of word embeddings."""

from __future__ import annotations

from typing import TYPE_CHECKING

from chainer import functions, initializers
from chainer.link import Link
from chainer.variable import Parameter, as_array

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class EmbedID(Link):
    """Efficient linear layer for one-hot inputs: row ``x`` of ``W`` for each ID ``x``.

    ``W`` has shape ``(in_size, out_size)``. See :func:`chainer.functions.embed_id`.

    Args:
        in_size: the number of IDs (the vocabulary size).
        out_size: the size of each embedding.
        initialW: initializer of ``W`` (``Normal(1.0)`` by default) or an array.
        ignore_label: an ID whose embedding is a zero vector (None for none).

    Example:
        >>> import numpy as np
        >>> import chainer.links as L
        >>> embed = L.EmbedID(5, 3)
        >>> embed.W.shape
        (5, 3)
        >>> embed(np.array([0, 4, 4], np.int32)).shape
        (3, 3)
    """

    # Files pickled before ignore_label existed load without the attribute.
    ignore_label: int | None = None

    def __init__(self, in_size: int, out_size: int, initialW: InitializerSpec | None = None,
                 ignore_label: int | None = None) -> None:
        super().__init__()
        self.ignore_label = ignore_label
        if initialW is None:
            initialW = initializers.Normal(1.0)
        with self.init_scope():
            self.W = Parameter(initializers._get_initializer(initialW), (in_size, out_size))

    @classmethod
    def from_params(cls, W: VariableOrArray, ignore_label: int | None = None) -> EmbedID:
        """Build an EmbedID whose ``W`` is a copy of ``W`` (``(in_size, out_size)``).

        Raises:
            ValueError: when ``W`` is not 2-dimensional.
        """
        W = as_array(W)
        if W.ndim != 2:
            raise ValueError(f'W must be 2-dimensional, not of shape {W.shape}')
        in_size, out_size = W.shape
        return cls(in_size, out_size, initialW=W.copy(), ignore_label=ignore_label)

    def forward(self, x: VariableOrArray) -> Variable:
        """Return the embeddings of the integer IDs ``x`` (shape ``x.shape + (out_size,)``).

        Raises:
            ValueError: in debug mode, for an ID out of range (other than ``ignore_label``).
        """
        return functions.embed_id(x, self.W, ignore_label=self.ignore_label)
