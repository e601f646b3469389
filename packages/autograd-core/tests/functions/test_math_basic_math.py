"""The Variable operators (+ - * / ** @ //, reflected and unary, abs) and F.add/F.absolute."""

import operator

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

BINARY_OPS = {
    'add': operator.add, 'sub': operator.sub, 'mul': operator.mul,
    'truediv': operator.truediv, 'pow': operator.pow,
}
SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((3, 4), ()), ((), (2,))]
SHAPE_IDS = ['same', 'rhs-row', 'outer', 'rhs-0dim', 'lhs-0dim']


def _operands(fc, name, sa, sb, dtype):
    lo = 0.5 if name in ('pow', 'truediv') else -1
    return fc.uniform(sa, dtype, lo, 1.5), fc.uniform(sb, dtype, 0.5, 1.5)


@pytest.mark.parametrize('name', sorted(BINARY_OPS))
@pytest.mark.parametrize('shapes', SHAPES, ids=SHAPE_IDS)
def test_variable_variable(fc, dtype, name, shapes):
    op = BINARY_OPS[name]
    a, b = _operands(fc, name, *shapes, dtype)
    expected = op(a.astype(numpy.float64), b.astype(numpy.float64)).astype(dtype)
    fc.check_forward(op, (a, b), numpy.asarray(expected), dtype)
    if dtype == numpy.float64:
        fc.check_backward(op, (a, b), dtype)
        fc.check_double_backward(op, (a, b), dtype)


@pytest.mark.parametrize('name', sorted(BINARY_OPS))
@pytest.mark.parametrize('const', [2, 0.5, numpy.float32(1.5), numpy.float64(2.0)],
                         ids=['int', 'float', 'np32', 'np64'])
def test_variable_and_scalar(fc, dtype, name, const):
    op = BINARY_OPS[name]
    x = fc.uniform((2, 3), dtype, 0.5, 1.5)
    c = float(const)
    for f, ref in ((lambda x: op(x, const), lambda x: op(x, c)),
                   (lambda x: op(const, x), lambda x: op(c, x))):
        y = fc.check_forward(f, (x,), ref(x.astype(numpy.float64)).astype(dtype), dtype)[0]
        assert y.dtype == dtype
        if dtype == numpy.float64:
            fc.check_backward(f, (x,), dtype)
            fc.check_double_backward(f, (x,), dtype)


@pytest.mark.parametrize('name', sorted(BINARY_OPS))
def test_variable_and_array_constant(fc, name):
    op = BINARY_OPS[name]
    x = fc.uniform((3, 4), numpy.float64, 0.5, 1.5)
    c = fc.uniform((4,), numpy.float64, 0.5, 1.5)
    for f, ref in ((lambda x: op(x, c), lambda x: op(x, c)),
                   (lambda x: op(c, x), lambda x: op(c, x))):
        y = fc.check_forward(f, (x,), ref(x), numpy.float64)[0]
        assert isinstance(y, chainer.Variable)
        fc.check_backward(f, (x,), numpy.float64)
        fc.check_double_backward(f, (x,), numpy.float64)
    # a 0-dim array acts like a scalar
    z = numpy.asarray(2.0)
    numpy.testing.assert_allclose(op(chainer.Variable(x), z).array, op(x, 2.0))
    numpy.testing.assert_allclose(op(z, chainer.Variable(x)).array, op(2.0, x))


def test_unary(fc, dtype):
    x = fc.away_from(fc.uniform((3, 4), dtype))
    fc.check_forward(operator.neg, (x,), -x, dtype)
    fc.check_forward(operator.pos, (x,), x, dtype)
    fc.check_forward(abs, (x,), numpy.abs(x), dtype)
    fc.check_forward(F.absolute, (x,), numpy.abs(x), dtype)
    if dtype == numpy.float64:
        for f in (operator.neg, abs, F.absolute):
            fc.check_backward(f, (x,), dtype)
            fc.check_double_backward(f, (x,), dtype)


def test_unary_edges(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(operator.neg, (fc.noncontiguous(x),), -x)
    fc.check_forward(abs, (fc.noncontiguous(x),), numpy.abs(x))
    s = chainer.Variable(numpy.asarray(numpy.float32(-2)))
    assert isinstance((-s).array, numpy.ndarray) and (-s).array == 2
    assert isinstance(abs(s).array, numpy.ndarray) and abs(s).array == 2
    assert (-chainer.Variable(numpy.zeros((0, 2), numpy.float32))).shape == (0, 2)
    v = chainer.Variable(numpy.array([-1.0, 0.0, 2.0], numpy.float32))
    F.sum(abs(v)).backward()
    numpy.testing.assert_array_equal(v.grad, [-1, 0, 1])
    with pytest.raises(InvalidType):
        F.absolute(numpy.arange(3))


@pytest.mark.parametrize('sa,sb', [((2, 3), (3, 4)), ((3,), (3, 2)), ((2, 2, 3), (3,))])
def test_matmul_operator(fc, dtype, sa, sb):
    a, b = fc.uniform(sa, dtype), fc.uniform(sb, dtype)
    expected = (a.astype(numpy.float64) @ b.astype(numpy.float64)).astype(dtype)
    fc.check_forward(operator.matmul, (a, b), expected, dtype)
    # with an array on either side
    y = chainer.Variable(a) @ b
    numpy.testing.assert_allclose(y.array, expected, **_tol(dtype))
    y = a @ chainer.Variable(b)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_allclose(y.array, expected, **_tol(dtype))
    if dtype == numpy.float64:
        fc.check_backward(operator.matmul, (a, b), dtype)
        fc.check_double_backward(operator.matmul, (a, b), dtype)


def _tol(dtype):
    return {'rtol': 1e-2, 'atol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5}


def test_reflected_with_numpy_operands(fc):
    x = fc.uniform((2, 3), numpy.float32, 0.5, 1.5)
    v = chainer.Variable(x)
    c = numpy.full((2, 3), 2.0, numpy.float32)
    for y, ref in ((c + v, c + x), (c - v, c - x), (c * v, c * x), (c / v, c / x),
                   (c ** v, c ** x), (numpy.float32(2) - v, 2 - x),
                   (numpy.float64(2) / v, 2 / x)):
        assert isinstance(y, chainer.Variable)
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, ref, rtol=1e-6)


def test_floordiv(fc):
    x = fc.uniform((2, 3), numpy.float32, -3, 3)
    v = chainer.Variable(x)
    y = v // 0.7
    numpy.testing.assert_array_equal(y.array, numpy.floor(x / numpy.float32(0.7)))
    assert y.requires_grad is False
    numpy.testing.assert_array_equal((2.5 // v).array, numpy.floor(numpy.float32(2.5) / x))


def test_chained_expression_gradients(fc):
    a = fc.uniform((2, 3), numpy.float64, 0.5, 1.5)
    b = fc.uniform((3,), numpy.float64, 0.5, 1.5)

    def f(a, b):
        return (2 - a * b) ** 2 / (a + 1) - F.reshape(a @ -b, (2, 1)) + abs(a - 3) ** 0.5

    ref = (2 - a * b) ** 2 / (a + 1) - (a @ -b)[:, None] + numpy.abs(a - 3) ** 0.5
    fc.check_forward(f, (a, b), ref, numpy.float64)
    fc.check_backward(f, (a, b), numpy.float64)
    fc.check_double_backward(f, (a, b), numpy.float64)


def test_pow_special_exponents(fc):
    x = fc.uniform((2, 3), numpy.float64, -1, 1)
    x[0, 0] = 0.0
    for p in (0, 1, 2, 3):
        v = chainer.Variable(x)
        F.sum(v ** p).backward()
        expected = p * x ** (p - 1) if p else numpy.zeros_like(x)
        if p == 1:
            expected = numpy.ones_like(x)
        numpy.testing.assert_allclose(v.grad, expected)
        assert numpy.isfinite(v.grad).all()


def test_add_many(fc, dtype):
    xs = [fc.uniform((3, 4), dtype), fc.uniform((4,), dtype), fc.uniform((3, 1), dtype)]
    expected = (xs[0].astype(numpy.float64) + xs[1] + xs[2]).astype(dtype)
    fc.check_forward(F.add, xs, expected, dtype)
    if dtype == numpy.float64:
        fc.check_backward(F.add, xs, dtype)
        fc.check_double_backward(F.add, xs, dtype)
    xv = chainer.Variable(xs[0])
    single = F.add(xv)
    assert single is not xv and single.creator is not None
    numpy.testing.assert_array_equal(single.array, xs[0])
    single.grad = numpy.ones_like(xs[0])
    single.backward()
    numpy.testing.assert_array_equal(xv.grad, numpy.ones_like(xs[0]))
    with pytest.raises(ValueError):
        F.add()


def test_empty_and_noncontiguous(fc):
    e = chainer.Variable(numpy.zeros((0, 3), numpy.float32))
    for op in BINARY_OPS.values():
        assert op(e, e).shape == (0, 3)
        assert op(e, 2.0).shape == (0, 3)
    x = fc.uniform((3, 4), numpy.float32, 0.5, 1.5)
    n = fc.noncontiguous(x)
    for op in BINARY_OPS.values():
        numpy.testing.assert_allclose(op(chainer.Variable(n), x).array, op(x, x), rtol=1e-6)


@pytest.mark.parametrize('name', sorted(BINARY_OPS))
@pytest.mark.parametrize('cdtype', [numpy.float64, numpy.float16, numpy.int64, numpy.int32,
                                    numpy.bool_])
def test_array_constant_of_another_dtype(fc, name, cdtype):
    # as in v7, an array operand of any numeric dtype is cast to the Variable's dtype
    op = BINARY_OPS[name]
    x = fc.uniform((3, 4), numpy.float32, 0.5, 1.5)
    c = (numpy.arange(4) % 2 + 1).astype(cdtype)
    c32 = c.astype(numpy.float32)
    for y, expected in ((op(chainer.Variable(x), c), op(x, c32)),
                        (op(c, chainer.Variable(x)), op(c32, x))):
        assert y.dtype == numpy.float32
        numpy.testing.assert_allclose(y.array, expected, rtol=1e-6)
    f = lambda x: op(x, c) + op(c, x)  # noqa: E731
    fc.check_backward(f, (x.astype(numpy.float64),), numpy.float64)


def test_errors():
    a = chainer.Variable(numpy.ones((2, 3), numpy.float32))
    with pytest.raises(InvalidType):
        a + chainer.Variable(numpy.ones((2, 3), numpy.float64))
    with pytest.raises(InvalidType):
        a - chainer.Variable(numpy.ones((4,), numpy.float32))
    with pytest.raises(InvalidType):
        a / numpy.ones((3, 3), numpy.float32)
    with pytest.raises(TypeError):
        a + 'x'
    with pytest.raises(TypeError):
        a * [1, 2, 3]
    with pytest.raises(TypeError):
        a ** None
    with pytest.raises(InvalidType):
        a @ chainer.Variable(numpy.ones((2, 3), numpy.float32))


def test_labels():
    a = chainer.Variable(numpy.ones(2, numpy.float32))
    assert (a + a).creator.label == '_ + _'
    assert (a * 2).creator.label == '_ * 2.0'
    assert (-a).creator.label == '__neg__'
    assert (a ** a).creator.label == '_ ** _'
    # constants as v7 writes them: negative ones in parentheses, arrays by name
    assert (a - (-3)).creator.label == '_ + 3.0'
    assert (2 - a).creator.label == '2.0 - _'
    assert (a / -2).creator.label == '_ * (-0.5)'
    assert (a * numpy.array([1., 2.], numpy.float32)).creator.label == '_ * _'
    from chainer.functions.math import basic_math

    assert basic_math.PowVarConst(-2).label == '_ ** (-2)'
    assert basic_math.AddConstant(numpy.array([1, 2])).label == '_ + constant array'
    assert basic_math.MulConstant(chainer.Variable(numpy.ones(2))).label == \
        '_ * constant array'
