"""Highway: the highway network layer."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear

if TYPE_CHECKING:
    from chainer.types import InitializerSpec, VariableOrArray
    from chainer.variable import Variable


class Highway(Chain):
    """Highway layer (Srivastava et al., "Highway Networks").

    ``y = H(x) * T(x) + x * (1 - T(x))`` with the plain transform
    ``H(x) = activate(W_h x + b_h)`` (child ``plain``) and the transform gate
    ``T(x) = sigmoid(W_t x + b_t)`` (child ``transform``).

    Args:
        in_out_size: the input and output size.
        nobias: if True, the two linear layers have no bias.
        activate: the activation of the plain transform (``relu``).
        init_Wh: initializer of ``plain.W``.
        init_Wt: initializer of ``transform.W``.
        init_bh: initializer of ``plain.b`` (zero).
        init_bt: initializer of ``transform.b`` (-1, so that the gate starts
            mostly carrying the input).
    """

    def __init__(self, in_out_size: int, nobias: bool = False,
                 activate: Callable[[Any], Any] = functions.relu,
                 init_Wh: InitializerSpec | None = None, init_Wt: InitializerSpec | None = None,
                 init_bh: InitializerSpec | None = None,
                 init_bt: InitializerSpec | None = -1) -> None:
        super().__init__()
        self.activate = activate
        with self.init_scope():
            self.plain = Linear(in_out_size, in_out_size, nobias=nobias, initialW=init_Wh,
                                initial_bias=init_bh)
            self.transform = Linear(in_out_size, in_out_size, nobias=nobias,
                                    initialW=init_Wt, initial_bias=init_bt)

    def forward(self, x: VariableOrArray) -> Variable:
        """Apply the layer to ``x`` of shape ``(batch, in_out_size)``."""
        out_plain = self.activate(self.plain(x))
        gate = functions.sigmoid(self.transform(x))
        return out_plain * gate + x * (1 - gate)
