"""Tests of the regression and margin losses: absolute_error, squared_error,
mean_absolute_error, huber_loss, hinge, contrastive, triplet."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _pair(fc, shape, dtype, margin=0.1):
    a = fc.uniform(shape, dtype)
    b = fc.uniform(shape, dtype)
    # keep x0 - x1 away from 0 (the kink of |.|)
    d = fc.away_from(numpy.asarray(a.astype('d') - b), 0, margin)
    return numpy.asarray((b.astype('d') + d).astype(dtype)), numpy.asarray(b)


# -- absolute_error / squared_error / mean_absolute_error -------------------------

@pytest.mark.parametrize('shape', [(3, 4), (), (0, 3)])
def test_absolute_error(fc, dtype, shape):
    a, b = _pair(fc, shape, dtype)
    expected = numpy.abs(a.astype('d') - b).astype(dtype)
    fc.check_forward(F.absolute_error, (a, b), expected, dtype)
    if shape == (3, 4):
        fc.check_backward(F.absolute_error, (a, b), dtype)
        fc.check_double_backward(F.absolute_error, (a, b), dtype)


@pytest.mark.parametrize('shape', [(3, 4), (), (0, 3)])
def test_squared_error(fc, dtype, shape):
    a, b = numpy.asarray(fc.uniform(shape, dtype)), numpy.asarray(fc.uniform(shape, dtype))
    expected = ((a.astype('d') - b) ** 2).astype(dtype)
    fc.check_forward(F.squared_error, (a, b), expected, dtype)
    if shape == (3, 4):
        fc.check_backward(F.squared_error, (a, b), dtype)
        fc.check_double_backward(F.squared_error, (a, b), dtype)


def test_mean_absolute_error(fc, dtype):
    a, b = _pair(fc, (3, 4), dtype)
    expected = numpy.asarray(numpy.abs(a.astype('d') - b).mean(), dtype)
    fc.check_forward(F.mean_absolute_error, (a, b), expected, dtype)
    fc.check_backward(F.mean_absolute_error, (a, b), dtype)
    fc.check_double_backward(F.mean_absolute_error, (a, b), dtype)


def test_mean_losses_float16_sum_beyond_range():
    # 70000 elements: the sums exceed float16's range (65504), the means do not
    n = 70000
    h = numpy.float16
    full = lambda v, shape=(n, 1): numpy.full(shape, v, h)  # noqa: E731
    cases = [
        (F.mean_absolute_error(full(2), full(-2)), 4.0),
        (F.mean_squared_error(full(2), full(-2)), 16.0),
        (F.sigmoid_cross_entropy(full(-3), numpy.ones((n, 1), numpy.int32)),
         numpy.logaddexp(0, 3.0)),
        (F.hinge(full(-2, (n, 2)), numpy.zeros(n, numpy.int32)), 3.0),
        (F.contrastive(full(0), full(4), numpy.ones(n, numpy.int32)), 8.0),
        (F.triplet(full(0), full(2), full(0)), 4.2),
        (F.gaussian_kl_divergence(full(3), full(0), reduce='mean'), 4.5),
    ]
    for loss, expected in cases:
        assert loss.dtype == h
        assert float(loss.array) == pytest.approx(expected, rel=2e-3)


def test_mean_errors_edge_shapes(fc):
    a, b = _pair(fc, (2, 3), numpy.float32)
    na, nb = fc.noncontiguous(a), fc.noncontiguous(b)
    for fn, ref in [(F.mean_absolute_error, numpy.abs(a - b).mean()),
                    (F.mean_squared_error, ((a - b) ** 2).mean()),
                    (F.absolute_error, numpy.abs(a - b)),
                    (F.squared_error, (a - b) ** 2)]:
        fc.check_forward(fn, (na, nb), numpy.asarray(ref, numpy.float32))
    e = numpy.zeros((0, 3), numpy.float32)
    assert float(F.mean_absolute_error(e, e).array) == 0.0
    s = numpy.full((), 2.0, numpy.float32)
    assert float(F.mean_absolute_error(s, numpy.full((), -2.0, numpy.float32)).array) == 4.0


@pytest.mark.parametrize('fn', [F.absolute_error, F.squared_error, F.mean_absolute_error])
def test_pair_errors_bad_input(fn):
    a = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType):
        fn(a, a[:1])
    with pytest.raises(InvalidType):
        fn(a, a.astype(numpy.float64))
    with pytest.raises(InvalidType):
        fn(a.astype(numpy.int32), a.astype(numpy.int32))


# -- huber_loss ---------------------------------------------------------------------

def _huber_ref(x, t, delta):
    d = x.astype('d') - t
    a = numpy.abs(d)
    return numpy.where(a <= delta, 0.5 * d * d, delta * (a - 0.5 * delta))


@pytest.mark.parametrize('reduce', ['sum_along_second_axis', 'no'])
def test_huber_loss(fc, dtype, reduce):
    x = fc.uniform((4, 3), dtype, -2, 2)
    t = fc.uniform((4, 3), dtype, -2, 2)
    delta = 0.5
    # keep |x - t| away from delta (the switch of the formula) for the gradients
    d = x.astype('d') - t
    d = numpy.sign(d) * fc.away_from(numpy.abs(d), delta, 0.1)
    x = (t + d).astype(dtype)
    ref = _huber_ref(x, t, delta)
    if reduce == 'sum_along_second_axis':
        ref = ref.sum(axis=1)
    f = lambda x, t: F.huber_loss(x, t, delta, reduce=reduce)  # noqa: E731
    fc.check_forward(f, (x, t), ref.astype(dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x, t), dtype)
        fc.check_double_backward(f, (x, t), dtype)


def test_huber_loss_nd_noncontiguous_empty(fc):
    x = fc.uniform((2, 3, 4), numpy.float64, -2, 2)
    t = fc.uniform((2, 3, 4), numpy.float64, -2, 2)
    ref = _huber_ref(x, t, 1.0).sum(axis=1)
    fc.check_forward(lambda x, t: F.huber_loss(x, t, 1.0),
                     (fc.noncontiguous(x), fc.noncontiguous(t)), ref, numpy.float64)
    e = numpy.zeros((0, 3), numpy.float32)
    assert F.huber_loss(e, e, 1.0).shape == (0,)


def test_huber_loss_bad_input():
    x = numpy.zeros((2, 3), numpy.float32)
    with pytest.raises(InvalidType):
        F.huber_loss(x, x[:1], 1.0)
    with pytest.raises(InvalidType):
        F.huber_loss(x[0], x[0], 1.0)
    with pytest.raises(ValueError, match='reduce'):
        F.huber_loss(x, x, 1.0, reduce='mean')


# -- hinge ---------------------------------------------------------------------------

def _hinge_ref(x, t, norm):
    s = numpy.ones_like(x, dtype='d')
    s[numpy.arange(len(t)), t] = -1
    b = numpy.maximum(1 + s * x, 0)
    return b if norm == 'L1' else b * b


@pytest.mark.parametrize('norm', ['L1', 'L2'])
@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_hinge(fc, dtype, norm, reduce):
    x = fc.uniform((5, 4), dtype, -2, 2)
    t = numpy.array([0, 3, 1, 2, 1], numpy.int32)
    s = numpy.ones_like(x)
    s[numpy.arange(5), t] = -1
    # keep 1 + s x away from 0 (the kink)
    x = (s * (fc.away_from(1 + s * x.astype('d'), 0, 0.1) - 1)).astype(dtype)
    ref = _hinge_ref(x.astype('d'), t, norm)
    if reduce == 'mean':
        ref = ref.sum() / 5
    f = lambda x: F.hinge(x, t, norm, reduce)  # noqa: E731
    fc.check_forward(f, (x,), numpy.asarray(ref, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x,), dtype)
        fc.check_double_backward(f, (x,), dtype)


def test_hinge_edge_and_errors(fc):
    x = fc.uniform((3, 4), numpy.float32)
    t = numpy.array([1, 0, 3], numpy.int32)
    fc.check_forward(lambda x: F.hinge(x, t), (fc.noncontiguous(x),),
                     numpy.asarray(_hinge_ref(x, t, 'L1').sum() / 3, numpy.float32))
    assert float(F.hinge(numpy.zeros((0, 4), numpy.float32),
                         numpy.zeros((0,), numpy.int32)).array) == 0.0
    with pytest.raises(NotImplementedError):
        F.hinge(x, t, norm='L3')
    with pytest.raises(ValueError, match='reduce'):
        F.hinge(x, t, reduce='sum')
    with pytest.raises(ValueError, match='labels'):
        F.hinge(x, numpy.array([1, 0, 4], numpy.int32))
    with pytest.raises(InvalidType):
        F.hinge(x, t[:2])
    with pytest.raises(InvalidType):
        F.hinge(x, t.astype(numpy.float32))


# -- contrastive -----------------------------------------------------------------------

def _contrastive_ref(x0, x1, y, margin):
    d = numpy.sqrt(((x0.astype('d') - x1) ** 2).sum(axis=1))
    return 0.5 * (y * d ** 2 + (1 - y) * numpy.maximum(margin - d, 0) ** 2)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_contrastive(fc, dtype, reduce):
    x0 = fc.uniform((6, 3), dtype)
    x1 = fc.uniform((6, 3), dtype)
    y = numpy.array([1, 0, 1, 0, 0, 1], numpy.int32)
    margin = 1.5
    d = numpy.sqrt(((x0.astype('d') - x1) ** 2).sum(axis=1))
    assert (numpy.abs(d - margin) > 0.05).all()
    ref = _contrastive_ref(x0, x1, y, margin)
    if reduce == 'mean':
        ref = ref.mean()
    f = lambda a, b: F.contrastive(a, b, y, margin, reduce)  # noqa: E731
    fc.check_forward(f, (x0, x1), numpy.asarray(ref, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x0, x1), dtype)
        fc.check_double_backward(f, (x0, x1), dtype)


def test_contrastive_zero_distance_has_finite_grad():
    x = numpy.ones((2, 3), numpy.float32)
    a = chainer.Variable(x)
    b = chainer.Variable(x.copy())
    loss = F.contrastive(a, b, numpy.array([0, 1], numpy.int32))
    loss.backward()
    assert numpy.isfinite(a.grad).all() and numpy.isfinite(b.grad).all()
    assert float(loss.array) == pytest.approx(0.25)


def test_contrastive_errors(fc):
    x = fc.uniform((2, 3), numpy.float32)
    y = numpy.array([1, 0], numpy.int32)
    fc.check_forward(lambda a, b: F.contrastive(a, b, y),
                     (fc.noncontiguous(x), fc.noncontiguous(-x)),
                     numpy.asarray(_contrastive_ref(x, -x, y, 1).mean(), numpy.float32))
    with pytest.raises(ValueError, match='margin'):
        F.contrastive(x, x, y, margin=0)
    with pytest.raises(ValueError, match='reduce'):
        F.contrastive(x, x, y, reduce='sum')
    with pytest.raises(InvalidType):
        F.contrastive(x, x, y[:1])
    with pytest.raises(InvalidType):
        F.contrastive(x, x, y.astype(numpy.float32))
    with pytest.raises(InvalidType):
        F.contrastive(x[0], x[0], y)


# -- triplet -----------------------------------------------------------------------------

def _triplet_ref(a, p, n, margin):
    a = a.astype('d')
    return numpy.maximum(((a - p) ** 2).sum(1) - ((a - n) ** 2).sum(1) + margin, 0)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_triplet(fc, dtype, reduce):
    a, p, n = (fc.uniform((6, 3), dtype) for _ in range(3))
    margin = 0.2
    raw = ((a.astype('d') - p) ** 2).sum(1) - ((a.astype('d') - n) ** 2).sum(1) + margin
    assert (numpy.abs(raw) > 0.02).all() and (raw > 0).any() and (raw < 0).any()
    ref = _triplet_ref(a, p, n, margin)
    if reduce == 'mean':
        ref = ref.mean()
    f = lambda a, p, n: F.triplet(a, p, n, margin, reduce)  # noqa: E731
    fc.check_forward(f, (a, p, n), numpy.asarray(ref, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (a, p, n), dtype)
        fc.check_double_backward(f, (a, p, n), dtype)


def test_triplet_edge_and_errors(fc):
    a, p, n = (fc.uniform((2, 3), numpy.float32) for _ in range(3))
    fc.check_forward(F.triplet, tuple(fc.noncontiguous(v) for v in (a, p, n)),
                     numpy.asarray(_triplet_ref(a, p, n, 0.2).mean(), numpy.float32))
    e = numpy.zeros((0, 3), numpy.float32)
    assert float(F.triplet(e, e, e).array) == 0.0
    with pytest.raises(ValueError, match='margin'):
        F.triplet(a, p, n, margin=-1)
    with pytest.raises(ValueError, match='reduce'):
        F.triplet(a, p, n, reduce='sum')
    with pytest.raises(InvalidType):
        F.triplet(a, p, n[:1])
    with pytest.raises(InvalidType):
        F.triplet(a, p, n.astype(numpy.float64))
