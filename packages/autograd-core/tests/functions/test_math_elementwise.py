"""Elementwise math functions: forward vs NumPy, gradients, edge shapes, bad input."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

# name -> (function, NumPy reference, input range, twice differentiable)
UNARY = {
    'exp': (F.exp, numpy.exp, (-1, 1)),
    'log': (F.log, numpy.log, (0.5, 2)),
    'log2': (F.log2, numpy.log2, (0.5, 2)),
    'log10': (F.log10, numpy.log10, (0.5, 2)),
    'expm1': (F.expm1, numpy.expm1, (-1, 1)),
    'log1p': (F.log1p, numpy.log1p, (-0.5, 1)),
    'sin': (F.sin, numpy.sin, (-2, 2)),
    'cos': (F.cos, numpy.cos, (-2, 2)),
    'tan': (F.tan, numpy.tan, (-1, 1)),
    'arcsin': (F.arcsin, numpy.arcsin, (-0.7, 0.7)),
    'arccos': (F.arccos, numpy.arccos, (-0.7, 0.7)),
    'arctan': (F.arctan, numpy.arctan, (-2, 2)),
    'sinh': (F.sinh, numpy.sinh, (-1, 1)),
    'cosh': (F.cosh, numpy.cosh, (-1, 1)),
    'arctanh': (F.arctanh, numpy.arctanh, (-0.7, 0.7)),
    'sqrt': (F.sqrt, numpy.sqrt, (0.5, 2)),
    'rsqrt': (F.rsqrt, lambda x: 1 / numpy.sqrt(x), (0.5, 2)),
    'square': (F.square, numpy.square, (-1, 1)),
    'absolute': (F.absolute, numpy.abs, (-1, 1)),
}
NAMES = sorted(UNARY)


def _input(fc, name, shape, dtype):
    fn, ref, (lo, hi) = UNARY[name]
    x = fc.uniform(shape, dtype, lo, hi)
    if name == 'absolute':
        x = fc.away_from(x, 0.0)
    return x


@pytest.mark.parametrize('name', NAMES)
def test_unary_forward(fc, dtype, name):
    fn, ref, _ = UNARY[name]
    x = _input(fc, name, (3, 4), dtype)
    fc.check_forward(fn, (x,), ref(x.astype(numpy.float64)).astype(dtype), dtype)


@pytest.mark.parametrize('name', NAMES)
@pytest.mark.parametrize('dt', [numpy.float32, numpy.float64])
def test_unary_backward(fc, name, dt):
    fn = UNARY[name][0]
    x = _input(fc, name, (2, 3), dt)
    fc.check_backward(fn, (x,), dt)


@pytest.mark.parametrize('name', NAMES)
def test_unary_double_backward(fc, name):
    fn = UNARY[name][0]
    x = _input(fc, name, (2, 3), numpy.float64)
    fc.check_double_backward(fn, (x,), numpy.float64)


@pytest.mark.parametrize('name', ['exp', 'sin', 'sqrt', 'square'])
def test_unary_backward_float16(fc, name):
    fn = UNARY[name][0]
    fc.check_backward(fn, (_input(fc, name, (2, 3), numpy.float16),), numpy.float16)


@pytest.mark.parametrize('name', NAMES)
def test_unary_edge_shapes(fc, name):
    fn, ref, _ = UNARY[name]
    x = fc.noncontiguous(_input(fc, name, (3, 4), numpy.float32))
    fc.check_forward(fn, (x,), ref(x).astype(numpy.float32))
    s = _input(fc, name, (), numpy.float32)
    y = fc.check_forward(fn, (s,), ref(s).astype(numpy.float32))[0]
    assert isinstance(y.array, numpy.ndarray) and y.shape == ()
    e = numpy.zeros((0, 3), numpy.float32)
    assert fn(e).shape == (0, 3)


@pytest.mark.parametrize('name', NAMES)
def test_unary_rejects_int(name):
    with pytest.raises(InvalidType):
        UNARY[name][0](numpy.arange(3, dtype=numpy.int32))


def test_log_variants_stable_near_zero():
    x = numpy.array([1e-10, -1e-10], numpy.float64)
    numpy.testing.assert_allclose(F.expm1(x).array, x, rtol=1e-9)
    numpy.testing.assert_allclose(F.log1p(x).array, x, rtol=1e-9)


# -- non-differentiable rounding and sign ---------------------------------------

@pytest.mark.parametrize('fn,ref', [
    (F.floor, numpy.floor), (F.ceil, numpy.ceil), (F.fix, numpy.fix), (F.sign, numpy.sign),
])
def test_rounding(fc, dtype, fn, ref):
    x = fc.uniform((3, 4), dtype, -3, 3)
    x.flat[0] = 0
    v = chainer.Variable(x)
    y = fn(v)
    assert y.dtype == dtype
    assert y.requires_grad is False and y.creator is None
    numpy.testing.assert_array_equal(y.array, ref(x))
    assert fn(fc.noncontiguous(x)).shape == (3, 4)
    assert fn(numpy.zeros((0,), dtype)).shape == (0,)
    assert fn(numpy.asarray(dtype(-1.5))).shape == ()
    # the result is a constant in a graph: no gradient flows through it
    z = F.sum(fn(v) * v)
    z.backward()
    numpy.testing.assert_array_equal(v.grad, ref(x))
    # integers are accepted as in Chainer v7 (which applied xp.<name> unchecked)
    ints = numpy.array([-3, 0, 4], numpy.int32)
    y = fn(ints)
    assert y.dtype == numpy.int32
    numpy.testing.assert_array_equal(y.array, ref(ints).astype(numpy.int32))
    with pytest.raises(InvalidType):
        fn(numpy.array([True, False]))


# -- binary elementwise ------------------------------------------------------------

BINARY = {
    'arctan2': (F.arctan2, numpy.arctan2),
    'maximum': (F.maximum, numpy.maximum),
    'minimum': (F.minimum, numpy.minimum),
    'squared_difference': (F.squared_difference, lambda a, b: (a - b) ** 2),
    'fmod': (F.fmod, numpy.fmod),
}


def _binary_inputs(fc, name, shape_a, shape_b, dtype):
    a = fc.uniform(shape_a, dtype, -2, 2)
    b = fc.uniform(shape_b, dtype, -2, 2)
    if name in ('maximum', 'minimum'):
        # values on two interleaved grids: never closer than 0.3 (no ties, no kink)
        a = (fc.rng.randint(-2, 2, shape_a) + 0.5 + fc.uniform(shape_a, dtype, -0.1, 0.1))
        b = (fc.rng.randint(-1, 2, shape_b) + fc.uniform(shape_b, dtype, -0.1, 0.1))
        a, b = a.astype(dtype), b.astype(dtype)
    if name == 'fmod':
        a = fc.uniform(shape_a, dtype, 0.1, 0.9) + 1.5 * numpy.sign(fc.uniform(shape_a, dtype))
        a = a.astype(dtype)
        b = fc.uniform(shape_b, dtype, 0.9, 1.1)
    return a, b


@pytest.mark.parametrize('name', sorted(BINARY))
@pytest.mark.parametrize('shapes', [((3, 4), (3, 4)), ((3, 4), (4,)), ((1, 4), (3, 1))],
                         ids=['same', 'bcast-rhs', 'bcast-both'])
def test_binary_forward(fc, dtype, name, shapes):
    fn, ref = BINARY[name]
    a, b = _binary_inputs(fc, name, *shapes, dtype)
    expected = ref(a.astype(numpy.float64), b.astype(numpy.float64)).astype(dtype)
    fc.check_forward(fn, (a, b), expected, dtype)


@pytest.mark.parametrize('name', sorted(BINARY))
@pytest.mark.parametrize('shapes', [((3, 4), (3, 4)), ((3, 4), (4,))], ids=['same', 'bcast'])
def test_binary_gradients(fc, name, shapes):
    fn = BINARY[name][0]
    a, b = _binary_inputs(fc, name, *shapes, numpy.float64)
    fc.check_backward(fn, (a, b), numpy.float64)
    fc.check_double_backward(fn, (a, b), numpy.float64)
    a32, b32 = _binary_inputs(fc, name, *shapes, numpy.float32)
    fc.check_backward(fn, (a32, b32), numpy.float32)


@pytest.mark.parametrize('name', sorted(BINARY))
def test_binary_edge_and_errors(fc, name):
    fn, ref = BINARY[name]
    a, b = _binary_inputs(fc, name, (3, 4), (3, 4), numpy.float32)
    fc.check_forward(fn, (fc.noncontiguous(a), b), ref(a, b))
    e = numpy.zeros((0, 4), numpy.float32)
    assert fn(e, e).shape == (0, 4)
    s = numpy.asarray(numpy.float32(1.5))
    assert isinstance(fn(s, s).array, numpy.ndarray)
    with pytest.raises(InvalidType):
        fn(a, b.astype(numpy.float64))
    with pytest.raises(InvalidType):
        fn(a, numpy.zeros((2, 4), numpy.float32))
    with pytest.raises(InvalidType):
        fn(a.astype(numpy.int32), b.astype(numpy.int32))


def test_maximum_minimum_ties_go_to_first():
    a = chainer.Variable(numpy.array([1.0, 2.0, 3.0], numpy.float32))
    b = chainer.Variable(numpy.array([1.0, 1.0, 4.0], numpy.float32))
    F.sum(F.maximum(a, b)).backward()
    numpy.testing.assert_array_equal(a.grad, [1, 1, 0])
    numpy.testing.assert_array_equal(b.grad, [0, 0, 1])
    a.cleargrad()
    b.cleargrad()
    F.sum(F.minimum(a, b)).backward()
    numpy.testing.assert_array_equal(a.grad, [1, 0, 1])
    numpy.testing.assert_array_equal(b.grad, [0, 1, 0])


# -- clip ----------------------------------------------------------------------------

@pytest.mark.parametrize('bounds', [(-0.5, 0.5), (None, 0.3), (-0.3, None)])
def test_clip(fc, dtype, bounds):
    lo, hi = bounds
    x = fc.uniform((3, 4), dtype)
    for edge in (lo, hi):
        if edge is not None:
            x = fc.away_from(x, edge, 0.05)
    expected = numpy.clip(x, -numpy.inf if lo is None else lo,
                          numpy.inf if hi is None else hi).astype(dtype)
    fc.check_forward(lambda x: F.clip(x, lo, hi), (x,), expected, dtype)
    if dtype != numpy.float16:
        fc.check_backward(lambda x: F.clip(x, lo, hi), (x,), dtype)
        fc.check_double_backward(lambda x: F.clip(x, lo, hi), (x,), dtype)


def test_clip_edges_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    fc.check_forward(lambda x: F.clip(x, -0.5, 0.5), (fc.noncontiguous(x),),
                     numpy.clip(x, -0.5, 0.5))
    assert F.clip(numpy.zeros((0, 2), numpy.float32), 0, 1).shape == (0, 2)
    assert F.clip(numpy.asarray(numpy.float32(3)), 0, 1).array == 1
    lo = numpy.full((4,), -0.2, numpy.float32)
    fc.check_forward(lambda x: F.clip(x, lo, 0.2), (x,), numpy.clip(x, lo, 0.2))
    # gradient passes at the bounds themselves
    v = chainer.Variable(numpy.array([-1.0, 0.0, 1.0, 2.0], numpy.float32))
    F.sum(F.clip(v, 0.0, 1.0)).backward()
    numpy.testing.assert_array_equal(v.grad, [0, 1, 1, 0])
    with pytest.raises(ValueError):
        F.clip(x, None, None)
    with pytest.raises(ValueError):
        F.clip(x, 1.0, -1.0)
    with pytest.raises(InvalidType):
        F.clip(numpy.arange(3), 0, 1)
    with pytest.raises(ValueError):
        F.clip(x, numpy.zeros((3, 4, 2), numpy.float32), 1.0)


# -- linear_interpolate and identity ----------------------------------------------------

def test_linear_interpolate(fc, dtype):
    p, x, y = (fc.uniform((3, 4), dtype, 0, 1), fc.uniform((3, 4), dtype),
               fc.uniform((3, 4), dtype))
    pd, xd, yd = (a.astype(numpy.float64) for a in (p, x, y))
    fc.check_forward(F.linear_interpolate, (p, x, y), (pd * xd + (1 - pd) * yd).astype(dtype),
                     dtype)
    if dtype != numpy.float16:
        fc.check_backward(F.linear_interpolate, (p, x, y), dtype)
        fc.check_double_backward(F.linear_interpolate, (p, x, y), dtype)


def test_linear_interpolate_edges_and_errors(fc):
    p = fc.uniform((3,), numpy.float32, 0, 1)
    assert F.linear_interpolate(p[:0], p[:0], p[:0]).shape == (0,)
    s = numpy.asarray(numpy.float32(0.25))
    four = numpy.asarray(numpy.float32(4))
    zero = numpy.asarray(numpy.float32(0))
    assert float(F.linear_interpolate(s, four, zero).array) == 1.0
    with pytest.raises(InvalidType):
        F.linear_interpolate(p, p, numpy.zeros(4, numpy.float32))
    with pytest.raises(InvalidType):
        F.linear_interpolate(p, p, p.astype(numpy.float64))


def test_identity(fc, dtype):
    x = fc.uniform((3, 2), dtype)
    y = F.identity(x)
    assert isinstance(y, chainer.Variable)
    numpy.testing.assert_array_equal(y.array, x)
    a, b = F.identity(x, x * 2)
    numpy.testing.assert_array_equal(b.array, x * 2)
    f = lambda x, z: F.identity(x, z)  # noqa: E731
    if dtype == numpy.float64:
        fc.check_backward(f, (x, x.copy()), dtype)
        fc.check_double_backward(f, (x, x.copy()), dtype)
    assert F.identity(numpy.zeros((0,), dtype)).shape == (0,)
