"""Element-wise losses written as compositions of the differentiable routines: squared
and absolute error, Gaussian KL divergence, Huber loss and the hinge loss."""

from __future__ import annotations

from chainerx import _math
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import DimensionError, DtypeError


def _difference(x1: ndarray, x2: ndarray, name: str) -> ndarray:
    if x1.shape != x2.shape:
        raise DimensionError(f'{name}: shapes {x1.shape} and {x2.shape} differ')
    return _math.subtract(x1, x2)


def squared_error(x1: ndarray, x2: ndarray) -> ndarray:
    """``(x1 - x2) ** 2`` element-wise."""
    return _math.square(_difference(x1, x2, 'squared_error'))


def absolute_error(x1: ndarray, x2: ndarray) -> ndarray:
    """``|x1 - x2|`` element-wise."""
    return _math.absolute(_difference(x1, x2, 'absolute_error'))


def gaussian_kl_divergence(mean: ndarray, ln_var: ndarray) -> ndarray:
    """The KL divergence of ``N(mean, exp(ln_var))`` from ``N(0, 1)``, element-wise:
    ``(mean ** 2 + exp(ln_var) - ln_var - 1) / 2``."""
    if mean.shape != ln_var.shape:
        raise DimensionError(f'gaussian_kl_divergence: shapes {mean.shape} and '
                             f'{ln_var.shape} differ')
    total = _math.subtract(_math.add(_math.square(mean), _math.exp(ln_var)), ln_var)
    return _math.multiply(_math.subtract(total, 1), 0.5)


def huber_loss(x: ndarray, t: ndarray, delta: float) -> ndarray:
    """The Huber loss element-wise: ``d ** 2 / 2`` where ``|d| <= delta`` (``d = x -
    t``), else ``delta (|d| - delta / 2)``."""
    d = _difference(x, t, 'huber_loss')
    a = _math.absolute(d)
    quadratic = _math.multiply(_math.square(d), 0.5)
    linear = _math.multiply(_math.subtract(a, 0.5 * delta), delta)
    return _math.where(_math.less_equal(a, delta), quadratic, linear)


def hinge(x: ndarray, t: ndarray, norm: float = 1.0) -> ndarray:
    """The hinge loss of scores *x* (N, K) for labels *t* (N,), element-wise:
    ``max(0, 1 + s x)`` with ``s = -1`` at each sample's label and 1 elsewhere, to the
    power *norm* (1 or 2)."""
    if x.ndim != 2 or t.shape != (x.shape[0],):
        raise DimensionError(f'hinge: x of shape {x.shape} and t of shape {t.shape} do not '
                             'fit (x is (N, K), t is (N,))')
    if t.dtype.kind not in 'iu':
        raise DtypeError('hinge: t must hold integer labels')
    if norm not in (1, 2):
        raise ValueError(f'hinge: norm must be 1 or 2, not {norm!r}')
    device = check_same_device(x, t)
    xp = device.xp
    with device._scope():
        labels = t._data.astype('int64', copy=False)
        sign = xp.ones(x.shape, x.dtype)
        sign[xp.arange(x.shape[0]), labels] = -1
    margin = _math.relu(_math.add(_math.multiply(x, make(sign, device)), 1))
    return margin if norm == 1 else _math.square(margin)
