"""``chainerx.linalg``: solving, inversion and the decompositions (Cholesky, QR, SVD,
symmetric eigenproblems) of float32/float64 matrices, through NumPy's or CuPy's LAPACK.

Each backward is written with ChainerX routines (the decompositions among them,
recomputed where a gradient of the gradient is being recorded), so gradients of any
order exist. Failures of LAPACK (a singular or non positive-definite matrix) raise
:class:`~chainerx.ChainerxError`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy

from chainerx import _creation, _dtypes, _graph, _linalg, _manipulation, _math
from chainerx._array import check_same_device, make, ndarray
from chainerx._errors import ChainerxError, DimensionError, DtypeError

__all__ = ['cholesky', 'eigh', 'eigvalsh', 'inv', 'pinv', 'qr', 'solve', 'svd']

_FLOATS = (numpy.dtype(numpy.float32), numpy.dtype(numpy.float64))


def _is_lapack_available() -> bool:
    """Whether LAPACK routines can run: always (NumPy and CuPy bring theirs)."""
    return True


def _check(a: ndarray, name: str, square: bool = True) -> None:
    if not isinstance(a, ndarray):
        raise TypeError(f'{name} takes a chainerx.ndarray')
    if a.dtype not in _FLOATS:
        raise DtypeError(f'{name} supports float32 and float64, not {a.dtype.name}')
    if a.ndim != 2 or (square and a.shape[0] != a.shape[1]):
        what = 'a square matrix' if square else 'a matrix'
        raise DimensionError(f'{name} needs {what}, not an array of shape {a.shape}')


def _lapack(name: str, a: ndarray, *args: Any, **kwargs: Any) -> Any:
    xp = a._device.xp
    with a._device._scope():
        try:
            return getattr(xp.linalg, name)(*args, **kwargs)
        except xp.linalg.LinAlgError as e:
            raise ChainerxError(f'{name}: {e}') from e


def _record(inputs: Sequence[ndarray], outputs: Sequence[ndarray],
            backward: _graph.BackwardFn) -> None:
    if any(x._nodes for x in inputs):
        _graph.record(inputs, outputs, backward)


def _again(inputs: Sequence[ndarray], stored: Sequence[Any],
           forward: Callable[[], Sequence[ndarray]]) -> list[ndarray]:
    """The outputs for a backward: computed again from the inputs (so connected) where
    the backward is being recorded, else the stored data."""
    if _graph.is_recording(inputs):
        return list(forward())
    return [make(d, inputs[0]._device) for d in stored]


T = _manipulation.transpose
mm = _linalg.matmul


def _eye(n: int, like: ndarray) -> ndarray:
    return _creation.eye(n, dtype=like.dtype, device=like.device)


def _sym(m: ndarray) -> ndarray:
    return _math.multiply(_math.add(m, T(m)), 0.5)


def _off_diagonal_inverse_gaps(v: ndarray) -> ndarray:
    """``F[i, j] = 1 / (v[j] - v[i])`` off the diagonal, 0 on it."""
    n = v.shape[0]
    gaps = _math.subtract(_manipulation.reshape(v, (1, n)), _manipulation.reshape(v, (n, 1)))
    diagonal = _math.astype(_eye(n, v), numpy.bool_, False)
    safe = _math.where(diagonal, v.dtype.type(1), gaps)
    return _math.where(diagonal, v.dtype.type(0), _math.reciprocal(safe))


def _diag(v: ndarray) -> ndarray:
    return _math.multiply(_manipulation.reshape(v, (1, -1)), _eye(v.shape[0], v))


def inv(a: ndarray) -> ndarray:
    """The inverse of square matrix *a*.

    Raises:
        DtypeError, DimensionError: not a float32/float64 square matrix.
        ChainerxError: *a* is singular.
    """
    _check(a, 'inv')
    data = _lapack('inv', a, a._data)
    out = make(data, a._device)

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        y, = _again([a], [data], lambda: [inv(a)])
        return [_math.negative(mm(mm(T(y), gys[0]), T(y)))]

    _record([a], [out], backward)
    return out


def solve(a: ndarray, b: ndarray) -> ndarray:
    """The solution *x* of ``a x = b`` (*b* a vector or a matrix of columns).

    Raises:
        DtypeError, DimensionError: not float32/float64, or shapes that do not fit.
        ChainerxError: *a* is singular.
    """
    _check(a, 'solve')
    if not isinstance(b, ndarray) or b.dtype not in _FLOATS:
        raise DtypeError('solve supports float32 and float64 right-hand sides')
    if b.ndim not in (1, 2) or b.shape[0] != a.shape[0]:
        raise DimensionError(f'solve: b of shape {b.shape} for a of shape {a.shape}')
    check_same_device(a, b)
    dt = _dtypes.promote_dtypes([a.dtype, b.dtype])
    data = _lapack('solve', a, a._data.astype(dt, copy=False), b._data.astype(dt, copy=False))
    out = make(data, a._device)

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        x, = _again([a, b], [data], lambda: [solve(a, b)])
        gb = solve(T(a), gys[0])
        ga = None
        if need[0]:
            gb2 = gb if gb.ndim == 2 else _manipulation.reshape(gb, (gb.shape[0], 1))
            x2 = x if x.ndim == 2 else _manipulation.reshape(x, (x.shape[0], 1))
            ga = _math.astype(_math.negative(mm(gb2, T(x2))), a.dtype, False)
        return [ga, _math.astype(gb, b.dtype, False) if need[1] else None]

    _record([a, b], [out], backward)
    return out


def cholesky(a: ndarray) -> ndarray:
    """The lower-triangular ``L`` with ``L L^T = a`` of a symmetric positive-definite *a*.

    Raises:
        DtypeError, DimensionError: not a float32/float64 square matrix.
        ChainerxError: *a* is not positive definite.
    """
    _check(a, 'cholesky')
    data = _lapack('cholesky', a, a._data)
    out = make(data, a._device)

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        low, = _again([a], [data], lambda: [cholesky(a)])
        n = a.shape[0]
        # the lower triangle with half the diagonal
        mask = _math.subtract(_creation.tri(n, dtype=a.dtype, device=a.device),
                              _math.multiply(_eye(n, a), 0.5))
        p = _math.multiply(mm(T(low), gys[0]), mask)
        low_inv = inv(low)
        return [_sym(mm(mm(T(low_inv), p), low_inv))]

    _record([a], [out], backward)
    return out


def _uplo(UPLO: Any) -> str:
    if not isinstance(UPLO, str):
        raise TypeError(f'UPLO must be a str, not {type(UPLO).__name__}')
    if len(UPLO) != 1:
        raise ValueError(f"UPLO must be 'L' or 'U', not {UPLO!r}")
    if UPLO.upper() not in ('L', 'U'):
        raise ChainerxError(f"UPLO must be 'L' or 'U', not {UPLO!r}")
    return UPLO.upper()


def eigh(a: ndarray, UPLO: str = 'L') -> tuple[ndarray, ndarray]:
    """Eigenvalues (ascending) and eigenvectors (columns) of symmetric *a*, read from its
    lower (``'L'``) or upper (``'U'``) triangle.

    Raises:
        TypeError, ValueError, ChainerxError: an invalid *UPLO*.
        DtypeError, DimensionError: not a float32/float64 square matrix.
    """
    uplo = _uplo(UPLO)
    _check(a, 'eigh')
    w_data, v_data = _lapack('eigh', a, a._data, UPLO=uplo)
    w, v = make(w_data, a._device), make(v_data, a._device)

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        gw, gv = gys
        w_, v_ = _again([a], [w_data, v_data], lambda: eigh(a, uplo))
        inner = _math.add(_diag(gw),
                          _math.multiply(_off_diagonal_inverse_gaps(w_), mm(T(v_), gv)))
        return [_sym(mm(mm(v_, inner), T(v_)))]

    _record([a], [w, v], backward)
    return w, v


def eigvalsh(a: ndarray, UPLO: str = 'L') -> ndarray:
    """The eigenvalues (ascending) of symmetric *a* (see :func:`eigh`)."""
    return eigh(a, UPLO)[0]


def _svd_backward(a: ndarray, u: ndarray, s: ndarray, vt: ndarray, gu: ndarray,
                  gs: ndarray, gvt: ndarray) -> ndarray:
    """The gradient of *a* = ``u diag(s) vt`` (the reduced SVD) for the gradients of
    its factors."""
    m, n = a.shape
    v, gv = T(vt), T(gvt)
    f = _off_diagonal_inverse_gaps(_math.square(s))
    s_inv = _math.reciprocal(s)
    j = _math.multiply(f, _math.subtract(mm(T(u), gu), mm(T(gu), u)))
    k = _math.multiply(f, _math.subtract(mm(T(v), gv), mm(T(gv), v)))
    inner = _math.add(_math.add(mm(j, _diag(s)), _diag(gs)), mm(_diag(s), k))
    ga = mm(mm(u, inner), vt)
    if m > s.shape[0]:
        rest = _math.subtract(_eye(m, a), mm(u, T(u)))
        ga = _math.add(ga, mm(mm(rest, _math.multiply(gu, s_inv)), vt))
    if n > s.shape[0]:
        rest = _math.subtract(_eye(n, a), mm(v, vt))
        ga = _math.add(ga, mm(_math.multiply(u, s_inv), mm(gvt, rest)))
    return ga


def svd(a: ndarray, full_matrices: bool = True, compute_uv: bool = True) -> Any:
    """The singular value decomposition ``a = u diag(s) vh``: ``(u, s, vh)``, or ``s``
    alone without *compute_uv*; with *full_matrices*, ``u`` and ``vh`` are square.
    Gradients need ``full_matrices=False`` (or a square *a*).

    Raises:
        DtypeError, DimensionError: not a float32/float64 matrix.
    """
    _check(a, 'svd', square=False)
    if not compute_uv:
        if a._nodes:
            return svd(a, False, True)[1]
        return make(_lapack('svd', a, a._data, compute_uv=False), a._device)
    u_data, s_data, vt_data = _lapack('svd', a, a._data, full_matrices=full_matrices)
    u, s, vt = (make(d, a._device) for d in (u_data, s_data, vt_data))
    k = min(a.shape)
    square = a.shape[0] == a.shape[1]

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        if full_matrices and not square:
            raise ChainerxError('svd: gradients need full_matrices=False for a non-square '
                                'matrix')
        u_, s_, vt_ = _again([a], [u_data, s_data, vt_data], lambda: svd(a, False, True))
        gu, gs, gvt = gys
        return [_svd_backward(a, u_[:, :k], s_, vt_[:k], gu[:, :k], gs, gvt[:k])]

    _record([a], [u, s, vt], backward)
    return u, s, vt


def pinv(a: ndarray, rcond: float = 1e-15) -> ndarray:
    """The Moore-Penrose pseudo-inverse of *a*, ``V diag(1 / s) U^T`` from its SVD with the
    singular values below *rcond* times the largest counted as zero (differentiable
    through :func:`svd`).

    Raises:
        DtypeError, DimensionError: not a float32/float64 matrix.
    """
    _check(a, 'pinv', square=False)
    if a.size == 0:
        return _math.multiply(T(a), 0)
    u, s, vt = svd(a, full_matrices=False)
    cutoff = float(rcond) * float(s.as_grad_stopped().max().item())
    keep = _math.greater(s.as_grad_stopped(), cutoff)
    s_inv = _math.where(keep, _math.reciprocal(_math.where(keep, s, s.dtype.type(1))),
                        s.dtype.type(0))
    return mm(_math.multiply(T(vt), s_inv), T(u))


_QR_MODES = ('reduced', 'complete', 'r', 'raw')


def qr(a: ndarray, mode: str = 'reduced') -> Any:
    """The QR decomposition of *a*: ``(q, r)`` (*mode* ``'reduced'`` or ``'complete'``),
    ``r`` alone (``'r'``) or LAPACK's ``(h, tau)`` (``'raw'``). Gradients exist for
    ``(q, r)`` of a square or tall matrix in the reduced mode.

    Raises:
        ValueError: an unknown *mode*.
        DtypeError, DimensionError: not a float32/float64 matrix.
    """
    if mode not in _QR_MODES:
        raise ValueError(f'qr: mode must be one of {_QR_MODES}, not {mode!r}')
    _check(a, 'qr', square=False)
    result = _lapack('qr', a, a._data, mode=mode)
    if mode == 'r':
        return make(result, a._device)
    if mode == 'raw':
        return tuple(make(d, a._device) for d in result)
    q_data, r_data = result
    q, r = make(q_data, a._device), make(r_data, a._device)
    m, n = a.shape

    def backward(gys: list[ndarray], need: list[bool]) -> list[ndarray | None]:
        if m < n or (mode == 'complete' and m != n):
            raise ChainerxError('qr: gradients need a square matrix, or a tall one in the '
                                "'reduced' mode")
        q_, r_ = _again([a], [q_data, r_data], lambda: qr(a, mode))
        gq, gr = gys
        mm_ = _math.subtract(mm(r_, T(gr)), mm(T(gq), q_))
        low = _math.multiply(mm_, _creation.tri(n, k=-1, dtype=a.dtype, device=a.device))
        copied = _math.add(_math.add(low, T(low)), _math.multiply(mm_, _eye(n, a)))
        lhs = _math.add(gq, mm(q_, copied))  # (m, n)
        return [T(solve(r_, T(lhs)))]

    _record([a], [q, r], backward)
    return q, r
