"""Replace the batch normalizations of a model by multi-node ones."""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

import chainer
from chainermn.links.batch_normalization import MultiNodeBatchNormalization

if TYPE_CHECKING:
    from chainer.link import Link
    from chainermn.communicators.communicator_base import CommunicatorBase


def _to_mnbn(bn: Any, comm: CommunicatorBase,
             communication_backend: str) -> MultiNodeBatchNormalization:
    gamma = getattr(bn, 'gamma', None)
    beta = getattr(bn, 'beta', None)
    mnbn = MultiNodeBatchNormalization(
        bn.avg_mean.shape, comm, decay=bn.decay, eps=bn.eps, dtype=bn.avg_mean.dtype,
        use_gamma=gamma is not None, use_beta=beta is not None,
        communication_backend=communication_backend)
    mnbn.to_device(bn.device)
    mnbn.copyparams(bn)
    return mnbn


def create_mnbn_model(link: chainer.Link, comm: CommunicatorBase,
                      communication_backend: str = 'auto') -> chainer.Link:
    """A copy of ``link`` in which every ``chainer.links.BatchNormalization`` is replaced
    by a :class:`MultiNodeBatchNormalization` with the same parameters and statistics.

    Works through Chains, ChainLists and ``chainer.Sequential`` models at any depth.

    Args:
        link: the model.
        comm: a ChainerMN communicator.
        communication_backend: see :class:`MultiNodeBatchNormalization`.

    Returns:
        The new model (``link`` itself is left unchanged).
    """
    bn_class = getattr(chainer.links, 'BatchNormalization', None)
    model = copy.deepcopy(link)
    if bn_class is None:
        return model
    _replace(model, bn_class, comm, communication_backend)
    return model


def _replace(link: Link, bn_class: type, comm: CommunicatorBase, backend: str) -> None:
    if isinstance(link, chainer.Sequential):
        for i, layer in enumerate(list(link)):
            if isinstance(layer, bn_class):
                link[i] = _to_mnbn(layer, comm, backend)
            elif isinstance(layer, chainer.Link):
                _replace(layer, bn_class, comm, backend)
    elif isinstance(link, chainer.ChainList):
        for i, child in enumerate(list(link)):
            if isinstance(child, bn_class):
                _set_item(link, i, _to_mnbn(child, comm, backend))
            else:
                _replace(child, bn_class, comm, backend)
    elif isinstance(link, chainer.Chain):
        for child in list(link.children()):
            name = child.name
            if isinstance(child, bn_class):
                delattr(link, name)
                with link.init_scope():
                    setattr(link, name, _to_mnbn(child, comm, backend))
            else:
                _replace(child, bn_class, comm, backend)


def _set_item(chain_list: Any, index: int, new: chainer.Link) -> None:
    new.name = str(index)
    chain_list._children[index] = new
