"""CRF1d: a linear-chain conditional random field."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from chainer import functions, initializers
from chainer.link import Link
from chainer.variable import Parameter, Variable, as_array

if TYPE_CHECKING:
    from chainer.types import InitializerSpec



def _descending_order(xs: Sequence[Any]) -> list[int]:
    """The indices of ``xs`` sorted by decreasing length (stable)."""
    return sorted(range(len(xs)), key=lambda i: -len(xs[i]))


def _inverse(order: list[int]) -> list[int]:
    """The permutation undoing ``order``."""
    inverse = [0] * len(order)
    for position, i in enumerate(order):
        inverse[i] = position
    return inverse


class CRF1d(Link):
    """Linear-chain conditional random field loss layer.

    ``cost`` ``(n_label, n_label)`` holds the transition costs (see
    :func:`chainer.functions.crf1d`).

    Args:
        n_label: the number of labels.
        initial_cost: initializer of ``cost`` (zero by default) or an array.
    """

    def __init__(self, n_label: int, initial_cost: InitializerSpec | None = None) -> None:
        super().__init__()
        if initial_cost is None:
            initial_cost = initializers.constant.Zero()
        with self.init_scope():
            self.cost = Parameter(initializers._get_initializer(initial_cost),
                                  (n_label, n_label))

    def forward(self, xs: Sequence[Any], ys: Sequence[Any], reduce: str = 'mean',
                transpose: bool = False) -> Variable:
        """The negative log-likelihood of the label sequences ``ys``.

        Args:
            xs: the per-position label costs: time-major (``xs[t]`` of shape
                ``(B_t, n_label)``, batch sizes non-increasing), or with
                ``transpose=True`` one ``(length, n_label)`` array per sequence,
                in any order.
            ys: the labels, laid out like ``xs``.
            reduce: ``'mean'`` or ``'no'`` (one loss per sequence, in the order of
                the given sequences; v7 gave them sorted by length with
                ``transpose=True``).
            transpose: whether ``xs`` and ``ys`` are batch-major.
        """
        if not transpose:
            return functions.crf1d(self.cost, xs, ys, reduce)
        order = _descending_order(xs)
        trans_x = functions.transpose_sequence([xs[i] for i in order])
        trans_y = [as_array(y) for y in functions.transpose_sequence(
            [ys[i] for i in order])]
        loss = functions.crf1d(self.cost, trans_x, trans_y, reduce)
        if reduce == 'no':
            loss = functions.get_item(loss, (_inverse(order),))
        return loss

    def argmax(self, xs: Sequence[Any], transpose: bool = False) -> tuple[Any, list[Any]]:
        """The most probable label sequences (Viterbi).

        Args:
            xs: the per-position label costs, laid out as in :meth:`forward`.
            transpose: whether ``xs`` is batch-major.

        Returns:
            ``(score, path)``: the scores of the best sequences and the labels,
            time-major (``path[t]`` of shape ``(B_t,)``), or with ``transpose=True``
            one score and one label array per given sequence, in the given order
            (v7 gave the scores sorted by length there).
        """
        if not transpose:
            return functions.argmax_crf1d(self.cost, xs)
        order = _descending_order(xs)
        trans_x = functions.transpose_sequence([xs[i] for i in order])
        score, path = functions.argmax_crf1d(self.cost, trans_x)
        per_sequence = [p.array for p in functions.transpose_sequence(path)]
        inverse = _inverse(order)
        return functions.get_item(score, (inverse,)), [per_sequence[k] for k in inverse]
