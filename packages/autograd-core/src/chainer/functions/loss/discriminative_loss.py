"""Discriminative margin-based clustering loss (De Brabandere et al., 2017)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy

from chainer import backend
from chainer.functions._guard import guarded
from chainer.functions.activation.relu import relu
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.array.get_item import get_item
from chainer.functions.array.reshape import reshape
from chainer.functions.loss._util import check_types, safe_sqrt
from chainer.functions.math.basic_math import absolute
from chainer.functions.math.sum import sum as _sum
from chainer.utils import type_check
from chainer.variable import Variable

if TYPE_CHECKING:
    from chainer.types import VariableOrArray


class DiscriminativeMarginBasedClusteringLoss:
    """The loss as a callable object holding its hyperparameters.

    Args:
        delta_v: the margin of the variance (pull) term.
        delta_d: the margin of the distance (push) term.
        max_embedding_dim: the number of instances ``K`` (labels ``1..K``);
            the embeddings must have ``K`` channels.
        norm: 1 (L1) or 2 (L2) distance.
        alpha, beta, gamma: the weights of the variance, distance and
            regularization terms.

    Raises:
        ValueError: for a non-positive ``max_embedding_dim`` or a norm other
            than 1 and 2.
    """

    def __init__(self, delta_v: float = 0.5, delta_d: float = 1.5,
                 max_embedding_dim: int = 10, norm: int = 1, alpha: float = 1.0,
                 beta: float = 1.0, gamma: float = 0.001) -> None:
        if max_embedding_dim <= 0:
            raise ValueError(f'max_embedding_dim must be positive, not {max_embedding_dim}')
        if norm not in (1, 2):
            raise ValueError(f'norm must be 1 or 2, not {norm!r}')
        self.delta_v = delta_v
        self.delta_d = delta_d
        self.max_embedding_dim = int(max_embedding_dim)
        self.norm = norm
        self.alpha = alpha
        self.beta = beta
        self.gamma = gamma

    def _norm(self, x: Variable, axis: Any) -> Variable:
        if self.norm == 1:
            return _sum(absolute(x), axis=axis)
        return safe_sqrt(_sum(x * x, axis=axis))

    def __call__(self, embeddings: VariableOrArray,
                 labels: VariableOrArray) -> tuple[Variable, Variable, Variable]:
        """Compute ``(alpha * l_var, beta * l_dist, gamma * l_reg)``.

        Args:
            embeddings: float variable of shape (B, K, H, W).
            labels: int array of shape (B, H, W): ``c`` in ``1..K`` marks the
                pixels of instance ``c``; other values (e.g. 0, background)
                belong to no instance.
        """
        n_inst = self.max_embedding_dim

        def check(e_t: Any, l_t: Any) -> None:
            type_check.expect(e_t.dtype.kind == 'f', e_t.ndim == 4,
                              e_t.shape[1] == n_inst,
                              l_t.ndim == 3,
                              l_t.shape[0] == e_t.shape[0],
                              l_t.shape[1:] == e_t.shape[2:])
            kind = type_check.eval(l_t.dtype.kind)
            if kind not in ('i', 'u'):
                raise type_check.InvalidType('labels.dtype.kind in (i, u)',
                                             f'labels.dtype.kind = {kind!r}')

        check_types('discriminative_margin_based_clustering_loss', ('embeddings', 'labels'),
                    (embeddings, labels), check)
        if not isinstance(embeddings, Variable):
            embeddings = Variable(embeddings, requires_grad=False)
        labels = labels.array if isinstance(labels, Variable) else labels
        xp = backend.get_array_module(embeddings.array)
        dtype = embeddings.dtype
        batch, dim, height, width = embeddings.shape
        full = (n_inst, batch, dim, height, width)

        # masks[c, b, 0, h, w]: pixel (h, w) of image b belongs to instance c + 1
        ids = xp.arange(1, n_inst + 1).reshape(n_inst, 1, 1, 1)
        masks = (labels[None] == ids)[:, :, None].astype(dtype)
        counts = masks.sum(axis=(2, 3, 4))  # (K, B)
        emb = broadcast_to(reshape(embeddings, (1,) + embeddings.shape), full)
        masks_b = xp.broadcast_to(masks, full)
        # the mean embedding of each instance in each image: (K, B, E)
        means = _sum(emb * masks_b, axis=(3, 4)) / xp.maximum(counts, 1)[:, :, None]

        # variance term: pull the pixels to within delta_v of their mean
        means_b = broadcast_to(reshape(means, means.shape + (1, 1)), full)
        dist = self._norm((means_b - emb) * masks_b, axis=2)  # (K, B, H, W)
        hinge = relu(dist - self.delta_v)
        l_var = _sum(hinge * hinge, axis=(1, 2, 3))  # (K,)
        l_var = _sum(l_var / xp.maximum(counts.sum(axis=1), 1)) * (1.0 / n_inst)

        # distance term: push the means of every pair of instances 2 delta_d apart
        ia, ib = numpy.triu_indices(n_inst, 1)
        n_pair = len(ia)
        if n_pair:
            diff = get_item(means, xp.asarray(ia)) - get_item(means, xp.asarray(ib))
            push = relu(2 * self.delta_d - self._norm(diff, axis=2))  # (P, B)
            l_dist = _sum(push * push) * (1.0 / max(n_pair * batch, 1))
        else:
            l_dist = Variable(xp.zeros((), dtype=dtype), requires_grad=False)

        # regularization term: keep the means near the origin
        l_reg = _sum(self._norm(means, axis=(1, 2))) * (1.0 / (n_inst * max(batch, 1)))
        return l_var * self.alpha, l_dist * self.beta, l_reg * self.gamma


@guarded
def discriminative_margin_based_clustering_loss(
        embeddings: VariableOrArray, labels: VariableOrArray, delta_v: float, delta_d: float,
        max_embedding_dim: int, norm: int = 1, alpha: float = 1.0, beta: float = 1.0,
        gamma: float = 0.001) -> tuple[Variable, Variable, Variable]:
    """Discriminative margin-based clustering loss for instance segmentation.

    Pixel embeddings of one instance are pulled towards their mean (variance
    term, hinged at ``delta_v``), the means of different instances are pushed
    apart (distance term, hinged at ``2 * delta_d``) and the means are kept
    small (regularization term). Instances are the labels ``1..K`` with
    ``K = max_embedding_dim``; an instance absent from an image has a zero
    mean there and still takes part in the distance term.

    Args:
        embeddings: float variable of shape (B, K, H, W).
        labels: int array of shape (B, H, W).
        delta_v: the margin of the variance term.
        delta_d: the margin of the distance term.
        max_embedding_dim: ``K``, the number of instances and embedding channels.
        norm: 1 (L1) or 2 (L2) distance.
        alpha: the weight of the variance term.
        beta: the weight of the distance term.
        gamma: the weight of the regularization term.

    Returns:
        A tuple of three scalar variables: the variance loss times ``alpha``,
        the distance loss times ``beta`` and the regularization loss times
        ``gamma``.

    Raises:
        ValueError: for a non-positive ``max_embedding_dim`` or a bad ``norm``.
        chainer.utils.type_check.InvalidType: for inputs of wrong types or
            shapes (including ``embeddings.shape[1] != max_embedding_dim``).
    """
    loss = DiscriminativeMarginBasedClusteringLoss(delta_v, delta_d, max_embedding_dim,
                                                   norm, alpha, beta, gamma)
    return loss(embeddings, labels)
