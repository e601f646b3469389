"""Evaluation: the classification accuracy."""

from __future__ import annotations

from chainerx import _manipulation, _math, _reduction
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import DimensionError, DtypeError


def accuracy(y: ndarray, t: ndarray, ignore_label: int | None = None) -> ndarray:
    """The share of samples whose highest score in *y* (N, C, ...) is at their label in
    *t* (N, ...), as a 0-d array of *y*'s dtype; labels equal to *ignore_label* are not
    counted (no sample left: 0).

    Raises:
        DtypeError: *y* not float or *t* not signed integers.
        DimensionError: *t* does not fit *y* (``y.shape[2:]`` may end with extra 1s).
    """
    if y.dtype.kind != 'f' or t.dtype.kind != 'i':
        raise DtypeError(f'accuracy takes float scores and signed integer labels, not '
                         f'{y.dtype.name} and {t.dtype.name}')
    extra = y.shape[t.ndim + 1:]
    if (y.ndim < 2 or y.ndim < t.ndim + 1 or y.shape[0] != t.shape[0]
            or y.shape[2:t.ndim + 1] != t.shape[1:] or any(n != 1 for n in extra)):
        raise DimensionError(f'accuracy: labels of shape {t.shape} for scores of shape '
                             f'{y.shape}')
    device = check_same_device(y, t)
    pred = _manipulation.reshape(_reduction.argmax(y.as_grad_stopped(), 1), t.shape)
    hit = _math.equal(pred, t)
    if ignore_label is None:
        return _math.astype(_reduction.mean(hit), y.dtype, False)
    counted = _math.not_equal(t, ignore_label)
    total = int(_reduction.sum(counted).item())
    if total == 0:
        return make(device.xp.zeros((), y.dtype), device)
    hits = _reduction.sum(_math.logical_and(hit, counted))
    return _math.astype(_math.divide(hits, total), y.dtype, False)
