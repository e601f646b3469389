"""``reduce='mean'`` of per-example losses: their sum divided by the batch size."""

from __future__ import annotations

from typing import Any

from chainer import utils
from chainer.functions.array.broadcast import broadcast_to
from chainer.functions.loss._util import scaled_sum


def batch_mean_output(loss: Any, dtype: Any, reduce: str) -> tuple[Any]:
    """The forward output of ``loss`` (axis 0 runs over the batch), as ``dtype``.

    Its sum divided by the batch size for ``'mean'``, ``loss`` itself otherwise.
    """
    if reduce == 'mean':
        return scaled_sum(loss, 1.0 / max(loss.shape[0], 1), dtype),
    return utils.force_array(loss, dtype),


def batch_mean_grad(gy: Any, shape: tuple[int, ...], reduce: str) -> Any:
    """The output gradient per element of a loss of ``shape`` (axis 0: the batch).

    For ``'mean'`` the scalar ``gy`` spread over ``shape`` and divided by the
    batch size, otherwise ``gy`` itself.
    """
    if reduce == 'mean':
        return broadcast_to(gy, shape) * (1.0 / max(shape[0], 1))
    return gy
