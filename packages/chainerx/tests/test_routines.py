import numpy
import pytest
from numeric_grad import check_grad

import chainerx
import chainerx.testing

rng = numpy.random.RandomState(1)


def _u(*shape, low=-1.0, high=1.0):
    return rng.uniform(low, high, shape)


def _np(a):
    return chainerx.to_numpy(a)


UNARY = [
    ('exp', numpy.exp, (-1, 1)), ('log', numpy.log, (0.5, 2)), ('sqrt', numpy.sqrt, (0.5, 2)),
    ('sin', numpy.sin, (-1, 1)), ('cos', numpy.cos, (-1, 1)), ('tan', numpy.tan, (-1, 1)),
    ('tanh', numpy.tanh, (-1, 1)), ('sinh', numpy.sinh, (-1, 1)),
    ('cosh', numpy.cosh, (-1, 1)), ('arcsin', numpy.arcsin, (-0.8, 0.8)),
    ('arccos', numpy.arccos, (-0.8, 0.8)), ('arctan', numpy.arctan, (-2, 2)),
    ('arcsinh', numpy.arcsinh, (-2, 2)), ('arccosh', numpy.arccosh, (1.5, 3)),
    ('arctanh', numpy.arctanh, (-0.8, 0.8)), ('log1p', numpy.log1p, (0, 2)),
    ('expm1', numpy.expm1, (-1, 1)), ('log2', numpy.log2, (0.5, 2)),
    ('log10', numpy.log10, (0.5, 2)), ('exp2', numpy.exp2, (-1, 1)),
    ('square', numpy.square, (-1, 1)), ('negative', numpy.negative, (-1, 1)),
    ('absolute', numpy.absolute, (0.2, 1)), ('cbrt', numpy.cbrt, (0.5, 2)),
    ('sigmoid', lambda x: 1 / (1 + numpy.exp(-x)), (-2, 2)),
    ('relu', lambda x: numpy.maximum(x, 0), (0.1, 1)),
]


@pytest.mark.parametrize('name,ref,interval', UNARY)
def test_unary(name, ref, interval):
    x = _u(2, 3, low=interval[0], high=interval[1])
    f = getattr(chainerx, name)
    numpy.testing.assert_allclose(_np(f(chainerx.array(x))), ref(x), rtol=1e-12)
    check_grad(f, x)


def test_unary_of_ints_gives_float32():
    assert chainerx.exp(chainerx.array([1, 2], 'int8')).dtype == chainerx.float32


BINARY = [
    ('add', numpy.add), ('subtract', numpy.subtract), ('multiply', numpy.multiply),
    ('divide', numpy.divide), ('maximum', numpy.maximum), ('minimum', numpy.minimum),
    ('power', numpy.power), ('arctan2', numpy.arctan2),
]


@pytest.mark.parametrize('name,ref', BINARY)
@pytest.mark.parametrize('shapes', [((2, 3), (2, 3)), ((2, 3), (3,)), ((2, 1), (1, 3))])
def test_binary_broadcast(name, ref, shapes):
    a = _u(*shapes[0], low=0.5, high=2)
    b = _u(*shapes[1], low=0.5, high=2)
    f = getattr(chainerx, name)
    numpy.testing.assert_allclose(_np(f(chainerx.array(a), chainerx.array(b))), ref(a, b))
    check_grad(f, a, b)


def test_comparisons_and_logic():
    a = numpy.array([1, 2, 3])
    b = numpy.array([3, 2, 1])
    ca, cb = chainerx.array(a), chainerx.array(b)
    for op in ('equal', 'not_equal', 'less', 'less_equal', 'greater', 'greater_equal',
               'logical_and', 'logical_or', 'logical_xor'):
        numpy.testing.assert_array_equal(_np(getattr(chainerx, op)(ca, cb)),
                                         getattr(numpy, op)(a, b))
    numpy.testing.assert_array_equal(_np(ca < 2), a < 2)
    numpy.testing.assert_array_equal(_np(chainerx.logical_not(ca > 1)), ~(a > 1))


@pytest.mark.parametrize('axis', [None, 0, 1, (0, 2), -1])
@pytest.mark.parametrize('keepdims', [False, True])
def test_reductions(axis, keepdims):
    x = _u(2, 3, 4)
    for name, ref in (('sum', numpy.sum), ('mean', numpy.mean), ('var', numpy.var),
                      ('amax', numpy.amax), ('amin', numpy.amin),
                      ('logsumexp', lambda v, axis, keepdims: numpy.log(
                          numpy.exp(v).sum(axis=axis, keepdims=keepdims)))):
        f = getattr(chainerx, name)
        numpy.testing.assert_allclose(
            _np(f(chainerx.array(x), axis=axis, keepdims=keepdims)),
            ref(x, axis=axis, keepdims=keepdims), rtol=1e-12)
        check_grad(lambda v, f=f: f(v, axis=axis, keepdims=keepdims), x)


def test_reduction_axis_errors():
    with pytest.raises(chainerx.DimensionError):
        chainerx.sum(chainerx.ones((2,)), axis=1)
    with pytest.raises(chainerx.DimensionError):
        chainerx.sum(chainerx.ones((2, 3)), axis=(0, 0))


def test_argmax_argmin_cumsum():
    x = _u(3, 4)
    c = chainerx.array(x)
    numpy.testing.assert_array_equal(_np(chainerx.argmax(c, 1)), x.argmax(1))
    numpy.testing.assert_array_equal(_np(chainerx.argmin(c)), x.argmin())
    numpy.testing.assert_allclose(_np(chainerx.cumsum(c, 1)), x.cumsum(1))
    check_grad(lambda v: chainerx.cumsum(v, 0), x)


@pytest.mark.parametrize('name', ['softmax', 'log_softmax'])
def test_softmax_family(name):
    x = _u(3, 4)
    ls = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    expected = numpy.exp(ls) if name == 'softmax' else ls
    f = getattr(chainerx, name)
    numpy.testing.assert_allclose(_np(f(chainerx.array(x))), expected, rtol=1e-12)
    check_grad(f, x)


def test_manipulation_values_and_grads():
    x = _u(2, 3, 4)
    cases = [
        (lambda v: chainerx.reshape(v, (6, 4)), lambda v: v.reshape(6, 4)),
        (lambda v: chainerx.transpose(v, (2, 0, 1)), lambda v: v.transpose(2, 0, 1)),
        (lambda v: chainerx.swapaxes(v, 0, 2), lambda v: v.swapaxes(0, 2)),
        (lambda v: chainerx.moveaxis(v, 0, -1), lambda v: numpy.moveaxis(v, 0, -1)),
        (lambda v: chainerx.expand_dims(v, 1), lambda v: numpy.expand_dims(v, 1)),
        (lambda v: chainerx.broadcast_to(v[:, :1], (2, 3, 4)),
         lambda v: numpy.broadcast_to(v[:, :1], (2, 3, 4))),
        (lambda v: chainerx.flip(v, 1), lambda v: numpy.flip(v, 1)),
        (lambda v: v[1, ::-1, None, 1:3], lambda v: v[1, ::-1, None, 1:3]),
        (lambda v: v[chainerx.array([1, 1, 0])], lambda v: v[[1, 1, 0]]),
        (lambda v: chainerx.take(v, chainerx.array([0, 2, 2]), 1),
         lambda v: numpy.take(v, [0, 2, 2], 1)),
        (lambda v: chainerx.concatenate([v, v * 2], 1),
         lambda v: numpy.concatenate([v, v * 2], 1)),
        (lambda v: chainerx.stack([v, v], 0), lambda v: numpy.stack([v, v], 0)),
        (lambda v: chainerx.split(v, [1, 3], 2)[1], lambda v: numpy.split(v, [1, 3], 2)[1]),
        (lambda v: chainerx.squeeze(v[:, :1]), lambda v: numpy.squeeze(v[:, :1])),
        (lambda v: chainerx.diagonal(v[0]), lambda v: numpy.diagonal(v[0]).copy()),
    ]
    for f, ref in cases:
        out = f(chainerx.array(x))
        numpy.testing.assert_array_equal(_np(out), ref(x))
        check_grad(f, x)


def test_reshape_is_a_view_with_numpy_strides():
    host = numpy.arange(6.0)
    a = chainerx.asarray(host)
    b = a.reshape(2, 3)
    assert b.strides == host.reshape(2, 3).strides
    assert b._debug_data_memory_address == a._debug_data_memory_address


@pytest.mark.parametrize('shapes', [((3,), (3,)), ((2, 3), (3,)), ((3,), (3, 4)),
                                    ((2, 3), (3, 4)), ((5, 2, 3), (5, 3, 4)),
                                    ((2, 3), (5, 3, 4))])
def test_matmul(shapes):
    a, b = _u(*shapes[0]), _u(*shapes[1])
    numpy.testing.assert_allclose(_np(chainerx.matmul(chainerx.array(a), chainerx.array(b))),
                                  numpy.matmul(a, b), rtol=1e-12)
    check_grad(chainerx.matmul, a, b)


@pytest.mark.parametrize('shapes', [((2, 3), (3, 4)), ((2, 3, 4), (4, 5)),
                                    ((2, 3, 4), (5, 4, 2))])
def test_dot(shapes):
    a, b = _u(*shapes[0]), _u(*shapes[1])
    numpy.testing.assert_allclose(_np(chainerx.dot(chainerx.array(a), chainerx.array(b))),
                                  numpy.dot(a, b), rtol=1e-12)
    check_grad(chainerx.dot, a, b)


def test_where_and_clip():
    x = _u(3, 4)
    cond = x > 0
    numpy.testing.assert_array_equal(
        _np(chainerx.where(chainerx.array(cond), chainerx.array(x), 0.0)),
        numpy.where(cond, x, 0.0))
    check_grad(lambda v: chainerx.where(chainerx.array(cond), v, v * 3), x)
    numpy.testing.assert_array_equal(_np(chainerx.clip(chainerx.array(x), -0.5, 0.5)),
                                     numpy.clip(x, -0.5, 0.5))


def test_creation():
    assert chainerx.zeros((2, 3)).dtype == chainerx.float32
    assert chainerx.full((2,), 1).dtype == chainerx.int32
    assert chainerx.full((2,), 1.5).dtype == chainerx.float32
    assert chainerx.arange(3).dtype == chainerx.int32
    numpy.testing.assert_array_equal(_np(chainerx.arange(1, 2, 0.25)), [1, 1.25, 1.5, 1.75])
    numpy.testing.assert_allclose(_np(chainerx.linspace(0, 1, 5)), numpy.linspace(0, 1, 5))
    numpy.testing.assert_array_equal(_np(chainerx.eye(3, 4, 1, 'int8')),
                                     numpy.eye(3, 4, 1, dtype='int8'))
    numpy.testing.assert_array_equal(_np(chainerx.identity(2)), numpy.identity(2))
    numpy.testing.assert_array_equal(_np(chainerx.tri(3)), numpy.tri(3))
    a = chainerx.array([[1, 2], [3, 4]], 'float64')
    numpy.testing.assert_array_equal(_np(chainerx.ones_like(a)), numpy.ones((2, 2)))
    numpy.testing.assert_array_equal(_np(chainerx.full_like(a, 7)), numpy.full((2, 2), 7.0))
    buf = numpy.arange(4, dtype='int16').tobytes()
    numpy.testing.assert_array_equal(_np(chainerx.frombuffer(buf, 'int16')), numpy.arange(4))
    with pytest.raises(chainerx.DtypeError):
        chainerx.zeros((2,), 'complex64')


def test_copy_is_contiguous_and_differentiable():
    x = _u(3, 4)
    c = chainerx.array(x).T.copy()
    assert c.is_contiguous
    check_grad(lambda v: v.T.copy(), x)


@pytest.mark.parametrize('shapes,n_batch_axes', [
    (((4, 3), (5, 3)), 1), (((2, 2, 3), (5, 3)), 2), (((2, 3, 2), (5, 6)), 1)])
def test_linear(shapes, n_batch_axes):
    x, w, b = _u(*shapes[0]), _u(*shapes[1]), _u(shapes[1][0])
    rows = int(numpy.prod(x.shape[:n_batch_axes]))
    expected = (x.reshape(rows, -1) @ w.T + b).reshape(x.shape[:n_batch_axes] + (-1,))
    out = chainerx.linear(chainerx.array(x), chainerx.array(w), chainerx.array(b),
                          n_batch_axes)
    numpy.testing.assert_allclose(_np(out), expected, rtol=1e-12)
    check_grad(lambda *a: chainerx.linear(*a, n_batch_axes=n_batch_axes), x, w, b)


def test_batch_norm_values_grads_and_running_stats():
    x, gamma, beta = _u(5, 3, 2), _u(3, low=0.5, high=1.5), _u(3)
    mean = x.mean(axis=(0, 2), keepdims=True)
    var = x.var(axis=(0, 2), keepdims=True)
    expected = (x - mean) / numpy.sqrt(var + 2e-5) * gamma[:, None] + beta[:, None]
    rm, rv = chainerx.zeros((3,), 'float64'), chainerx.ones((3,), 'float64')
    out = chainerx.batch_norm(chainerx.array(x), chainerx.array(gamma), chainerx.array(beta),
                              rm, rv, decay=0.5, axis=(0, 2))
    numpy.testing.assert_allclose(_np(out), expected, rtol=1e-10)
    numpy.testing.assert_allclose(_np(rm), 0.5 * mean.ravel(), rtol=1e-12)
    numpy.testing.assert_allclose(_np(rv), 0.5 + 0.5 * var.ravel() * 10 / 9, rtol=1e-12)
    check_grad(lambda *a: chainerx.batch_norm(*a, axis=(0, 2)), x, gamma, beta, atol=1e-3)


def test_batch_norm_default_axis_and_parameter_shapes():
    x, gamma, beta = _u(4, 3, 2), _u(3, 2, low=0.5, high=1.5), _u(3, 2)
    expected = (x - x.mean(0)) / numpy.sqrt(x.var(0) + 2e-5) * gamma + beta
    out = chainerx.batch_norm(chainerx.array(x, 'float32'), chainerx.array(gamma),
                              chainerx.array(beta))
    assert out.dtype == chainerx.float32  # x's dtype, whatever the parameters'
    numpy.testing.assert_allclose(_np(out), expected, rtol=1e-4, atol=1e-5)
    with pytest.raises(chainerx.DimensionError):  # (3,) fits axis (0, 2), not the default
        chainerx.batch_norm(chainerx.array(x), chainerx.array(gamma[:, 0]),
                            chainerx.array(beta[:, 0]))
    with pytest.raises(chainerx.DimensionError):
        chainerx.fixed_batch_norm(*[chainerx.array(a) for a in (x, gamma, beta, gamma)],
                                  chainerx.ones((3,)))


def test_fixed_batch_norm():
    x, gamma, beta, mean, var = _u(4, 3), _u(3), _u(3), _u(3), _u(3, low=0.5, high=1)
    expected = (x - mean) / numpy.sqrt(var + 2e-5) * gamma + beta
    args = [chainerx.array(a) for a in (x, gamma, beta, mean, var)]
    numpy.testing.assert_allclose(_np(chainerx.fixed_batch_norm(*args)), expected, rtol=1e-12)
    check_grad(chainerx.fixed_batch_norm, x, gamma, beta, mean, var)


def test_cross_entropy_losses():
    x = _u(4, 3)
    t = numpy.array([0, 2, -1, 1])
    log_p = x - numpy.log(numpy.exp(x).sum(axis=1, keepdims=True))
    expected = numpy.where(t == -1, 0, -log_p[numpy.arange(4), t])
    ct = chainerx.array(t)
    numpy.testing.assert_allclose(
        _np(chainerx.softmax_cross_entropy(chainerx.array(x), ct)), expected, rtol=1e-12)
    check_grad(lambda v: chainerx.softmax_cross_entropy(v, ct), x)
    labels = numpy.array([[0, 1, -1], [1, 0, 1], [1, 1, 0], [0, 0, 1]])
    p = 1 / (1 + numpy.exp(-x))
    ref = numpy.where(labels == -1, 0, -(labels * numpy.log(p) + (1 - labels) * numpy.log(1 - p)))
    cl = chainerx.array(labels)
    numpy.testing.assert_allclose(
        _np(chainerx.sigmoid_cross_entropy(chainerx.array(x), cl)), ref, rtol=1e-10)
    check_grad(lambda v: chainerx.sigmoid_cross_entropy(v, cl), x)


def test_second_order_gradient_of_tanh():
    x = chainerx.array(_u(3)).require_grad()
    y = chainerx.tanh(x).sum()
    (gx,) = chainerx.grad([y], [x], enable_double_backprop=True)
    (ggx,) = chainerx.grad([gx.sum()], [x])
    t = numpy.tanh(_np(x))
    numpy.testing.assert_allclose(_np(ggx), -2 * t * (1 - t ** 2), rtol=1e-12)


def test_shifts_keep_the_shifted_operand_dtype():
    a = chainerx.array([1, -2, 3], 'int8')
    b = chainerx.array([1, 2, 0], 'int32')
    assert (a << b).dtype == chainerx.int8
    numpy.testing.assert_array_equal(_np(a << b), numpy.left_shift(_np(a), _np(b)))
    assert chainerx.left_shift(3, a).dtype == chainerx.int64
    c = a.copy()
    c >>= 1
    numpy.testing.assert_array_equal(_np(c), numpy.right_shift(_np(a), 1))
    with pytest.raises(chainerx.DtypeError):
        chainerx.left_shift(chainerx.array([True]), a[:1])
    with pytest.raises(chainerx.DtypeError):
        chainerx.array([1.0]) >> 1


def test_power_with_a_scalar_on_either_side():
    x = _u(2, 3, low=0.5, high=2)
    numpy.testing.assert_allclose(_np(2.5 ** chainerx.array(x)), 2.5 ** x)
    check_grad(lambda v: 2.5 ** v, x)
    check_grad(lambda v: v ** 1.5, x)
    with pytest.raises(chainerx.DtypeError):
        chainerx.power(chainerx.array(x), True)


def test_in_place_operand_cast_first_and_errors():
    a = chainerx.array([5, 7], 'uint8')
    a %= chainerx.array([-3, 3], 'int8')  # -3 is 253 as uint8, as NumPy casts it
    numpy.testing.assert_array_equal(_np(a), [5 % 253, 7 % 3])
    with pytest.raises(chainerx.DtypeError):
        b = chainerx.array([1, 2], 'int32')
        b += chainerx.array([0.5, 1.5])
    with pytest.raises(chainerx.DimensionError):
        chainerx.array([1.0, 2.0]) < chainerx.array([1.0, 2.0, 3.0])
    with pytest.raises(chainerx.DtypeError):
        chainerx.array([True]) == chainerx.array([1])


def test_split_at_any_indices_and_its_gradient():
    x = _u(7, 2)
    for spec in ([2, 5], [4, 2], [1, -2], 7):
        pieces = chainerx.split(chainerx.array(x), spec)
        for p, e in zip(pieces, numpy.split(x, spec)):
            numpy.testing.assert_array_equal(_np(p), e)
    check_grad(lambda v: chainerx.concatenate(chainerx.split(v, [4, 2]), 0), x)
    with pytest.raises(TypeError):
        chainerx.split(chainerx.array(x), [2.0])
    with pytest.raises(chainerx.DimensionError):
        chainerx.split(chainerx.array(x), 3)


@pytest.mark.parametrize('indexing', ['xy', 'ij'])
def test_meshgrid_values_and_gradient(indexing):
    a, b, c = _u(3), _u(2), _u(4)
    got = chainerx.meshgrid(*[chainerx.array(v) for v in (a, b, c)], indexing=indexing)
    for g, e in zip(got, numpy.meshgrid(a, b, c, indexing=indexing)):
        numpy.testing.assert_array_equal(_np(g), e)
        assert g.is_contiguous
    check_grad(lambda u, v: chainerx.meshgrid(u, v, indexing=indexing)[0] *
               chainerx.meshgrid(u, v, indexing=indexing)[1], a, b)


def test_diagonal_is_a_writable_view():
    a = chainerx.arange(9, dtype='float32').reshape(3, 3)
    d = chainerx.diagonal(a)
    assert d.strides == numpy.diagonal(_np(a)).strides
    d[...] = 0
    numpy.testing.assert_array_equal(_np(a).diagonal(), [0, 0, 0])
    check_grad(lambda v: chainerx.diagonal(v, 1), _u(3, 4))


def test_products_of_bools_and_of_empty_arrays():
    a = numpy.array([[True, False], [False, False]])
    b = numpy.array([[True, True], [False, True]])
    got = chainerx.dot(chainerx.array(a), chainerx.array(b))
    assert got.dtype == chainerx.bool_
    numpy.testing.assert_array_equal(_np(got), numpy.dot(a, b))
    e = chainerx.dot(chainerx.zeros((1, 2, 0)), chainerx.zeros((4, 0, 5)))
    assert e.shape == (1, 2, 4, 5) and not _np(e).any()


def test_creation_follows_numpy_casts():
    numpy.testing.assert_array_equal(_np(chainerx.arange(-2.2, 3.4, dtype='int8')),
                                     numpy.arange(-2.2, 3.4, dtype='int8'))
    numpy.testing.assert_array_equal(_np(chainerx.linspace(-13.3, 1, 4, dtype='int16')),
                                     numpy.linspace(-13.3, 1, 4, dtype='int16'))
    with numpy.errstate(invalid='ignore'):
        expected = numpy.full((2,), numpy.nan, 'int32')
    numpy.testing.assert_array_equal(_np(chainerx.full((2,), float('nan'), 'int32')), expected)
    assert chainerx.ascontiguousarray(chainerx.array(3.0)).shape == (1,)
    with pytest.raises(chainerx.ChainerxError):
        chainerx.arange(1, 3, 0)
    with pytest.raises(chainerx.DtypeError):
        chainerx.arange(3, dtype='bool_')


def test_random_draws_from_numpys_generator():
    numpy.random.seed(3)
    a = chainerx.random.uniform(-1, 1, (2, 3))
    numpy.random.seed(3)
    numpy.testing.assert_array_equal(_np(a), numpy.random.uniform(-1, 1, (2, 3)))
    assert chainerx.random.normal(size=(4,), dtype='float32').dtype == chainerx.float32


def test_concatenate_of_mixed_dtypes_gives_each_input_its_dtype_of_gradient():
    a = chainerx.array(_u(2), 'float16').require_grad()
    b = chainerx.array(_u(3), 'float32').require_grad()
    y = chainerx.concatenate([a, b])
    assert y.dtype == chainerx.float32
    y.sum().backward()
    assert a.grad.dtype == chainerx.float16 and b.grad.dtype == chainerx.float32


def test_linear_of_bools():
    x = numpy.array([[True, False], [False, False]])
    w = numpy.array([[False, True], [True, False], [False, False]])
    b = numpy.array([False, False, True])
    got = chainerx.linear(chainerx.array(x), chainerx.array(w), chainerx.array(b))
    assert got.dtype == chainerx.bool_
    numpy.testing.assert_array_equal(_np(got), (x.astype(int) @ w.T.astype(int) + b) != 0)


def test_array_assertions_broadcast_a_0d_array_as_numpy():
    chainerx.testing.assert_array_equal_ex(numpy.array(2.0), chainerx.array([2.0], 'float64'),
                                           strides_check=False)
    with pytest.raises(AssertionError):
        chainerx.testing.assert_array_equal_ex(
            numpy.zeros((2,)), chainerx.zeros((2, 1), 'float64'), strides_check=False)


def test_shape_views_have_numpys_strides():
    base = _u(2, 1, 6)[:, :, ::2]  # non-contiguous
    x = chainerx.array(base)
    xs = chainerx.asarray(base)
    for f, g in ((lambda a: chainerx.squeeze(a, 1), lambda a: numpy.squeeze(a, 1)),
                 (lambda a: chainerx.expand_dims(a, 0), lambda a: numpy.expand_dims(a, 0)),
                 (chainerx.atleast_3d, numpy.atleast_3d)):
        assert f(xs).strides == g(base).strides
    v = chainerx.asarray(_u(4))
    assert chainerx.atleast_2d(v).strides == numpy.atleast_2d(_np(v)).strides
    check_grad(lambda a: chainerx.squeeze(a, 1) * 2, _np(x))


def test_take_along_a_later_axis_is_c_contiguous():
    a = chainerx.array(_u(4, 2))
    out = chainerx.take(a, [1, 0, 1], 1)
    assert out.is_contiguous
    numpy.testing.assert_array_equal(_np(out), numpy.take(_np(a), [1, 0, 1], 1))


def test_dot_of_empty_results_and_mixed_linear():
    a, b = chainerx.zeros((1, 2, 0)).require_grad(), chainerx.zeros((4, 0, 5))
    y = chainerx.dot(a, b)
    assert y.strides == numpy.dot(numpy.zeros((1, 2, 0), 'f'), numpy.zeros((4, 0, 5), 'f')).strides
    y.sum().backward()
    assert a.grad.shape == a.shape
    with pytest.raises(chainerx.DimensionError):
        chainerx.dot(chainerx.zeros((3, 2)), chainerx.zeros((1, 3)))
    x = chainerx.array([[True, False, True]])
    w = chainerx.array([[1, 2, 3]], 'uint8')
    out = chainerx.linear(x, w, chainerx.array([True]))
    assert out.dtype == chainerx.uint8 and int(out.item()) == 1 + 3 + 1
