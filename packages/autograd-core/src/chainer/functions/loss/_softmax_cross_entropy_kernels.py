"""Fused CUDA kernels of softmax cross entropy with integer labels over 2-D scores.

The array code of :class:`~chainer.functions.loss.softmax_cross_entropy.SoftmaxCrossEntropy`
launches some twenty CuPy kernels forward and a dozen backward; on the GPU their launch
cost, not the arithmetic, dominates a classifier's loss. Here the forward is a maximum,
one reduction of ``exp(x - max)``, one kernel over the rows (the loss of each example and
whether it counts) and, with ``cache_score``, one kernel for the softmax; the backward is
one kernel. A label outside ``[0, n_class)`` that is not ``ignore_label`` reads a class
at the nearest end instead of memory outside the row (on the GPU no label is checked,
as in v7).
"""

from __future__ import annotations

from typing import Any

import numpy

from chainer.backends import cuda


def usable(x: Any, t: Any, class_weight: Any) -> bool:
    """Whether the kernels apply: 2-D float32/float64 CuPy scores, integer labels, no
    class weights."""
    return (cuda.available and isinstance(x, cuda.ndarray) and x.ndim == 2 and x.size > 0
            and x.dtype in (numpy.float32, numpy.float64) and t.dtype.kind in 'iu'
            and class_weight is None)


def forward(x: Any, t: Any, ignore_label: int, cache_score: bool
            ) -> tuple[Any, Any, Any]:
    """``(loss, weight, y)``: the loss of each row, 1 where its label counts (else 0),
    and the softmax of ``x`` when ``cache_score`` (else None)."""
    cupy = cuda.cupy
    x = cupy.ascontiguousarray(x)
    t = cupy.ascontiguousarray(t)
    n_class = x.shape[1]
    m = x.max(axis=1)
    total = cuda.reduce('T x, T m', 'T total', 'exp(x - m)', 'a + b', 'total = a', '0',
                        'chainer_sce_sumexp')(x, m[:, None], axis=1)
    loss, weight = cuda.elementwise(
        'S t, T m, T total, raw T x, int64 n_class, int64 ignore', 'T loss, T weight',
        '''
        if (t == ignore) {
            loss = 0;
            weight = 0;
        } else {
            long long k = t < 0 ? 0 : (t >= n_class ? n_class - 1 : (long long)t);
            loss = log(total) + m - x[i * n_class + k];
            weight = 1;
        }''', 'chainer_sce_rows')(t, m, total, x, numpy.int64(n_class),
                                  numpy.int64(ignore_label))
    y = None
    if cache_score:
        y = cuda.elementwise('T x, T m, T total', 'T y', 'y = exp(x - m) / total',
                             'chainer_sce_softmax')(x, m[:, None], total[:, None])
    return loss, weight, y


def backward(y: Any, t: Any, coef: Any) -> Any:
    """``coef[r] * (y[r] - onehot(t[r]))`` for every row ``r`` of the softmax ``y``."""
    cupy = cuda.cupy
    return cuda.elementwise(
        'T y, raw S t, raw T coef, int64 n_class', 'T gx',
        '''
        ptrdiff_t r = i / n_class;
        gx = coef[r] * (y - ((i - r * n_class) == t[r] ? (T)1 : (T)0));''',
        'chainer_sce_bwd')(cupy.ascontiguousarray(y), cupy.ascontiguousarray(t),
                           cupy.ascontiguousarray(coef), numpy.int64(y.shape[1]))
