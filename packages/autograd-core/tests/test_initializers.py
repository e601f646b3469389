import numpy
import pytest

import chainer
from chainer import initializers as I
from chainer.initializer import get_fans

SHAPE = (200, 50, 2, 2)  # fan_in 200, fan_out 800


def _std(init, shape=SHAPE):
    a = numpy.empty(shape, numpy.float64)
    init(a)
    return a


def test_get_fans():
    assert get_fans((3, 4)) == (4, 3)
    assert get_fans(SHAPE) == (200, 800)
    with pytest.raises(ValueError):
        get_fans((3,))


@pytest.mark.parametrize('init,std', [
    (I.Normal(0.3), 0.3),
    (I.LeCunNormal(), numpy.sqrt(1 / 200)),
    (I.GlorotNormal(), numpy.sqrt(2 / 1000)),
    (I.HeNormal(), numpy.sqrt(2 / 200)),
    (I.HeNormal(fan_option='fan_out'), numpy.sqrt(2 / 800)),
    (I.LeCunNormal(scale=2.0), 2 * numpy.sqrt(1 / 200)),
])
def test_normal_family_std(init, std):
    a = _std(init)
    assert abs(a.mean()) < 0.05 * std + 1e-3
    assert a.std() == pytest.approx(std, rel=0.03)


@pytest.mark.parametrize('init,bound', [
    (I.Uniform(0.2), 0.2),
    (I.LeCunUniform(), numpy.sqrt(3 / 200)),
    (I.GlorotUniform(), numpy.sqrt(6 / 1000)),
    (I.HeUniform(), numpy.sqrt(6 / 200)),
])
def test_uniform_family_bounds(init, bound):
    a = _std(init)
    assert a.max() <= bound and a.min() >= -bound
    assert a.max() > 0.95 * bound and a.min() < -0.95 * bound


def test_constants_and_identity():
    a = numpy.empty((2, 3), numpy.float32)
    I.Constant(2.5)(a)
    numpy.testing.assert_array_equal(a, 2.5)
    I.Constant(numpy.array([1.0, 2.0, 3.0]))(a)
    numpy.testing.assert_array_equal(a, [[1, 2, 3], [1, 2, 3]])
    I.Zero()(a)
    assert (a == 0).all()
    I.One()(a)
    assert (a == 1).all()
    I.NaN()(a)
    assert numpy.isnan(a).all()
    s = numpy.empty((3, 3), numpy.float32)
    I.Identity(scale=2)(s)
    numpy.testing.assert_array_equal(s, 2 * numpy.eye(3))
    with pytest.raises(ValueError):
        I.Identity()(a)


@pytest.mark.parametrize('shape', [(3, 5), (5, 3), (4, 2, 3)])
def test_orthogonal(shape):
    a = numpy.empty(shape, numpy.float64)
    I.Orthogonal(scale=1.0)(a)
    m = a.reshape(shape[0], -1)
    gram = m @ m.T if m.shape[0] <= m.shape[1] else m.T @ m
    numpy.testing.assert_allclose(gram, numpy.eye(gram.shape[0]), atol=1e-10)
    with pytest.raises(ValueError):
        I.Orthogonal(mode='projection')(numpy.empty((5, 3)))


@pytest.mark.parametrize('shape, rows, cols', [((), 1, 1), ((1,), 1, 1), ((4,), 4, 1),
                                               ((3, 3), 3, 3), ((2, 2, 2), 2, 4)])
def test_orthogonal_low_ranks_and_basis(shape, rows, cols):
    # A 0-d array is a 1 x 1 matrix and a 1-d one a column.
    a = numpy.empty(shape)
    I.Orthogonal(scale=2.0)(a)
    m = a.reshape(rows, cols)
    gram = m @ m.T if rows <= cols else m.T @ m
    numpy.testing.assert_allclose(gram, 4 * numpy.eye(min(rows, cols)), atol=1e-10)
    if rows == cols:
        I.Orthogonal(mode='basis')(a)
    else:
        with pytest.raises(ValueError, match='basis mode needs a square matrix'):
            I.Orthogonal(mode='basis')(a)


def test_orthogonal_signs_are_random_in_one_dimension():
    signs = set()
    for _ in range(40):
        a = numpy.empty(())
        I.Orthogonal(scale=1.5)(a)
        assert abs(a) == pytest.approx(1.5)
        signs.add(bool(a > 0))
    assert signs == {True, False}


def test_orthogonal_rejects_empty_arrays_and_unknown_modes():
    with pytest.raises(ValueError, match='empty'):
        I.Orthogonal()(numpy.empty(0))
    with pytest.raises(ValueError, match='empty'):
        I.Orthogonal(mode='embedding')(numpy.empty((0, 3)))
    with pytest.raises(ValueError, match="'basis'"):
        I.Orthogonal(mode='square')


def test_orthogonal_rng_keyword():
    a, b = numpy.empty((3, 4)), numpy.empty((3, 4))
    I.Orthogonal(rng=numpy.random.RandomState(5))(a)
    I.Orthogonal(rng=numpy.random.RandomState(5))(b)
    numpy.testing.assert_array_equal(a, b)
    with pytest.raises(TypeError, match='seed'):
        I.Orthogonal(seed=1)


def test_sampling_filters():
    w = numpy.empty((2, 2, 4, 4), numpy.float32)
    I.UpsamplingDeconvFilter()(w)
    assert w[0, 1].sum() == 0 and w[1, 1].max() == pytest.approx(0.5625)
    I.DownsamplingConvFilter('nearest')(w)
    numpy.testing.assert_allclose(w[0, 0], numpy.full((4, 4), 1 / 16))
    with pytest.raises(ValueError):
        I.UpsamplingDeconvFilter('cubic')


@pytest.mark.parametrize('cls, total', [(I.UpsamplingDeconvFilter, 4 * 5),
                                        (I.DownsamplingConvFilter, 1 * 5)])
def test_sampling_filters_depthwise(cls, total):
    # (c, 1, kh, kw): the kernel once per channel (a filter for groups=c).
    w = numpy.empty((5, 1, 3, 3), numpy.float32)
    cls()(w)
    numpy.testing.assert_allclose(w.sum(), total, rtol=1e-6)
    for i in range(1, 5):
        numpy.testing.assert_array_equal(w[i], w[0])
    with pytest.raises(ValueError, match='first two dimensions'):
        cls()(numpy.empty((5, 2, 3, 3), numpy.float32))


def test_dtype_rules_and_generate_array():
    a = I.generate_array(I.Normal(dtype=numpy.float16), (3,), numpy)
    assert a.dtype == numpy.float16
    b = I.generate_array(I.Normal(), (3,), numpy)
    assert b.dtype == numpy.float32
    with chainer.using_config('dtype', numpy.float64):
        assert I.generate_array(I.Zero(), (2,), numpy).dtype == numpy.float64
    with pytest.raises(ValueError, match='conflicts'):
        I.generate_array(I.Zero(numpy.float16), (2,), numpy, dtype=numpy.float32)
    with pytest.raises(ValueError):
        I.Zero(numpy.float16)(numpy.empty(2, numpy.float32))
    assert isinstance(I._get_initializer(None), I.LeCunNormal)
    assert isinstance(I._get_initializer(1.5), I.Constant)
    with pytest.raises(TypeError):
        I._get_initializer('x')


def test_seeded_reproducibility_and_rng():
    numpy.random.seed(3)
    a = I.generate_array(I.HeNormal(), (4, 4), numpy)
    numpy.random.seed(3)
    b = I.generate_array(I.HeNormal(), (4, 4), numpy)
    numpy.testing.assert_array_equal(a, b)
    r1 = I.generate_array(I.Normal(rng=numpy.random.RandomState(1)), (3,), numpy)
    r2 = I.generate_array(I.Normal(rng=numpy.random.RandomState(1)), (3,), numpy)
    numpy.testing.assert_array_equal(r1, r2)
