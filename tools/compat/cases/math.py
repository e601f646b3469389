"""Compatibility cases: math functions (elementwise, reductions, linear algebra, special)."""


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def _u(rng, lo, hi, *shape, dtype='f'):
    return rng.uniform(lo, hi, shape).astype(dtype)


# ----------------------------------------------------------------- elementwise

def case_absolute(F, np, rng):
    return F.absolute, (_f(rng, 3, 4),), {}


def case_absolute_f16(F, np, rng):
    return F.absolute, (_f(rng, 3, 4, dtype='e'),), {}


def case_add_two(F, np, rng):
    return F.add, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_add_three(F, np, rng):
    return F.add, (_f(rng, 3, 4), _f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_add_one(F, np, rng):
    return F.add, (_f(rng, 3, 4),), {}


def case_arccos(F, np, rng):
    return F.arccos, (_u(rng, -0.9, 0.9, 3, 4),), {}


def case_arcsin(F, np, rng):
    return F.arcsin, (_u(rng, -0.9, 0.9, 3, 4),), {}


def case_arctan(F, np, rng):
    return F.arctan, (_f(rng, 3, 4),), {}


def case_arctan2(F, np, rng):
    return F.arctan2, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_arctan2_f64(F, np, rng):
    return F.arctan2, (_f(rng, 5, dtype='d'), _f(rng, 5, dtype='d')), {}


def case_arctanh(F, np, rng):
    return F.arctanh, (_u(rng, -0.9, 0.9, 3, 4),), {}


def case_ceil(F, np, rng):
    return F.ceil, (_f(rng, 3, 4) * 3,), {}


def case_floor(F, np, rng):
    return F.floor, (_f(rng, 3, 4) * 3,), {}


def case_fix(F, np, rng):
    return F.fix, (_f(rng, 3, 4) * 3,), {}


def case_clip(F, np, rng):
    return F.clip, (_f(rng, 3, 4),), {'x_min': -0.5, 'x_max': 0.7}


def case_clip_none_min(F, np, rng):
    return F.clip, (_f(rng, 3, 4),), {'x_min': None, 'x_max': 0.7}


def case_clip_none_max(F, np, rng):
    return F.clip, (_f(rng, 3, 4),), {'x_min': -0.3, 'x_max': None}


def case_clip_f64(F, np, rng):
    return F.clip, (_f(rng, 6, dtype='d'),), {'x_min': -0.5, 'x_max': 0.5}


def case_cos(F, np, rng):
    return F.cos, (_f(rng, 3, 4),), {}


def case_sin(F, np, rng):
    return F.sin, (_f(rng, 3, 4),), {}


def case_tan(F, np, rng):
    return F.tan, (_u(rng, -1.2, 1.2, 3, 4),), {}


def case_cosh(F, np, rng):
    return F.cosh, (_f(rng, 3, 4),), {}


def case_sinh(F, np, rng):
    return F.sinh, (_f(rng, 3, 4),), {}


def case_exp(F, np, rng):
    return F.exp, (_f(rng, 3, 4),), {}


def case_exp_f16(F, np, rng):
    return F.exp, (_f(rng, 3, 4, dtype='e'),), {}


def case_expm1(F, np, rng):
    return F.expm1, (_f(rng, 3, 4),), {}


def case_expm1_small(F, np, rng):
    return F.expm1, (_f(rng, 5, dtype='d') * 1e-10,), {}


def case_log(F, np, rng):
    return F.log, (_u(rng, 0.1, 3, 3, 4),), {}


def case_log10(F, np, rng):
    return F.log10, (_u(rng, 0.1, 3, 3, 4),), {}


def case_log2(F, np, rng):
    return F.log2, (_u(rng, 0.1, 3, 3, 4),), {}


def case_log1p(F, np, rng):
    return F.log1p, (_u(rng, -0.5, 3, 3, 4),), {}


def case_sqrt(F, np, rng):
    return F.sqrt, (_u(rng, 0.1, 3, 3, 4),), {}


def case_rsqrt(F, np, rng):
    return F.rsqrt, (_u(rng, 0.1, 3, 3, 4),), {}


def case_square(F, np, rng):
    return F.square, (_f(rng, 3, 4),), {}


def case_sign(F, np, rng):
    x = _f(rng, 3, 4)
    x[0, 0] = 0
    return F.sign, (x,), {}


def case_fmod(F, np, rng):
    x = _f(rng, 3, 4) * 5
    d = _u(rng, 0.5, 2, 3, 4) * np.where(rng.rand(3, 4) > 0.5, 1, -1).astype('f')
    return F.fmod, (x, d), {}


def case_identity_one(F, np, rng):
    return F.identity, (_f(rng, 3, 4),), {}


def case_identity_two(F, np, rng):
    return F.identity, (_f(rng, 3, 4), _f(rng, 2)), {}


def case_maximum(F, np, rng):
    return F.maximum, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_minimum(F, np, rng):
    return F.minimum, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_maximum_ties(F, np, rng):
    x = _f(rng, 3, 4)
    y = x.copy()
    y[0] += 1
    return F.maximum, (x, y), {}


def case_minimum_ties(F, np, rng):
    x = _f(rng, 3, 4)
    y = x.copy()
    y[0] += 1
    return F.minimum, (x, y), {}


def case_squared_difference(F, np, rng):
    return F.squared_difference, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_linear_interpolate(F, np, rng):
    return F.linear_interpolate, (rng.rand(3, 4).astype('f'), _f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_bias_axis1(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4), _f(rng, 3)), {}


def case_bias_axis1_2d(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4), _f(rng, 3, 4)), {'axis': 1}


def case_bias_axis0(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4), _f(rng, 2, 3)), {'axis': 0}


def case_scale_axis1(F, np, rng):
    return F.scale, (_f(rng, 2, 3, 4), _f(rng, 3)), {}


def case_scale_axis2(F, np, rng):
    return F.scale, (_f(rng, 2, 3, 4), _f(rng, 4)), {'axis': 2}


# ------------------------------------------------------------------ reductions

def case_sum_all(F, np, rng):
    return F.sum, (_f(rng, 3, 4),), {}


def case_sum_axis(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4),), {'axis': 1}


def case_sum_axes_keepdims(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4),), {'axis': (0, 2), 'keepdims': True}


def case_sum_neg_axis(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_sum_f16(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4, dtype='e'),), {'axis': 1}


def case_sum_to(F, np, rng):
    return F.sum_to, (_f(rng, 2, 3, 4),), {'shape': (3, 1)}


def case_sum_to_same(F, np, rng):
    # sum_to returns x itself here (both do): chainer.backward([x], [gy]) on that leaf
    # output adds gy into x.grad (on top of the preset grad) in both.
    return F.sum_to, (_f(rng, 2, 3),), {'shape': (2, 3)}


def case_mean_all(F, np, rng):
    return F.mean, (_f(rng, 3, 4),), {}


def case_mean_axis(F, np, rng):
    return F.mean, (_f(rng, 2, 3, 4),), {'axis': 1, 'keepdims': True}


def case_mean_axes(F, np, rng):
    return F.mean, (_f(rng, 2, 3, 4),), {'axis': (0, 2)}


def case_average_weights(F, np, rng):
    return (lambda x, w: F.average(x, axis=1, weights=w),
            (_f(rng, 2, 3, 4), rng.rand(3).astype('f')), {})


def case_average_weights_keepdims(F, np, rng):
    return (lambda x, w: F.average(x, axis=-1, weights=w, keepdims=True),
            (_f(rng, 2, 3, 4), rng.rand(4).astype('f')), {})


def case_average_noweights(F, np, rng):
    return F.average, (_f(rng, 2, 3, 4),), {'axis': (0, 2)}


def case_average_all_weights(F, np, rng):
    return (lambda x, w: F.average(x, weights=w), (_f(rng, 2, 3), rng.rand(2, 3).astype('f')),
            {})


def case_average_all_weights_keepdims(F, np, rng):
    return (lambda x, w: F.average(x, weights=w, keepdims=True),
            (_f(rng, 2, 3, 4), rng.rand(2, 3, 4).astype('f')), {})


def case_average_all_weights_bcast(F, np, rng):
    return (lambda x, w: F.average(x, weights=w), (_f(rng, 2, 3), rng.rand(3).astype('f')),
            {})


def case_average_tuple1_weights(F, np, rng):
    return (lambda x, w: F.average(x, axis=(2,), weights=w),
            (_f(rng, 2, 3, 4), rng.rand(4).astype('f')), {})


def case_average_tuple2_weights(F, np, rng):
    return (lambda x, w: F.average(x, axis=(0, 1), weights=w),
            (_f(rng, 2, 3, 4), rng.rand(2, 3).astype('f')), {})


def case_average_weights_returned(F, np, rng):
    # positional weights land in ``axis``: both raise TypeError
    return F.average, (_f(rng, 2, 3), rng.rand(3).astype('f')), {}


def case_max_all(F, np, rng):
    return F.max, (_f(rng, 3, 4),), {}


def case_max_axis(F, np, rng):
    return F.max, (_f(rng, 2, 3, 4),), {'axis': 1}


def case_max_axes_keepdims(F, np, rng):
    return F.max, (_f(rng, 2, 3, 4),), {'axis': (0, 2), 'keepdims': True}


def case_max_ties(F, np, rng):
    x = np.array([[1, 3, 3], [2, 2, 0]], 'f')
    return F.max, (x,), {'axis': 1}


def case_min_axis(F, np, rng):
    return F.min, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_min_ties(F, np, rng):
    x = np.array([[1, 0, 0], [2, 2, 5]], 'f')
    return F.min, (x,), {'axis': 1}


def case_argmax(F, np, rng):
    return F.argmax, (_f(rng, 3, 4),), {'axis': 1}


def case_argmax_all(F, np, rng):
    return F.argmax, (_f(rng, 3, 4),), {}


def case_argmin(F, np, rng):
    return F.argmin, (_f(rng, 3, 4),), {'axis': 0}


def case_argmin_all(F, np, rng):
    return F.argmin, (_f(rng, 3, 4),), {}


def case_prod_all(F, np, rng):
    return F.prod, (_f(rng, 3, 4),), {}


def case_prod_axis(F, np, rng):
    return F.prod, (_f(rng, 2, 3, 4),), {'axis': 1, 'keepdims': True}


def case_prod_zero(F, np, rng):
    x = _f(rng, 3, 4)
    x[1, 2] = 0
    x[2, 0] = 0
    x[2, 3] = 0
    return F.prod, (x,), {'axis': 1}


def case_prod_axes(F, np, rng):
    return F.prod, (_f(rng, 2, 3, 4),), {'axis': (0, 2)}


def case_cumsum(F, np, rng):
    return F.cumsum, (_f(rng, 2, 3, 4),), {'axis': 1}


def case_cumsum_none(F, np, rng):
    return F.cumsum, (_f(rng, 2, 3),), {}


def case_cumsum_neg(F, np, rng):
    return F.cumsum, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_cumprod(F, np, rng):
    return F.cumprod, (_f(rng, 2, 3, 4),), {'axis': 1}


def case_cumprod_none(F, np, rng):
    return F.cumprod, (_f(rng, 2, 3),), {}


def case_cumprod_zero(F, np, rng):
    x = _f(rng, 2, 5)
    x[0, 2] = 0
    x[1, 1] = 0
    x[1, 3] = 0
    return F.cumprod, (x,), {'axis': 1}


def case_logsumexp_all(F, np, rng):
    return F.logsumexp, (_f(rng, 3, 4),), {}


def case_logsumexp_axis(F, np, rng):
    return F.logsumexp, (_f(rng, 2, 3, 4),), {'axis': 1}


def case_logsumexp_axes(F, np, rng):
    return F.logsumexp, (_f(rng, 2, 3, 4),), {'axis': (0, 2)}


def case_logsumexp_large(F, np, rng):
    return F.logsumexp, (_f(rng, 3, 4) * 100 + 1000,), {'axis': 1}


def case_batch_l2_norm_squared(F, np, rng):
    return F.batch_l2_norm_squared, (_f(rng, 4, 3, 2),), {}


# ------------------------------------------------------------- linear algebra

def case_matmul(F, np, rng):
    return F.matmul, (_f(rng, 3, 4), _f(rng, 4, 5)), {}


def case_matmul_trans(F, np, rng):
    return F.matmul, (_f(rng, 4, 3), _f(rng, 5, 4)), {'transa': True, 'transb': True}


def case_matmul_batched(F, np, rng):
    return F.matmul, (_f(rng, 2, 3, 4), _f(rng, 2, 4, 5)), {}


def case_matmul_broadcast(F, np, rng):
    return F.matmul, (_f(rng, 2, 3, 4), _f(rng, 4, 5)), {}


def case_matmul_broadcast_batch(F, np, rng):
    return F.matmul, (_f(rng, 2, 1, 3, 4), _f(rng, 3, 4, 2)), {}


def case_matmul_vec(F, np, rng):
    return F.matmul, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_matmul_vecvec(F, np, rng):
    return F.matmul, (_f(rng, 4), _f(rng, 4)), {}


def case_matmul_f16(F, np, rng):
    return F.matmul, (_f(rng, 3, 4, dtype='e'), _f(rng, 4, 2, dtype='e')), {}


def case_batch_matmul(F, np, rng):
    return F.batch_matmul, (_f(rng, 2, 3, 4), _f(rng, 2, 4, 5)), {}


def case_batch_matmul_trans(F, np, rng):
    return F.batch_matmul, (_f(rng, 2, 4, 3), _f(rng, 2, 5, 4)), {'transa': True,
                                                                  'transb': True}


def case_batch_matmul_vec(F, np, rng):
    return F.batch_matmul, (_f(rng, 2, 3), _f(rng, 2, 3)), {'transa': True}


def case_tensordot_default(F, np, rng):
    return F.tensordot, (_f(rng, 2, 3, 4), _f(rng, 3, 4, 5)), {}


def case_tensordot_int(F, np, rng):
    return F.tensordot, (_f(rng, 2, 3, 4), _f(rng, 4, 5)), {'axes': 1}


def case_tensordot_pairs(F, np, rng):
    return F.tensordot, (_f(rng, 2, 3, 4), _f(rng, 4, 2, 5)), {'axes': ([0, 2], [1, 0])}


def case_tensordot_zero(F, np, rng):
    return F.tensordot, (_f(rng, 2, 3), _f(rng, 4)), {'axes': 0}


def case_einsum_matmul(F, np, rng):
    return (lambda a, b: F.einsum('ij,jk->ik', a, b)), (_f(rng, 3, 4), _f(rng, 4, 5)), {}


def case_einsum_trace(F, np, rng):
    return (lambda a: F.einsum('ii->', a)), (_f(rng, 4, 4),), {}


def case_einsum_diag(F, np, rng):
    return (lambda a: F.einsum('ii->i', a)), (_f(rng, 4, 4),), {}


def case_einsum_batch(F, np, rng):
    return ((lambda a, b: F.einsum('bij,bjk->bik', a, b)),
            (_f(rng, 2, 3, 4), _f(rng, 2, 4, 5)), {})


def case_einsum_implicit(F, np, rng):
    return (lambda a, b: F.einsum('ij,jk', a, b)), (_f(rng, 3, 4), _f(rng, 4, 5)), {}


def case_einsum_ellipsis(F, np, rng):
    return ((lambda a, b: F.einsum('...ij,...jk->...ik', a, b)),
            (_f(rng, 2, 3, 4), _f(rng, 2, 4, 5)), {})


def case_einsum_outer_three(F, np, rng):
    return ((lambda a, b, c: F.einsum('i,j,k->ijk', a, b, c)),
            (_f(rng, 2), _f(rng, 3), _f(rng, 4)), {})


def case_einsum_sum(F, np, rng):
    return (lambda a: F.einsum('ijk->j', a)), (_f(rng, 2, 3, 4),), {}


def case_det(F, np, rng):
    return F.det, (_f(rng, 4, 4),), {}


def case_det_f64(F, np, rng):
    return F.det, (_f(rng, 3, 3, dtype='d'),), {}


def case_batch_det(F, np, rng):
    return F.batch_det, (_f(rng, 3, 4, 4),), {}


def case_inv(F, np, rng):
    return F.inv, (_f(rng, 4, 4) + 4 * np.eye(4, dtype='f'),), {}


def case_batch_inv(F, np, rng):
    return F.batch_inv, (_f(rng, 3, 4, 4) + 4 * np.eye(4, dtype='f'),), {}


def case_inv_singular(F, np, rng):
    return F.inv, (np.ones((3, 3), 'f'),), {}


def case_cholesky(F, np, rng):
    a = rng.randn(4, 4)
    a = (a @ a.T + 4 * np.eye(4)).astype('f')
    # the upstream gradient is symmetrised by the wrapper: gradients of a symmetric matrix
    return (lambda x: F.cholesky((x + F.transpose(x)) * 0.5)), (a,), {}


def case_cholesky_f64(F, np, rng):
    a = rng.randn(3, 3)
    a = a @ a.T + 3 * np.eye(3)
    return (lambda x: F.cholesky((x + F.transpose(x)) * 0.5)), (a,), {}


def case_cholesky_raw(F, np, rng):
    a = rng.randn(4, 4)
    a = (a @ a.T + 4 * np.eye(4)).astype('f')
    return F.cholesky, (a,), {}


def case_fft(F, np, rng):
    return (lambda r, i: F.fft((r, i))), (_f(rng, 2, 8), _f(rng, 2, 8)), {}


def case_ifft(F, np, rng):
    return (lambda r, i: F.ifft((r, i))), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_fft_f64(F, np, rng):
    return (lambda r, i: F.fft((r, i))), (_f(rng, 5, dtype='d'), _f(rng, 5, dtype='d')), {}


def case_sparse_matmul(F, np, rng):
    import chainer.utils

    def fn(a, b):
        a_dense = np.where(np.abs(a.array) > 0.8, a.array, 0).astype('f')
        sp = chainer.utils.to_coo(a_dense)
        return F.sparse_matmul(sp, b)
    return fn, (_f(rng, 3, 4), _f(rng, 4, 5)), {}


def case_sparse_matmul_dense_sparse(F, np, rng):
    import chainer.utils

    def fn(a, b):
        b_dense = np.where(np.abs(b.array) > 0.8, b.array, 0).astype('f')
        sp = chainer.utils.to_coo(b_dense)
        return F.sparse_matmul(a, sp, transa=True)
    return fn, (_f(rng, 4, 3), _f(rng, 4, 5)), {}


def case_sparse_matmul_batched(F, np, rng):
    import chainer.utils

    def fn(a, b):
        a_dense = np.where(np.abs(a.array) > 0.8, a.array, 0).astype('f')
        sp = chainer.utils.to_coo(a_dense)
        return F.sparse_matmul(sp, b, transb=True)
    return fn, (_f(rng, 2, 3, 4), _f(rng, 2, 5, 4)), {}


# ------------------------------------------------------------ special functions

def case_digamma(F, np, rng):
    return F.digamma, (_u(rng, 0.5, 5, 3, 4),), {}


def case_lgamma(F, np, rng):
    return F.lgamma, (_u(rng, 0.5, 5, 3, 4),), {}


def case_lgamma_neg(F, np, rng):
    return F.lgamma, (np.array([-0.5, -1.5, -2.3, 0.3], 'f'),), {}


def case_polygamma(F, np, rng):
    return (lambda n, x: F.polygamma(n, x)), (np.array([0, 1, 2, 3], 'i'),
                                              _u(rng, 0.5, 5, 4)), {}


def case_polygamma_broadcast_n(F, np, rng):
    return (lambda n, x: F.polygamma(n, x)), (np.array([[1], [2]], 'i'),
                                              _u(rng, 0.5, 5, 2, 3)), {}


def case_zeta(F, np, rng):
    x = np.array([2.0, 3.0, 4.5], 'f')  # the parameter x is an array, not a Variable
    return (lambda q: F.zeta(x, q)), (_u(rng, 0.5, 3, 3),), {}


def case_zeta_broadcast(F, np, rng):
    x = np.array([[2.0], [3.5]], 'd')
    return (lambda q: F.zeta(x, q)), (_u(rng, 0.5, 3, 2, 3, dtype='d'),), {}


def case_erf(F, np, rng):
    return F.erf, (_f(rng, 3, 4),), {}


def case_erfc(F, np, rng):
    return F.erfc, (_f(rng, 3, 4),), {}


def case_erfcx(F, np, rng):
    return F.erfcx, (_f(rng, 3, 4) * 3,), {}


def case_erfinv(F, np, rng):
    return F.erfinv, (_u(rng, -0.9, 0.9, 3, 4),), {}


def case_erfcinv(F, np, rng):
    return F.erfcinv, (_u(rng, 0.1, 1.9, 3, 4),), {}


def case_ndtr(F, np, rng):
    return F.ndtr, (_f(rng, 3, 4) * 2,), {}


def case_ndtri(F, np, rng):
    return F.ndtri, (_u(rng, 0.05, 0.95, 3, 4),), {}


def case_log_ndtr(F, np, rng):
    return F.log_ndtr, (_f(rng, 3, 4) * 3,), {}


def case_log_ndtr_tail(F, np, rng):
    return F.log_ndtr, (np.array([-30, -10, 0, 10], 'd'),), {}


def case_erf_f16(F, np, rng):
    # gx differs by one float16 ulp (2.4e-4 at |g| ~ 1): rounding, not a bug
    return F.erf, (_f(rng, 3, 4, dtype='e'),), {}


def case_erf_f64(F, np, rng):
    return F.erf, (_f(rng, 3, 4, dtype='d'),), {}


# ------------------------------------------------------------------ edge cases

def case_clip_boundary(F, np, rng):
    return F.clip, (np.array([-1.0, -0.5, 0.0, 0.5, 1.0], 'f'),), {'x_min': -0.5, 'x_max': 0.5}


def case_clip_min_gt_max(F, np, rng):
    return F.clip, (_f(rng, 3),), {'x_min': 0.5, 'x_max': -0.5}


def case_clip_both_none(F, np, rng):
    return F.clip, (_f(rng, 3),), {'x_min': None, 'x_max': None}


def case_clip_array_bounds(F, np, rng):
    return F.clip, (_f(rng, 3),), {'x_min': np.float32(-0.2), 'x_max': np.float32(0.2)}


def case_absolute_zero(F, np, rng):
    return F.absolute, (np.array([-1.0, 0.0, 2.0], 'f'),), {}


def case_sqrt_zero(F, np, rng):
    return F.sqrt, (np.array([0.0, 1.0, 4.0], 'f'),), {}


def case_rsqrt_f64(F, np, rng):
    return F.rsqrt, (_u(rng, 0.1, 3, 3, dtype='d'),), {}


def case_sign_f16(F, np, rng):
    return F.sign, (np.array([-2, 0, 3], 'e'),), {}


def case_maximum_broadcast(F, np, rng):
    return F.maximum, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_minimum_broadcast(F, np, rng):
    return F.minimum, (_f(rng, 3, 1), _f(rng, 1, 4)), {}


def case_maximum_f16(F, np, rng):
    return F.maximum, (_f(rng, 3, 4, dtype='e'), _f(rng, 3, 4, dtype='e')), {}


def case_add_broadcast(F, np, rng):
    return F.add, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_add_mixed_dtype(F, np, rng):
    return F.add, (_f(rng, 3), _f(rng, 3, dtype='d')), {}


def case_squared_difference_broadcast(F, np, rng):
    # 7.8.1 requires equal shapes (InvalidType); ours broadcasts like the operators: kept
    return F.squared_difference, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_linear_interpolate_broadcast(F, np, rng):
    return F.linear_interpolate, (rng.rand(4).astype('f'), _f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_fmod_f64(F, np, rng):
    return F.fmod, (_f(rng, 5, dtype='d') * 4, _u(rng, 0.5, 2, 5, dtype='d')), {}


def case_fmod_broadcast(F, np, rng):
    # 7.8.1's backward fails on broadcast operands ("has a bug"); ours sums back: kept
    return F.fmod, (_f(rng, 3, 4) * 4, _u(rng, 0.5, 2, 4)), {}


def case_arctan2_zero(F, np, rng):
    return F.arctan2, (np.array([0.0, 1.0, -1.0], 'f'), np.array([1.0, 0.0, -1.0], 'f')), {}


def case_arctan2_broadcast(F, np, rng):
    # 7.8.1's backward fails on broadcast operands ("has a bug"); ours sums back: kept
    return F.arctan2, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_bias_long(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4, 5), _f(rng, 3, 4)), {'axis': 1}


def case_bias_axis_last(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4), _f(rng, 4)), {'axis': 2}


def case_scale_long(F, np, rng):
    return F.scale, (_f(rng, 2, 3, 4, 5), _f(rng, 3, 4)), {'axis': 1}


def case_scale_axis0(F, np, rng):
    return F.scale, (_f(rng, 2, 3), _f(rng, 2, 3)), {'axis': 0}


def case_sum_to_lead(F, np, rng):
    return F.sum_to, (_f(rng, 2, 3, 4),), {'shape': (4,)}


def case_sum_to_scalar(F, np, rng):
    return F.sum_to, (_f(rng, 2, 3),), {'shape': ()}


def case_sum_to_ones(F, np, rng):
    return F.sum_to, (_f(rng, 2, 3, 4),), {'shape': (1, 3, 1)}


def case_sum_neg_tuple(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4),), {'axis': (-1, 0)}


def case_sum_keepdims_all(F, np, rng):
    return F.sum, (_f(rng, 2, 3),), {'keepdims': True}


def case_sum_f64(F, np, rng):
    return F.sum, (_f(rng, 2, 3, dtype='d'),), {'axis': 0}


def case_sum_empty(F, np, rng):
    return F.sum, (np.zeros((0, 3), 'f'),), {'axis': 0}


def case_mean_f16(F, np, rng):
    return F.mean, (_f(rng, 4, 5, dtype='e'),), {'axis': 1}


def case_mean_neg_axis(F, np, rng):
    return F.mean, (_f(rng, 2, 3, 4),), {'axis': -2}


def case_max_keepdims_all(F, np, rng):
    return F.max, (_f(rng, 3, 4),), {'keepdims': True}


def case_max_f16(F, np, rng):
    return F.max, (_f(rng, 3, 4, dtype='e'),), {'axis': 0}


def case_max_all_ties(F, np, rng):
    return F.max, (np.array([[2, 1, 2], [0, 2, 2]], 'f'),), {}


def case_min_axes(F, np, rng):
    return F.min, (_f(rng, 2, 3, 4),), {'axis': (1, 2)}


def case_max_nan(F, np, rng):
    return F.max, (np.array([[1, np.nan, 3], [2, 0, 1]], 'f'),), {'axis': 1}


def case_argmax_ties(F, np, rng):
    return F.argmax, (np.array([[1, 3, 3], [2, 2, 0]], 'f'),), {'axis': 1}


def case_argmin_ties(F, np, rng):
    return F.argmin, (np.array([[1, 0, 0], [0, 2, 0]], 'f'),), {'axis': 1}


def case_argmax_neg_axis(F, np, rng):
    return F.argmax, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_argmax_f16(F, np, rng):
    return F.argmax, (_f(rng, 3, 4, dtype='e'),), {'axis': 0}


def case_prod_two_zeros(F, np, rng):
    x = _f(rng, 2, 4)
    x[0, 1] = x[0, 3] = 0
    return F.prod, (x,), {}


def case_prod_f16(F, np, rng):
    # gx: one float16 ulp apart, both ~5e-4 from the exact value (float rounding)
    return F.prod, (_u(rng, 0.5, 1.5, 3, 4, dtype='e'),), {'axis': 1}


def case_prod_neg_axis(F, np, rng):
    return F.prod, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_prod_keepdims_all(F, np, rng):
    return F.prod, (_f(rng, 2, 3),), {'keepdims': True}


def case_cumsum_f16(F, np, rng):
    return F.cumsum, (_f(rng, 3, 4, dtype='e'),), {'axis': 0}


def case_cumprod_neg(F, np, rng):
    return F.cumprod, (_f(rng, 2, 3, 4),), {'axis': -2}


def case_cumprod_f64(F, np, rng):
    return F.cumprod, (_f(rng, 6, dtype='d'),), {'axis': 0}


def case_logsumexp_ninf(F, np, rng):
    # a row of -inf: ours gives -inf (log 0, as numpy/scipy), 7.8.1 NaN (-inf - -inf): kept
    x = _f(rng, 3, 4)
    x[0] = -np.inf
    return F.logsumexp, (x,), {'axis': 1}


def case_logsumexp_f16(F, np, rng):
    return F.logsumexp, (_f(rng, 3, 4, dtype='e'),), {'axis': 1}


def case_logsumexp_neg_axis(F, np, rng):
    return F.logsumexp, (_f(rng, 2, 3, 4),), {'axis': -1}


def case_batch_l2_norm_squared_1d(F, np, rng):
    return F.batch_l2_norm_squared, (_f(rng, 4),), {}


def case_batch_l2_norm_squared_f64(F, np, rng):
    return F.batch_l2_norm_squared, (_f(rng, 4, 5, dtype='d'),), {}


def case_matmul_vec_mat(F, np, rng):
    return F.matmul, (_f(rng, 4), _f(rng, 4, 3)), {}


def case_matmul_trans_batched(F, np, rng):
    return F.matmul, (_f(rng, 2, 4, 3), _f(rng, 2, 4, 5)), {'transa': True}


def case_matmul_mixed(F, np, rng):
    return F.matmul, (_f(rng, 3, 4), _f(rng, 4, 2, dtype='d')), {}


def case_matmul_f64(F, np, rng):
    return F.matmul, (_f(rng, 3, 4, dtype='d'), _f(rng, 4, 2, dtype='d')), {}


def case_tensordot_tuple_axes(F, np, rng):
    return F.tensordot, (_f(rng, 3, 4, 5), _f(rng, 4, 3)), {'axes': ((0, 1), (1, 0))}


def case_tensordot_f64(F, np, rng):
    return F.tensordot, (_f(rng, 3, 4, dtype='d'), _f(rng, 4, 3, dtype='d')), {'axes': 1}


def case_einsum_transpose(F, np, rng):
    return (lambda a: F.einsum('ij->ji', a)), (_f(rng, 3, 4),), {}


def case_einsum_dot(F, np, rng):
    return (lambda a, b: F.einsum('i,i->', a, b)), (_f(rng, 4), _f(rng, 4)), {}


def case_einsum_broadcast_ellipsis(F, np, rng):
    return ((lambda a, b: F.einsum('...i,i->...', a, b)), (_f(rng, 2, 3, 4), _f(rng, 4)), {})


def case_einsum_bad(F, np, rng):
    return (lambda a, b: F.einsum('ij,jk->ik', a, b)), (_f(rng, 3, 4), _f(rng, 3, 5)), {}


def case_det_singular(F, np, rng):
    return F.det, (np.array([[1, 2], [2, 4]], 'f'),), {}


def case_batch_det_f64(F, np, rng):
    return F.batch_det, (_f(rng, 2, 3, 3, dtype='d'),), {}


def case_inv_f64(F, np, rng):
    return F.inv, (_f(rng, 3, 3, dtype='d') + 3 * np.eye(3),), {}


def case_batch_inv_f64(F, np, rng):
    return F.batch_inv, (_f(rng, 2, 3, 3, dtype='d') + 3 * np.eye(3),), {}


def case_det_nonsquare(F, np, rng):
    return F.det, (_f(rng, 3, 4),), {}


def case_batch_det_2d(F, np, rng):
    return F.batch_det, (_f(rng, 3, 3),), {}


def case_inv_3d(F, np, rng):
    return F.inv, (_f(rng, 2, 3, 3),), {}


def case_fft_3d(F, np, rng):
    return (lambda r, i: F.fft((r, i))), (_f(rng, 2, 3, 4), _f(rng, 2, 3, 4)), {}


def case_ifft_f64(F, np, rng):
    return (lambda r, i: F.ifft((r, i))), (_f(rng, 6, dtype='d'), _f(rng, 6, dtype='d')), {}


def case_fft_1d(F, np, rng):
    return (lambda r, i: F.fft((r, i))), (_f(rng, 8), _f(rng, 8)), {}


# special functions, other dtypes and edges

def case_digamma_f64(F, np, rng):
    return F.digamma, (_u(rng, 0.5, 5, 3, dtype='d'),), {}


def case_digamma_f16(F, np, rng):
    return F.digamma, (_u(rng, 0.5, 5, 3, dtype='e'),), {}


def case_digamma_neg(F, np, rng):
    return F.digamma, (np.array([-0.5, -1.3, 0.2], 'f'),), {}


def case_lgamma_f64(F, np, rng):
    return F.lgamma, (_u(rng, 0.5, 5, 3, dtype='d'),), {}


def case_lgamma_f16(F, np, rng):
    return F.lgamma, (_u(rng, 0.5, 5, 3, dtype='e'),), {}


def case_polygamma_f64(F, np, rng):
    return (lambda n, x: F.polygamma(n, x)), (np.array([0, 1, 2], 'i'),
                                              _u(rng, 0.5, 5, 3, dtype='d')), {}


def case_polygamma_scalar_n(F, np, rng):
    return (lambda n, x: F.polygamma(n, x)), (np.array(1, 'i'), _u(rng, 0.5, 5, 4)), {}


def case_erfcx_neg(F, np, rng):
    return F.erfcx, (np.array([-3.0, -1.0, 0.0, 5.0, 30.0], 'f'),), {}


def case_erfinv_edges(F, np, rng):
    return F.erfinv, (np.array([-1.0, 0.0, 1.0], 'f'),), {}


def case_erfcinv_edges(F, np, rng):
    return F.erfcinv, (np.array([0.0, 1.0, 2.0], 'f'),), {}


def case_erfinv_f64(F, np, rng):
    return F.erfinv, (_u(rng, -0.9, 0.9, 4, dtype='d'),), {}


def case_erfinv_f16(F, np, rng):
    # gx: one float16 ulp apart (float rounding)
    return F.erfinv, (_u(rng, -0.9, 0.9, 4, dtype='e'),), {}


def case_ndtri_edges(F, np, rng):
    return F.ndtri, (np.array([0.0, 0.5, 1.0], 'f'),), {}


def case_ndtri_f64(F, np, rng):
    return F.ndtri, (_u(rng, 0.05, 0.95, 4, dtype='d'),), {}


def case_ndtr_f16(F, np, rng):
    return F.ndtr, (_f(rng, 4, dtype='e'),), {}


def case_log_ndtr_f16(F, np, rng):
    # gx: one float16 ulp apart (float rounding)
    return F.log_ndtr, (_f(rng, 4, dtype='e'),), {}


def case_erfc_f64(F, np, rng):
    return F.erfc, (_f(rng, 4, dtype='d'),), {}


def case_erfcx_f16(F, np, rng):
    return F.erfcx, (_f(rng, 4, dtype='e'),), {}


def case_zeta_f16(F, np, rng):
    x = np.array([2.0, 3.0], 'e')
    return (lambda q: F.zeta(x, q)), (_u(rng, 0.5, 3, 2, dtype='e'),), {}


def case_expm1_f64(F, np, rng):
    return F.expm1, (_f(rng, 4, dtype='d'),), {}


def case_log1p_f16(F, np, rng):
    return F.log1p, (_u(rng, 0, 1, 4, dtype='e'),), {}


def case_log_zero(F, np, rng):
    return F.log, (np.array([0.0, 1.0], 'f'),), {}


def case_arcsin_edges(F, np, rng):
    return F.arcsin, (np.array([-1.0, 0.0, 1.0], 'f'),), {}


def case_arctanh_f64(F, np, rng):
    return F.arctanh, (_u(rng, -0.9, 0.9, 4, dtype='d'),), {}


def case_tan_f16(F, np, rng):
    return F.tan, (_u(rng, -1, 1, 4, dtype='e'),), {}


def case_cosh_f64(F, np, rng):
    return F.cosh, (_f(rng, 4, dtype='d'),), {}


def case_ceil_f16(F, np, rng):
    return F.ceil, (_f(rng, 4, dtype='e') * 3,), {}


def case_fix_f64(F, np, rng):
    return F.fix, (_f(rng, 4, dtype='d') * 3,), {}


def case_square_f16(F, np, rng):
    return F.square, (_f(rng, 4, dtype='e'),), {}


def case_tensordot_mixed(F, np, rng):
    return F.tensordot, (_f(rng, 3, 4), _f(rng, 4, 2, dtype='d')), {'axes': 1}


def case_matmul_mixed_f16(F, np, rng):
    return F.matmul, (_f(rng, 3, 4, dtype='e'), _f(rng, 4, 2)), {}


def case_einsum_mixed(F, np, rng):
    # 7.8.1 runs the forward of mixed dtypes but its backward raises ("has a bug"); ours
    # differentiates (gradients in each operand's dtype): forward compared only
    return ((lambda a, b: F.einsum('ij,jk->ik', a, b)), (_f(rng, 3, 4), _f(rng, 4, 2, dtype='d')),
            {}, {'backward': False})


def case_arctan2_broadcast_fwd(F, np, rng):
    # arctan2_broadcast: 7.8.1's backward fails on broadcast operands ("has a bug"); ours
    # sums the gradient back to each operand's shape
    return F.arctan2, (_f(rng, 3, 4), _f(rng, 4)), {}, {'backward': False}


def case_fmod_broadcast_fwd(F, np, rng):
    return F.fmod, (_f(rng, 3, 4) * 4, _u(rng, 0.5, 2, 4)), {}, {'backward': False}


# --------------------------------------------- second order: the gradient, differentiated

def _gg(F, fn, *extra):
    """x -> d(sum(fn(x)^2 * w))/dx as a graph, so the harness differentiates it again."""
    import chainer

    def g(x):
        y = fn(x, *extra)
        w = np.linspace(0.5, 1.5, y.size).reshape(y.shape).astype(y.dtype)  # noqa: F821
        return chainer.grad([F.sum(y * y * w)], [x], enable_double_backprop=True)[0]
    return g


def _dd(name, make_input):
    def case(F, np, rng):
        globals()['np'] = np
        return _gg(F, getattr(F, name)), (make_input(rng),), {}
    return case


for _name, _mk in [
    ('absolute', lambda r: _f(r, 3, 4)), ('arccos', lambda r: _u(r, -0.9, 0.9, 3, 4)),
    ('arcsin', lambda r: _u(r, -0.9, 0.9, 3, 4)), ('arctan', lambda r: _f(r, 3, 4)),
    ('arctanh', lambda r: _u(r, -0.9, 0.9, 3, 4)), ('cos', lambda r: _f(r, 3, 4)),
    ('tan', lambda r: _u(r, -1, 1, 3, 4)), ('cosh', lambda r: _f(r, 3, 4)),
    ('sinh', lambda r: _f(r, 3, 4)), ('exp', lambda r: _f(r, 3, 4)),
    ('expm1', lambda r: _f(r, 3, 4)), ('log', lambda r: _u(r, 0.5, 3, 3, 4)),
    ('log2', lambda r: _u(r, 0.5, 3, 3, 4)), ('log10', lambda r: _u(r, 0.5, 3, 3, 4)),
    ('log1p', lambda r: _u(r, 0, 3, 3, 4)), ('sqrt', lambda r: _u(r, 0.5, 3, 3, 4)),
    ('rsqrt', lambda r: _u(r, 0.5, 3, 3, 4)), ('square', lambda r: _f(r, 3, 4)),
    ('erf', lambda r: _f(r, 3, 4)), ('erfc', lambda r: _f(r, 3, 4)),
    ('erfcx', lambda r: _f(r, 3, 4)), ('erfinv', lambda r: _u(r, -0.8, 0.8, 3, 4)),
    ('erfcinv', lambda r: _u(r, 0.2, 1.8, 3, 4)), ('ndtr', lambda r: _f(r, 3, 4)),
    ('ndtri', lambda r: _u(r, 0.1, 0.9, 3, 4)), ('log_ndtr', lambda r: _f(r, 3, 4)),
    ('digamma', lambda r: _u(r, 0.5, 4, 3, 4)), ('lgamma', lambda r: _u(r, 0.5, 4, 3, 4)),
    ('batch_l2_norm_squared', lambda r: _f(r, 3, 4)), ('logsumexp', lambda r: _f(r, 3, 4)),
    ('prod', lambda r: _f(r, 3, 4)), ('cumprod', lambda r: _f(r, 3, 4)),
    ('cumsum', lambda r: _f(r, 3, 4)), ('max', lambda r: _f(r, 3, 4)),
    ('min', lambda r: _f(r, 3, 4)), ('sum', lambda r: _f(r, 3, 4)),
    ('mean', lambda r: _f(r, 3, 4)),
    ('det', lambda r: _f(r, 3, 3) + 2 * np.eye(3, dtype='f')),  # noqa: F821
    ('inv', lambda r: _f(r, 3, 3) + 3 * np.eye(3, dtype='f')),  # noqa: F821
]:  # (sign, floor, ceil, fix: no gradient at all, in both -- chainer.grad gives None)
    globals()[f'case_dd_{_name}'] = _dd(_name, _mk)


def case_dd_prod_axis_zero(F, np, rng):
    globals()['np'] = np
    x = _f(rng, 3, 4)
    x[0, 1] = 0
    return _gg(F, lambda x: F.prod(x, axis=1)), (x,), {}


def case_dd_cumprod_axis(F, np, rng):
    globals()['np'] = np
    return _gg(F, lambda x: F.cumprod(x, axis=1)), (_f(rng, 3, 4),), {}


def case_dd_logsumexp_axis(F, np, rng):
    globals()['np'] = np
    return _gg(F, lambda x: F.logsumexp(x, axis=1)), (_f(rng, 3, 4),), {}


def case_dd_clip(F, np, rng):
    globals()['np'] = np
    return _gg(F, lambda x: F.clip(x, -0.5, 0.5)), (_f(rng, 3, 4),), {}


def case_dd_batch_det(F, np, rng):
    globals()['np'] = np
    return _gg(F, F.batch_det), (_f(rng, 2, 3, 3) + 2 * np.eye(3, dtype='f'),), {}


def case_dd_batch_inv(F, np, rng):
    globals()['np'] = np
    return _gg(F, F.batch_inv), (_f(rng, 2, 3, 3) + 3 * np.eye(3, dtype='f'),), {}


def case_dd_cholesky(F, np, rng):
    globals()['np'] = np
    a = rng.randn(3, 3)
    a = (a @ a.T + 3 * np.eye(3)).astype('f')
    return _gg(F, lambda x: F.cholesky((x + F.transpose(x)) * 0.5)), (a,), {}


def case_dd_polygamma(F, np, rng):
    globals()['np'] = np
    n = np.array([0, 1, 2, 1], 'i')
    return _gg(F, lambda x: F.polygamma(n, x)), (_u(rng, 0.5, 4, 4),), {}


def case_dd_zeta(F, np, rng):
    globals()['np'] = np
    s = np.array([2.0, 3.0, 4.5], 'f')
    return _gg(F, lambda q: F.zeta(s, q)), (_u(rng, 0.5, 3, 3),), {}


def case_dd_matmul(F, np, rng):
    globals()['np'] = np
    b = _f(rng, 4, 2)
    return _gg(F, lambda a: F.matmul(a, b, transb=False)), (_f(rng, 3, 4),), {}


def case_dd_arctan2(F, np, rng):
    globals()['np'] = np
    y = _f(rng, 3, 4)
    return _gg(F, lambda x: F.arctan2(x, y) + F.arctan2(y, x)), (_f(rng, 3, 4),), {}


def case_dd_fmod(F, np, rng):
    globals()['np'] = np
    d = _u(rng, 0.5, 2, 3, 4)
    return _gg(F, lambda x: F.fmod(x, d) + F.fmod(d * 3, x + 3)), (_f(rng, 3, 4),), {}


def case_dd_maximum(F, np, rng):
    globals()['np'] = np
    y = _f(rng, 3, 4)
    return _gg(F, lambda x: F.maximum(x, y) * F.minimum(x, y)), (_f(rng, 3, 4),), {}


def case_dd_squared_difference(F, np, rng):
    globals()['np'] = np
    y = _f(rng, 3, 4)
    return _gg(F, lambda x: F.squared_difference(x, y)), (_f(rng, 3, 4),), {}


def case_dd_linear_interpolate(F, np, rng):
    globals()['np'] = np
    a, b = _f(rng, 3, 4), _f(rng, 3, 4)
    return _gg(F, lambda p: F.linear_interpolate(p, a, b)), (rng.rand(3, 4).astype('f'),), {}


def case_dd_average_weights(F, np, rng):
    globals()['np'] = np
    w = rng.rand(4).astype('f')
    return _gg(F, lambda x: F.average(x, axis=1, weights=w)), (_f(rng, 3, 4),), {}


def case_dd_tensordot(F, np, rng):
    globals()['np'] = np
    b = _f(rng, 4, 5, 2)
    return _gg(F, lambda a: F.tensordot(a, b)), (_f(rng, 3, 4, 5),), {}


def case_dd_einsum(F, np, rng):
    globals()['np'] = np
    b = _f(rng, 4, 2)
    return _gg(F, lambda a: F.einsum('ij,jk->ik', a, b) * F.einsum('ij->i', a)[:, None]), \
        (_f(rng, 3, 4),), {}


def case_dd_fft(F, np, rng):
    globals()['np'] = np

    def fn(x):
        r, i = F.fft((x, x * 2))
        return r * i
    return _gg(F, fn), (_f(rng, 2, 4),), {}


def case_dd_scale_bias(F, np, rng):
    globals()['np'] = np
    y = _f(rng, 3)
    return _gg(F, lambda x: F.scale(x, y) + F.bias(x * x, y)), (_f(rng, 2, 3, 4),), {}


def _gg2(F, fn):
    import chainer

    def g(x, y):
        z = fn(x, y)
        w = np.linspace(0.5, 1.5, z.size).reshape(z.shape).astype(z.dtype)  # noqa: F821
        return chainer.grad([F.sum(z * z * w)], [x, y], enable_double_backprop=True)
    return g


# dd_arctan2, dd_maximum, dd_linear_interpolate: 7.8.1's double backward fails when only
# some inputs are differentiated (constants as other operands); ours works. The same with
# every input differentiated:

def case_dd2_arctan2(F, np, rng):
    globals()['np'] = np
    return _gg2(F, F.arctan2), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_dd2_maximum(F, np, rng):
    globals()['np'] = np
    return _gg2(F, lambda x, y: F.maximum(x, y) * F.minimum(x, y)), (_f(rng, 3, 4),
                                                                       _f(rng, 3, 4)), {}


def case_dd2_linear_interpolate(F, np, rng):
    # 7.8.1's double backward of linear_interpolate fails (TypeError); ours works
    globals()['np'] = np
    b = _f(rng, 3, 4)
    return (_gg2(F, lambda p, a: F.linear_interpolate(p, a, b)),
            (rng.rand(3, 4).astype('f'), _f(rng, 3, 4)), {})


def case_dd2_fmod(F, np, rng):
    globals()['np'] = np
    return _gg2(F, F.fmod), (_f(rng, 3, 4) * 3, _u(rng, 0.5, 2, 3, 4)), {}


def case_dd2_matmul(F, np, rng):
    globals()['np'] = np
    return _gg2(F, F.matmul), (_f(rng, 3, 4), _f(rng, 4, 2)), {}


def case_dd2_scale(F, np, rng):
    globals()['np'] = np
    return _gg2(F, F.scale), (_f(rng, 2, 3, 4), _f(rng, 3)), {}


def case_dd2_bias(F, np, rng):
    globals()['np'] = np
    return _gg2(F, lambda x, y: F.bias(x, y) ** 2), (_f(rng, 2, 3, 4), _f(rng, 3)), {}


# ---------------------------------------------------------------- more edges

def case_arctan2_origin(F, np, rng):
    return F.arctan2, (np.array([0.0, 1.0], 'f'), np.array([0.0, 1.0], 'f')), {}


def case_sqrt_negative(F, np, rng):
    return F.sqrt, (np.array([-1.0, 4.0], 'f'),), {}


def case_prod_empty(F, np, rng):
    return F.prod, (np.zeros((2, 0), 'f'),), {'axis': 1}


def case_max_empty_axis(F, np, rng):
    return F.max, (np.zeros((0, 3), 'f'),), {'axis': 0}


def case_max_axis_out_of_range(F, np, rng):
    return F.max, (_f(rng, 2, 3),), {'axis': 2}


def case_cumsum_axis_out_of_range(F, np, rng):
    return F.cumsum, (_f(rng, 2, 3),), {'axis': 2}


def case_sum_axis_list(F, np, rng):
    return F.sum, (_f(rng, 2, 3, 4),), {'axis': [0, 2]}


def case_max_axis_empty_tuple(F, np, rng):
    return F.max, (_f(rng, 2, 3),), {'axis': ()}


def case_det_1x1(F, np, rng):
    return F.det, (np.array([[3.0]], 'f'),), {}


def case_batch_det_empty(F, np, rng):
    return F.batch_det, (np.zeros((0, 3, 3), 'f'),), {}


def case_fft_mismatch(F, np, rng):
    return (lambda r, i: F.fft((r, i))), (_f(rng, 2, 4), _f(rng, 2, 3)), {}


def case_maximum_dtype_mismatch(F, np, rng):
    return F.maximum, (_f(rng, 3), _f(rng, 3, dtype='d')), {}


def case_batch_l2_norm_squared_4d(F, np, rng):
    return F.batch_l2_norm_squared, (_f(rng, 2, 3, 2, 2),), {}


def case_erf_noncontiguous(F, np, rng):
    return (lambda x: F.erf(x.T) * F.lgamma(abs(x.T) + 1)), (_f(rng, 3, 4),), {}


def case_log_ndtr_noncontiguous(F, np, rng):
    return (lambda x: F.log_ndtr(x[:, ::2])), (_f(rng, 3, 4),), {}


def case_clip_int_bounds(F, np, rng):
    return F.clip, (_f(rng, 3, 4) * 3,), {'x_min': -1, 'x_max': 2}


def case_clip_f16(F, np, rng):
    return F.clip, (_f(rng, 3, 4, dtype='e'),), {'x_min': -0.5, 'x_max': 0.5}


def case_linear_interpolate_f16(F, np, rng):
    # float16 rounding: ours computes p * (x - y) + y, 7.8.1 p * x + (1 - p) * y; both
    # ~6e-4 from the exact value on average
    return F.linear_interpolate, (rng.rand(3, 4).astype('e'), _f(rng, 3, 4, dtype='e'),
                                  _f(rng, 3, 4, dtype='e')), {}


def case_scale_negative_axis(F, np, rng):
    # 7.8.1 rejects a negative axis (InvalidType); ours counts it from the end: kept
    return F.scale, (_f(rng, 2, 3, 4), _f(rng, 4)), {'axis': -1}


def case_bias_bad_shape(F, np, rng):
    return F.bias, (_f(rng, 2, 3, 4), _f(rng, 5)), {}


def case_polygamma_n_float(F, np, rng):
    return (lambda x: F.polygamma(np.array([1.0, 2.0], 'f'), x)), (_u(rng, 0.5, 3, 2),), {}


def case_tensordot_axes_list_ints(F, np, rng):
    return F.tensordot, (_f(rng, 3, 4), _f(rng, 4, 5)), {'axes': [[1], [0]]}


def case_matmul_1d_trans(F, np, rng):
    return F.matmul, (_f(rng, 4), _f(rng, 3, 4)), {'transb': True}


def case_sum_to_bad(F, np, rng):
    return F.sum_to, (_f(rng, 2, 3),), {'shape': (4,)}


def case_logsumexp_axis_tuple_neg(F, np, rng):
    return F.logsumexp, (_f(rng, 2, 3, 4),), {'axis': (-1, -3)}


def case_argmax_axis_tuple(F, np, rng):
    return F.argmax, (_f(rng, 2, 3),), {'axis': (0, 1)}
