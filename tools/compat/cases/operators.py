"""Compatibility cases: Variable operators (+ - * / ** @ abs, reflected forms, broadcasting,
scalars and arrays as operands) and Variable methods (reshape, transpose, T, mean,
__getitem__, __len__, item, comparisons)."""


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def _pos(rng, *shape, dtype='f'):
    return rng.uniform(0.5, 2, shape).astype(dtype)


# ------------------------------------------------------------------ binary, Variables

def case_add(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_sub(F, np, rng):
    return (lambda x, y: x - y), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_mul(F, np, rng):
    return (lambda x, y: x * y), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_div(F, np, rng):
    return (lambda x, y: x / y), (_f(rng, 3, 4), _pos(rng, 3, 4)), {}


def case_pow(F, np, rng):
    return (lambda x, y: x ** y), (_pos(rng, 3, 4), _f(rng, 3, 4)), {}


def case_matmul(F, np, rng):
    return (lambda x, y: x @ y), (_f(rng, 3, 4), _f(rng, 4, 2)), {}


def case_matmul_batched(F, np, rng):
    return (lambda x, y: x @ y), (_f(rng, 2, 3, 4), _f(rng, 2, 4, 2)), {}


def case_matmul_broadcast(F, np, rng):
    return (lambda x, y: x @ y), (_f(rng, 2, 3, 4), _f(rng, 4, 2)), {}


def case_matmul_vec(F, np, rng):
    return (lambda x, y: x @ y), (_f(rng, 3, 4), _f(rng, 4)), {}


def case_matmul_vecvec(F, np, rng):
    return (lambda x, y: x @ y), (_f(rng, 4), _f(rng, 4)), {}


def case_same_variable(F, np, rng):
    return (lambda x: x * x + x - x / (x * x + 1)), (_f(rng, 3, 4),), {}


def case_pow_same(F, np, rng):
    return (lambda x: x ** x), (_pos(rng, 3, 4),), {}


# -------------------------------------------------------------------- broadcasting

def case_add_broadcast(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3, 4), _f(rng, 4)), {}


def case_add_broadcast_both(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3, 1), _f(rng, 1, 4)), {}


def case_sub_broadcast(F, np, rng):
    return (lambda x, y: x - y), (_f(rng, 2, 3, 4), _f(rng, 3, 1)), {}


def case_mul_broadcast(F, np, rng):
    return (lambda x, y: x * y), (_f(rng, 4), _f(rng, 2, 3, 4)), {}


def case_div_broadcast(F, np, rng):
    return (lambda x, y: x / y), (_f(rng, 2, 3), _pos(rng, 2, 1)), {}


def case_pow_broadcast(F, np, rng):
    return (lambda x, y: x ** y), (_pos(rng, 2, 3), _f(rng, 3)), {}


def case_add_scalar_shape(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3, 4), np.array(rng.randn(), 'f')), {}


def case_mul_0d(F, np, rng):
    return (lambda x, y: x * y), (np.array(rng.randn(), 'f'), np.array(rng.randn(), 'f')), {}


def case_rsub_0d_lhs(F, np, rng):
    return (lambda x, y: x - y), (np.array(rng.randn(), 'f'), _f(rng, 2, 3)), {}


def case_add_broadcast_bad(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3, 4), _f(rng, 3)), {}


# ----------------------------------------------------------- python and numpy scalars

def case_add_int(F, np, rng):
    return (lambda x: x + 2), (_f(rng, 3, 4),), {}


def case_radd_float(F, np, rng):
    return (lambda x: 2.5 + x), (_f(rng, 3, 4),), {}


def case_sub_float(F, np, rng):
    return (lambda x: x - 1.5), (_f(rng, 3, 4),), {}


def case_rsub_int(F, np, rng):
    return (lambda x: 3 - x), (_f(rng, 3, 4),), {}


def case_mul_float(F, np, rng):
    return (lambda x: x * 0.3), (_f(rng, 3, 4),), {}


def case_rmul_int(F, np, rng):
    return (lambda x: 4 * x), (_f(rng, 3, 4),), {}


def case_div_float(F, np, rng):
    return (lambda x: x / 3.0), (_f(rng, 3, 4),), {}


def case_div_int(F, np, rng):
    return (lambda x: x / 3), (_f(rng, 3, 4),), {}


def case_rdiv_float(F, np, rng):
    return (lambda x: 2.0 / x), (_pos(rng, 3, 4),), {}


def case_rdiv_int(F, np, rng):
    return (lambda x: 1 / x), (_pos(rng, 3, 4),), {}


def case_pow_int(F, np, rng):
    return (lambda x: x ** 3), (_f(rng, 3, 4),), {}


def case_pow_two(F, np, rng):
    return (lambda x: x ** 2), (_f(rng, 3, 4),), {}


def case_pow_half(F, np, rng):
    return (lambda x: x ** 0.5), (_pos(rng, 3, 4),), {}


def case_pow_neg(F, np, rng):
    return (lambda x: x ** -1.5), (_pos(rng, 3, 4),), {}


def case_pow_zero(F, np, rng):
    return (lambda x: x ** 0), (_f(rng, 3, 4),), {}


def case_rpow_float(F, np, rng):
    return (lambda x: 2.0 ** x), (_f(rng, 3, 4),), {}


def case_rpow_int(F, np, rng):
    return (lambda x: 3 ** x), (_f(rng, 3, 4),), {}


def case_add_np_float64(F, np, rng):
    return (lambda x: x + np.float64(1.5)), (_f(rng, 3, 4),), {}


def case_rmul_np_float32(F, np, rng):
    return (lambda x: np.float32(2.5) * x), (_f(rng, 3, 4),), {}


def case_rmul_np_float64(F, np, rng):
    return (lambda x: np.float64(2.5) * x), (_f(rng, 3, 4),), {}


def case_mul_np_int(F, np, rng):
    return (lambda x: x * np.int32(3)), (_f(rng, 3, 4),), {}


def case_pow_np_float(F, np, rng):
    return (lambda x: x ** np.float32(2.0)), (_pos(rng, 3, 4),), {}


def case_rpow_np_float(F, np, rng):
    return (lambda x: np.float32(2.0) ** x), (_f(rng, 3, 4),), {}


def case_add_f16_scalar(F, np, rng):
    return (lambda x: x * 1.7 + 0.1), (_f(rng, 3, 4, dtype='e'),), {}


def case_add_f64_scalar(F, np, rng):
    return (lambda x: 1 / x + x ** 2 - 3), (_pos(rng, 3, 4, dtype='d'),), {}


def case_add_bool(F, np, rng):
    return (lambda x: x + True), (_f(rng, 3),), {}


def case_add_complex(F, np, rng):
    return (lambda x: x + 1j), (_f(rng, 3),), {}


def case_add_str(F, np, rng):
    return (lambda x: x + 'a'), (_f(rng, 3),), {}


def case_add_none(F, np, rng):
    return (lambda x: x + None), (_f(rng, 3),), {}


# --------------------------------------------------------------- arrays as operands

def case_add_ndarray(F, np, rng):
    a = _f(rng, 3, 4)
    return (lambda x: x + a), (_f(rng, 3, 4),), {}


def case_radd_ndarray(F, np, rng):
    a = _f(rng, 3, 4)
    return (lambda x: a + x), (_f(rng, 3, 4),), {}


def case_rsub_ndarray(F, np, rng):
    a = _f(rng, 3, 4)
    return (lambda x: a - x), (_f(rng, 3, 4),), {}


def case_rmul_ndarray_broadcast(F, np, rng):
    a = _f(rng, 4)
    return (lambda x: a * x), (_f(rng, 3, 4),), {}


def case_rdiv_ndarray(F, np, rng):
    a = _f(rng, 3, 4)
    return (lambda x: a / x), (_pos(rng, 3, 4),), {}


def case_div_ndarray(F, np, rng):
    a = _pos(rng, 3, 4)
    return (lambda x: x / a), (_f(rng, 3, 4),), {}


def case_pow_ndarray(F, np, rng):
    a = _f(rng, 3, 4)
    return (lambda x: x ** a), (_pos(rng, 3, 4),), {}


def case_rpow_ndarray(F, np, rng):
    a = _pos(rng, 3, 4)
    return (lambda x: a ** x), (_f(rng, 3, 4),), {}


def case_rmatmul_ndarray(F, np, rng):
    a = _f(rng, 2, 3)
    return (lambda x: a @ x), (_f(rng, 3, 4),), {}


def case_matmul_ndarray(F, np, rng):
    a = _f(rng, 4, 2)
    return (lambda x: x @ a), (_f(rng, 3, 4),), {}


def case_add_0d_ndarray(F, np, rng):
    a = np.array(2.0, 'f')
    return (lambda x: x + a), (_f(rng, 3, 4),), {}


def case_mul_ndarray_f64(F, np, rng):
    a = _f(rng, 3, 4, dtype='d')
    return (lambda x: x * a), (_f(rng, 3, 4),), {}


def case_add_ndarray_int(F, np, rng):
    a = np.arange(12).reshape(3, 4)
    return (lambda x: x + a), (_f(rng, 3, 4),), {}


def case_add_mixed_variables(F, np, rng):
    return (lambda x, y: x + y), (_f(rng, 3), _f(rng, 3, dtype='d')), {}


def case_add_list(F, np, rng):
    return (lambda x: x + [1.0, 2.0, 3.0]), (_f(rng, 3),), {}


# --------------------------------------------------------------------------- unary

def case_neg(F, np, rng):
    return (lambda x: -x), (_f(rng, 3, 4),), {}


def case_abs(F, np, rng):
    return (lambda x: abs(x)), (_f(rng, 3, 4),), {}


def case_abs_zero(F, np, rng):
    return (lambda x: abs(x)), (np.array([-1.0, 0.0, 1.0], 'f'),), {}


def case_pos(F, np, rng):
    # +x is x itself in both; backward not compared: chainer.backward on a leaf output
    # accumulates in 7.8.1, not in ours (a core _backprop difference, reported)
    return (lambda x: +x), (_f(rng, 3, 4),), {}, {'backward': False}


def case_neg_f16(F, np, rng):
    return (lambda x: -x * 2), (_f(rng, 3, 4, dtype='e'),), {}


# ------------------------------------------------------------------ edge values

def case_div_zero(F, np, rng):
    return (lambda x, y: x / y), (np.array([1.0, -1.0, 0.0], 'f'),
                                  np.array([0.0, 0.0, 0.0], 'f')), {}


def case_rdiv_zero(F, np, rng):
    return (lambda x: 1.0 / x), (np.array([0.0, 2.0], 'f'),), {}


def case_pow_zero_base(F, np, rng):
    return (lambda x, y: x ** y), (np.array([0.0, 0.0, 2.0], 'f'),
                                   np.array([2.0, 0.5, 0.0], 'f')), {}


def case_pow_const_zero_base(F, np, rng):
    return (lambda x: x ** 2.0), (np.array([0.0, -1.0, 3.0], 'f'),), {}


def case_pow_const_half_zero(F, np, rng):
    return (lambda x: x ** 0.5), (np.array([0.0, 1.0, 4.0], 'f'),), {}


def case_rpow_zero_base(F, np, rng):
    # 7.8.1's backward raises (math.log(0): math domain error); ours gives 0 ** x's
    # gradient y * log(0) (NaN at y = 0): kept
    return (lambda x: 0.0 ** x), (np.array([0.5, 1.0, 2.0], 'f'),), {}


def case_rpow_negative_base(F, np, rng):
    # 7.8.1's backward raises (math.log of a negative number); ours NaN: kept
    return (lambda x: (-2.0) ** x), (np.array([1.0, 2.0, 3.0], 'f'),), {}


def case_pow_negative_base(F, np, rng):
    return (lambda x, y: x ** y), (np.array([-2.0, -1.5], 'f'), np.array([2.0, 3.0], 'f')), {}


def case_empty(F, np, rng):
    return (lambda x, y: x * y + 1), (np.zeros((0, 3), 'f'), np.zeros((0, 3), 'f')), {}


# ----------------------------------------------------------------------- in-place

def case_iadd(F, np, rng):
    def fn(x, y):
        z = x * 1
        z += y
        return z
    return fn, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_imul_scalar(F, np, rng):
    def fn(x):
        z = x + 0
        z *= 3
        z -= 1
        z /= 2
        z **= 2
        return z
    return fn, (_f(rng, 3, 4),), {}


def case_imatmul(F, np, rng):
    def fn(x, y):
        z = x * 1
        z @= y
        return z
    return fn, (_f(rng, 3, 3), _f(rng, 3, 3)), {}


# ------------------------------------------------------------------ Variable methods

def case_reshape_args(F, np, rng):
    return (lambda x: x.reshape(4, 3)), (_f(rng, 3, 4),), {}


def case_reshape_tuple(F, np, rng):
    return (lambda x: x.reshape((2, -1))), (_f(rng, 3, 4),), {}


def case_reshape_neg(F, np, rng):
    return (lambda x: x.reshape(-1)), (_f(rng, 3, 4),), {}


def case_reshape_list(F, np, rng):
    return (lambda x: x.reshape([6, 2])), (_f(rng, 3, 4),), {}


def case_reshape_bad(F, np, rng):
    return (lambda x: x.reshape(5, 3)), (_f(rng, 3, 4),), {}


def case_reshape_none(F, np, rng):
    return (lambda x: x.reshape()), (_f(rng, 1, 1),), {}


def case_transpose_none(F, np, rng):
    return (lambda x: x.transpose()), (_f(rng, 2, 3, 4),), {}


def case_transpose_args(F, np, rng):
    return (lambda x: x.transpose(1, 2, 0)), (_f(rng, 2, 3, 4),), {}


def case_transpose_tuple(F, np, rng):
    return (lambda x: x.transpose((2, 0, 1))), (_f(rng, 2, 3, 4),), {}


def case_transpose_neg(F, np, rng):
    return (lambda x: x.transpose(-1, 0, 1)), (_f(rng, 2, 3, 4),), {}


def case_T(F, np, rng):
    return (lambda x: x.T), (_f(rng, 2, 3, 4),), {}


def case_T_1d(F, np, rng):
    return (lambda x: x.T), (_f(rng, 4),), {}


def case_mean_method(F, np, rng):
    return (lambda x: x.mean()), (_f(rng, 3, 4),), {}


def case_mean_method_axis(F, np, rng):
    return (lambda x: x.mean(axis=1, keepdims=True)), (_f(rng, 3, 4),), {}


def case_mean_method_weights(F, np, rng):
    return (lambda x, w: x.mean(axis=0, weights=w)), (_f(rng, 3, 4), rng.rand(3).astype('f')), {}


def case_mean_method_positional_axis(F, np, rng):
    return (lambda x: x.mean(-1)), (_f(rng, 3, 4),), {}


def case_len(F, np, rng):
    return (lambda x: np.array(len(x))), (_f(rng, 3, 4),), {}, {'backward': False}


def case_item(F, np, rng):
    return (lambda x: np.array(x.item())), (_f(rng, 1, 1),), {}, {'backward': False}


def case_item_bad(F, np, rng):
    return (lambda x: np.array(x.item())), (_f(rng, 2),), {}, {'backward': False}


def case_eq(F, np, rng):
    # both refuse; 7.8.1 raises TypeError, ours NotImplementedError (core, reported)
    return (lambda x, y: np.array(x == y)), (_f(rng, 3), _f(rng, 3)), {}, {'backward': False}


def case_lt(F, np, rng):
    return (lambda x, y: np.array(x < y)), (_f(rng, 3), _f(rng, 3)), {}, {'backward': False}


def case_ne(F, np, rng):
    return (lambda x, y: np.array(x != y)), (_f(rng, 3), _f(rng, 3)), {}, {'backward': False}


def case_bool(F, np, rng):
    # both refuse; 7.8.1 raises TypeError, ours NotImplementedError (core, reported)
    return (lambda x: np.array(bool(x))), (_f(rng, 1),), {}, {'backward': False}


def case_hash_set(F, np, rng):
    # 7.8.1's Variable is unhashable (it defines __eq__); ours is hashable (core)
    return (lambda x, y: np.array(len({x, y, x}))), (_f(rng, 3), _f(rng, 3)), {}, \
        {'backward': False}


def case_iter(F, np, rng):
    # 7.8.1 iterates a Variable through __getitem__/__len__ (x[0], x[1], ...); ours
    # raises TypeError (core variable.py, reported)
    return (lambda x: tuple(x)), (_f(rng, 3, 2),), {}


# ----------------------------------------------------------------------- indexing

def case_getitem_int(F, np, rng):
    return (lambda x: x[1]), (_f(rng, 3, 4),), {}


def case_getitem_neg(F, np, rng):
    return (lambda x: x[-1, -2]), (_f(rng, 3, 4),), {}


def case_getitem_slice(F, np, rng):
    return (lambda x: x[1:, ::2]), (_f(rng, 3, 4),), {}


def case_getitem_neg_step(F, np, rng):
    return (lambda x: x[::-1, 3:0:-2]), (_f(rng, 3, 4),), {}


def case_getitem_ellipsis(F, np, rng):
    return (lambda x: x[..., 1]), (_f(rng, 2, 3, 4),), {}


def case_getitem_newaxis(F, np, rng):
    return (lambda x: x[:, None, 1]), (_f(rng, 3, 4),), {}


def case_getitem_int_array(F, np, rng):
    idx = np.array([2, 0, 2])
    return (lambda x: x[idx]), (_f(rng, 3, 4),), {}


def case_getitem_int_list(F, np, rng):
    return (lambda x: x[[0, 2, 2]]), (_f(rng, 3, 4),), {}


def case_getitem_two_arrays(F, np, rng):
    i, j = np.array([0, 2, 2]), np.array([1, 3, 1])
    return (lambda x: x[i, j]), (_f(rng, 3, 4),), {}


def case_getitem_bool(F, np, rng):
    m = np.array([True, False, True])
    return (lambda x: x[m]), (_f(rng, 3, 4),), {}


def case_getitem_bool_full(F, np, rng):
    x = _f(rng, 3, 4)
    m = x > 0
    return (lambda x: x[m]), (x,), {}


def case_getitem_mixed(F, np, rng):
    idx = np.array([1, 0])
    return (lambda x: x[:, idx, 1:]), (_f(rng, 2, 3, 4),), {}


def case_getitem_array_then_slice(F, np, rng):
    idx = np.array([[0, 1], [1, 1]])
    return (lambda x: x[idx, ..., ::2]), (_f(rng, 2, 3, 4),), {}


def case_getitem_separated_arrays(F, np, rng):
    i, j = np.array([0, 1]), np.array([2, 3])
    return (lambda x: x[i, :, j]), (_f(rng, 2, 3, 4),), {}


def case_getitem_scalar_result(F, np, rng):
    return (lambda x: x[1, 2]), (_f(rng, 3, 4),), {}


def case_getitem_empty_slice(F, np, rng):
    return (lambda x: x[3:1]), (_f(rng, 3, 4),), {}


def case_getitem_out_of_range(F, np, rng):
    return (lambda x: x[5]), (_f(rng, 3, 4),), {}


def case_getitem_tuple_list(F, np, rng):
    return (lambda x: x[(0, 1), ]), (_f(rng, 3, 4),), {}


def case_getitem_np_int(F, np, rng):
    return (lambda x: x[np.int64(1), np.int32(2)]), (_f(rng, 3, 4),), {}


# ----------------------------------------------- second order through the operators

def _gg(F, fn):
    import chainer

    def g(x, y):
        z = fn(x, y)
        return chainer.grad([F.sum(z * z)], [x, y], enable_double_backprop=True)
    return g


def case_dd_add_mul(F, np, rng):
    return _gg(F, lambda x, y: x * y + x - y), (_f(rng, 3, 4), _f(rng, 4)), {}


def case_dd_div(F, np, rng):
    return _gg(F, lambda x, y: x / y + 1 / y), (_f(rng, 3, 4), _pos(rng, 3, 1)), {}


def case_dd_pow(F, np, rng):
    return _gg(F, lambda x, y: x ** y + x ** 2.5 + 2 ** y), (_pos(rng, 3, 4), _f(rng, 4)), {}


def case_dd_matmul(F, np, rng):
    return _gg(F, lambda x, y: x @ y), (_f(rng, 3, 4), _f(rng, 4, 2)), {}


def case_dd_abs_neg(F, np, rng):
    return _gg(F, lambda x, y: abs(x) * -y), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_dd_getitem(F, np, rng):
    idx = np.array([0, 2, 2])
    return _gg(F, lambda x, y: x[idx] * y[1:].T), (_f(rng, 3, 4), _f(rng, 5, 3)), {}


def case_dd_methods(F, np, rng):
    return (_gg(F, lambda x, y: x.reshape(4, 3).transpose() * y.mean(axis=0)),
            (_f(rng, 3, 4), _f(rng, 2, 4)), {})
