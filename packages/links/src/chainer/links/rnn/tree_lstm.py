"""Tree-LSTM layers (Tai et al., 2015): ``ChildSumTreeLSTM`` and ``NaryTreeLSTM``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import chainer
from chainer import functions
from chainer.link import Chain
from chainer.links.connection.linear import Linear
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray
    pass



def _split_arguments(link: ChildSumTreeLSTM | NaryTreeLSTM,
                     cshsx: Sequence[Any]) -> tuple[list[Any], list[Any], Any]:
    """``(cs, hs, x)`` of a call ``link(c_1, .., c_N, h_1, .., h_N, x)``; a None ``x`` is zeros.

    Raises:
        ValueError: when the number of arguments is not odd, or all are None.
    """
    if len(cshsx) % 2 != 1:
        raise ValueError(f'{type(link).__name__} takes c_1..c_N, h_1..h_N and x (an odd '
                         f'number of arguments), not {len(cshsx)} arguments')
    n = len(cshsx) // 2
    cs, hs, x = list(cshsx[:n]), list(cshsx[n:2 * n]), cshsx[-1]
    if x is None:
        base = next((v for v in cs + hs if v is not None), None)
        if base is None:
            raise ValueError(f'{type(link).__name__}: all the inputs are None')
        with chainer.using_device(link.device):
            x = link.xp.zeros((len(base), link.in_size), dtype=base.dtype)
    return cs, hs, x


def _zeros_for_none(link: ChildSumTreeLSTM | NaryTreeLSTM, values: list[Any], x: Any) -> list[Any]:
    """``values`` with None replaced by zero states of ``x``'s batch."""
    if all(v is not None for v in values):
        return values
    with chainer.using_device(link.device):
        zeros = link.xp.zeros((len(x), link.state_size), dtype=x.dtype)
    return [zeros if v is None else v for v in values]


class ChildSumTreeLSTM(Chain):
    """Child-sum tree-LSTM: a node with any number of children.

    ``c, h = link(c_1, .., c_N, h_1, .., h_N, x)``: the a, i and o gates see
    the sum of the children's outputs, each forget gate ``f_k`` its own child
    (see :func:`chainer.functions.tree_lstm`). Children given as None count
    as zero states; ``x`` None counts as a zero input.

    Args:
        in_size: the input size.
        out_size: the state size.

    Attributes:
        W_x: Linear from the input to the ``a, i, o, f`` sources (4 blocks).
        W_h_aio: Linear (no bias) from the sum of the children's outputs to a, i, o.
        W_h_f: Linear (no bias) from each child's output to its forget gate.
    """

    def __init__(self, in_size: int, out_size: int) -> None:
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        with self.init_scope():
            self.W_x = Linear(in_size, 4 * out_size)
            self.W_h_aio = Linear(out_size, 3 * out_size, nobias=True)
            self.W_h_f = Linear(out_size, out_size, nobias=True)

    def forward(self, *cshsx: VariableOrArray | None) -> tuple[Variable, Variable]:
        """One node from its children's states and its input; returns ``(c, h)``.

        Raises:
            ValueError: for an even number of arguments, or when all are None.
        """
        cs, hs, x = _split_arguments(self, cshsx)
        n = self.state_size
        x_aio, x_f = functions.split_axis(self.W_x(x), [3 * n], axis=1)
        present = [k for k, h in enumerate(hs) if h is not None]
        if not cs:
            a, i, o = functions.split_axis(x_aio, 3, axis=1)
            c = functions.tanh(a) * functions.sigmoid(i)
            return c, functions.sigmoid(o) * functions.tanh(c)
        cs = _zeros_for_none(self, cs, x)
        aio = x_aio
        f_parts: list[Any] = []
        if present:
            h_sum = hs[present[0]]
            for k in present[1:]:
                h_sum = h_sum + hs[k]
            aio = aio + self.W_h_aio(h_sum)
            h_f = functions.split_axis(
                self.W_h_f(functions.concat([hs[k] for k in present], axis=0)),
                len(present), axis=0)
            by_child = dict(zip(present, h_f, strict=True))
            f_parts = [x_f + by_child[k] if k in by_child else x_f for k in range(len(cs))]
        else:
            f_parts = [x_f] * len(cs)
        return functions.tree_lstm(*cs, functions.concat([aio] + f_parts, axis=1))


class NaryTreeLSTM(Chain):
    """N-ary tree-LSTM: a node with exactly ``n_ary`` ordered children.

    ``c, h = link(c_1, .., c_N, h_1, .., h_N, x)``: every gate sees every
    child through its own weight ``W_h{k}`` (see
    :func:`chainer.functions.tree_lstm`). Children given as None count as
    zero states; ``x`` None counts as a zero input.

    Args:
        in_size: the input size.
        out_size: the state size.
        n_ary: the number of children (at least 1).

    Attributes:
        W_x: Linear from the input to the ``a, i, o, f_1 .. f_N`` sources.
        W_h1 .. W_hN: Linears (no bias) from each child's output to the sources.

    Raises:
        ValueError: when ``n_ary`` is less than 1.
    """

    def __init__(self, in_size: int, out_size: int, n_ary: int = 2) -> None:
        if n_ary < 1:
            raise ValueError(f'n_ary must be at least 1, not {n_ary}')
        super().__init__()
        self.in_size = in_size
        self.state_size = out_size
        self.n_ary = n_ary
        width = (3 + n_ary) * out_size
        with self.init_scope():
            self.W_x = Linear(in_size, width)
            for k in range(1, n_ary + 1):
                setattr(self, f'W_h{k}', Linear(out_size, width, nobias=True))

    def forward(self, *cshsx: VariableOrArray | None) -> tuple[Variable, Variable]:
        """One node from its ``n_ary`` children's states and its input; returns ``(c, h)``.

        Raises:
            ValueError: for a number of arguments other than ``2 * n_ary + 1``,
                or when all are None.
        """
        if len(cshsx) != 2 * self.n_ary + 1:
            raise ValueError(f'NaryTreeLSTM with n_ary={self.n_ary} takes '
                             f'{2 * self.n_ary + 1} arguments, not {len(cshsx)}')
        cs, hs, x = _split_arguments(self, cshsx)
        lstm_in = self.W_x(x)
        for k, h in enumerate(hs, 1):
            if h is not None:
                lstm_in = lstm_in + getattr(self, f'W_h{k}')(h)
        return functions.tree_lstm(*_zeros_for_none(self, cs, x), lstm_in)
