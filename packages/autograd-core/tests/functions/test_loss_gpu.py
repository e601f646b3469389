"""GPU tests of the loss functions: outputs and gradients on CuPy arrays match the
NumPy ones (which the other test files check against references and numerical
gradients)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.backends import cuda

SAMPLES = numpy.array([[9, 2, 3], [9, 4, 4], [9, 0, 1], [9, 5, 2]], numpy.int32)


def _labels(xp, values):
    return xp.asarray(numpy.array(values, numpy.int32))


def _cases():
    """name -> builder(xp, arr) returning (function of Variables, float inputs)."""
    c = {}
    c['absolute_error'] = lambda xp, a: (F.absolute_error, [a((3, 4)), a((3, 4))])
    c['squared_error'] = lambda xp, a: (F.squared_error, [a((3, 4)), a((3, 4))])
    c['mean_absolute_error'] = lambda xp, a: (F.mean_absolute_error, [a((3, 4)), a((3, 4))])
    c['mean_squared_error'] = lambda xp, a: (F.mean_squared_error, [a((3, 4)), a((3, 4))])
    c['huber_loss'] = lambda xp, a: (
        lambda x, t: F.huber_loss(x, t, 0.5), [a((4, 3), -2, 2), a((4, 3), -2, 2)])
    c['hinge_l2'] = lambda xp, a: (
        lambda x: F.hinge(x, _labels(xp, [0, 3, 1]), 'L2'), [a((3, 4), -2, 2)])
    c['contrastive'] = lambda xp, a: (
        lambda x0, x1: F.contrastive(x0, x1, _labels(xp, [1, 0, 0, 1]), 1.5),
        [a((4, 3)), a((4, 3))])
    c['triplet'] = lambda xp, a: (F.triplet, [a((4, 3)), a((4, 3)), a((4, 3))])
    c['gaussian_kl_divergence'] = lambda xp, a: (
        F.gaussian_kl_divergence, [a((3, 4)), a((3, 4))])
    c['gaussian_nll'] = lambda xp, a: (F.gaussian_nll, [a((3, 4)), a((3, 4)), a((3, 4))])
    c['bernoulli_nll'] = lambda xp, a: (F.bernoulli_nll, [a((3, 4), 0, 1), a((3, 4), -3, 3)])
    c['cross_covariance'] = lambda xp, a: (F.cross_covariance, [a((5, 3)), a((5, 2))])
    c['decov'] = lambda xp, a: (F.decov, [a((5, 3))])
    c['softmax_cross_entropy'] = lambda xp, a: (
        lambda x: F.softmax_cross_entropy(x, _labels(xp, [[0, 2], [-1, 1]]),
                                          class_weight=xp.asarray([1.0, 2.0, 0.5])),
        [a((2, 3, 2), -3, 3)])
    c['softmax_cross_entropy_no_cache'] = lambda xp, a: (
        lambda x: F.softmax_cross_entropy(x, _labels(xp, [0, 2, 1]), cache_score=False,
                                          reduce='no'),
        [a((3, 4), -3, 3)])
    c['softmax_cross_entropy_double'] = lambda xp, a: (
        lambda x: F.softmax_cross_entropy(x, _labels(xp, [0, -1, 1]),
                                          enable_double_backprop=True),
        [a((3, 4), -3, 3)])
    c['softmax_cross_entropy_soft_kl'] = lambda xp, a: (
        lambda x, t: F.softmax_cross_entropy(x, t.array / t.array.sum(1, keepdims=True),
                                             soft_target_loss='kl-divergence'),
        [a((3, 4), -3, 3), a((3, 4), 0.1, 1)])
    c['sigmoid_cross_entropy'] = lambda xp, a: (
        lambda x: F.sigmoid_cross_entropy(x, _labels(xp, [[0, 1, -1], [1, 1, 0]])),
        [a((2, 3), -3, 3)])
    c['ctc'] = lambda xp, a: (
        lambda *xs: F.connectionist_temporal_classification(
            list(xs), _labels(xp, [[1, 2], [1, 1], [2, 0]]), 0,
            _labels(xp, [4, 4, 2]), _labels(xp, [2, 2, 1]), reduce='no'),
        [a((3, 3), -2, 2) for _ in range(4)])
    c['crf1d'] = lambda xp, a: (
        lambda cost, x0, x1, x2: F.crf1d(
            cost, [x0, x1, x2], [_labels(xp, [0, 2, 1]), _labels(xp, [1, 1]),
                                 _labels(xp, [2])], reduce='no'),
        [a((3, 3)), a((3, 3)), a((2, 3)), a((1, 3))])
    c['argmax_crf1d'] = lambda xp, a: (
        lambda cost, x0, x1, x2: F.argmax_crf1d(cost, [x0, x1, x2])[0],
        [a((3, 3)), a((3, 3)), a((2, 3)), a((1, 3))])
    c['negative_sampling'] = lambda xp, a: (
        lambda x, W: F.negative_sampling(x, _labels(xp, [1, -1, 5, 0]), W,
                                         lambda shape: xp.asarray(SAMPLES), 2, reduce='no'),
        [a((4, 3)), a((6, 3))])
    c['black_out'] = lambda xp, a: (
        lambda x, W: F.black_out(x, _labels(xp, [1, 2, 5, 0]), W,
                                 xp.asarray(SAMPLES[:, 1:]), reduce='no'),
        [a((4, 3)), a((6, 3))])
    c['discriminative_loss'] = lambda xp, a: (
        lambda e: F.discriminative_margin_based_clustering_loss(
            e, _labels(xp, [[[0, 1, 2], [3, 1, 1]], [[2, 2, 0], [0, 3, 1]]]),
            0.3, 0.8, 3, norm=2),
        [a((2, 3, 2, 3))])
    return c


CASES = _cases()


def _run(name, xp, dtype):
    rng = numpy.random.RandomState(0)

    def arr(shape, low=-1.0, high=1.0):
        return xp.asarray(rng.uniform(low, high, shape).astype(dtype))

    fn, inputs = CASES[name](xp, arr)
    xs = [chainer.Variable(x) for x in inputs]
    ys = fn(*xs)
    ys = list(ys) if isinstance(ys, tuple) else [ys]
    gys = [xp.asarray(rng.uniform(-1, 1, y.shape).astype(y.dtype)) for y in ys]
    gxs = chainer.grad(ys, xs, grad_outputs=gys)
    return ([cuda.to_cpu(y.array) for y in ys],
            [None if g is None else cuda.to_cpu(g.array) for g in gxs])


@pytest.mark.gpu
@pytest.mark.parametrize('name', sorted(CASES))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64], ids=['f32', 'f64'])
def test_loss_gpu_matches_cpu(name, dtype):
    cupy = pytest.importorskip('cupy')
    ys_cpu, gs_cpu = _run(name, numpy, dtype)
    ys_gpu, gs_gpu = _run(name, cupy, dtype)
    tol = {'rtol': 1e-4, 'atol': 1e-5} if dtype == numpy.float32 else {'rtol': 1e-9}
    for a, b in zip(ys_cpu, ys_gpu):
        assert a.dtype == b.dtype and a.shape == b.shape
        numpy.testing.assert_allclose(b, a, **tol)
    for a, b in zip(gs_cpu, gs_gpu):
        assert (a is None) == (b is None)
        if a is not None:
            numpy.testing.assert_allclose(b, a, **tol)


@pytest.mark.gpu
def test_softmax_cross_entropy_double_backward_gpu():
    cupy = pytest.importorskip('cupy')
    x = cupy.asarray(numpy.random.RandomState(1).uniform(-2, 2, (3, 4)))
    t = cupy.asarray(numpy.array([0, 3, 1], numpy.int32))
    gy = cupy.asarray(numpy.ones(()))
    ggx = cupy.asarray(numpy.random.RandomState(2).uniform(-1, 1, (3, 4)))
    f = lambda x: F.softmax_cross_entropy(x, t, enable_double_backprop=True)  # noqa: E731
    chainer.gradient_check.check_double_backward(f, (x,), gy, (ggx,), eps=1e-4,
                                                 atol=1e-6, rtol=1e-5)


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('label_dtype', [numpy.int32, numpy.int64])
@pytest.mark.parametrize('options', [
    {}, {'normalize': False}, {'reduce': 'no'}, {'cache_score': False},
    {'ignore_label': 2}, {'reduce': 'no', 'cache_score': False},
])
def test_softmax_cross_entropy_fused_kernels_match_numpy(dtype, label_dtype, options):
    # the fused CUDA path (2-D float32/64 scores) and the array path (float16) against
    # NumPy, with ignored labels (-1 by default) in the batch
    cupy = pytest.importorskip('cupy')
    rng = numpy.random.RandomState(3)
    x = rng.uniform(-3, 3, (6, 5)).astype(dtype)
    t = numpy.array([0, 4, options.get('ignore_label', -1), 2, 2, 1], label_dtype)
    gy = rng.uniform(-1, 1, (6,) if options.get('reduce') == 'no' else ()).astype(dtype)

    def run(xp):
        xv = chainer.Variable(xp.asarray(x))
        loss = F.softmax_cross_entropy(xv, xp.asarray(t), **options)
        gx, = chainer.grad([loss], [xv], grad_outputs=[xp.asarray(gy)])
        return cuda.to_cpu(loss.array), cuda.to_cpu(gx.array)

    tol = {'rtol': 1e-2, 'atol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5,
                                                                        'atol': 1e-6}
    for got, want in zip(run(cupy), run(numpy)):
        assert got.dtype == want.dtype and got.shape == want.shape
        numpy.testing.assert_allclose(got, want, **tol)


@pytest.mark.gpu
def test_softmax_cross_entropy_fused_with_every_label_ignored():
    cupy = pytest.importorskip('cupy')
    x = cupy.ones((3, 4), 'f')
    loss = F.softmax_cross_entropy(x, cupy.full((3,), -1, 'i'))
    assert float(loss.array) == 0.0
    xv = chainer.Variable(x)
    F.softmax_cross_entropy(xv, cupy.full((3,), -1, 'i')).backward()
    cupy.testing.assert_array_equal(xv.grad, cupy.zeros((3, 4), 'f'))
