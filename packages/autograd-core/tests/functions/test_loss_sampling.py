"""Tests of negative_sampling and black_out with fixed samples, and of
discriminative_margin_based_clustering_loss."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

SAMPLES = numpy.array([[9, 2, 3], [9, 4, 4], [9, 0, 1], [9, 5, 2]], numpy.int32)


def _sampler(shape):
    assert shape == SAMPLES.shape
    return SAMPLES.copy()


def _softplus(v):
    return numpy.logaddexp(v, 0)


def _ns_ref(x, t, W):
    x, W = x.astype('d'), W.astype('d')
    out = []
    for b in range(len(t)):
        if t[b] == -1:
            out.append(0.0)
            continue
        out.append(_softplus(-x[b] @ W[t[b]])
                   + sum(_softplus(x[b] @ W[j]) for j in SAMPLES[b, 1:]))
    return numpy.array(out)


@pytest.mark.parametrize('reduce', ['sum', 'no'])
def test_negative_sampling(fc, dtype, reduce):
    x = fc.uniform((4, 3), dtype)
    W = fc.uniform((6, 3), dtype)
    t = numpy.array([1, -1, 5, 0], numpy.int32)
    ref = _ns_ref(x, t, W)
    if reduce == 'sum':
        ref = ref.sum()
    f = lambda x, W: F.negative_sampling(x, t, W, _sampler, 2, reduce)  # noqa: E731
    fc.check_forward(f, (x, W), numpy.asarray(ref, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x, W), dtype)
    if dtype == numpy.float64:
        fc.check_double_backward(f, (x, W), dtype)


def test_negative_sampling_return_samples_and_errors(fc):
    x = fc.uniform((4, 3), numpy.float32)
    W = fc.uniform((6, 3), numpy.float32)
    t = numpy.array([1, -1, 5, 0], numpy.int32)
    loss, samples = F.negative_sampling(x, t, W, _sampler, 2, return_samples=True)
    assert loss.shape == ()
    numpy.testing.assert_array_equal(samples[:, 0], t)
    numpy.testing.assert_array_equal(samples[:, 1:], SAMPLES[:, 1:])
    fc.check_forward(lambda x, W: F.negative_sampling(x, t, W, _sampler, 2),
                     (fc.noncontiguous(x), fc.noncontiguous(W)),
                     numpy.asarray(_ns_ref(x, t, W).sum(), numpy.float32))
    with pytest.raises(TypeError):
        F.negative_sampling(x, t, W, _sampler, 2, return_sample=True)
    with pytest.raises(ValueError, match='reduce'):
        F.negative_sampling(x, t, W, _sampler, 2, reduce='mean')
    with pytest.raises(ValueError, match='sampler'):
        F.negative_sampling(x, t, W, lambda s: numpy.zeros((4, 2), numpy.int32), 2)
    with pytest.raises(InvalidType):
        F.negative_sampling(x, t[:2], W, _sampler, 2)
    with pytest.raises(InvalidType):
        F.negative_sampling(x, t, W[:, :2], _sampler, 2)
    with pytest.raises(InvalidType):
        F.negative_sampling(x, t, W.astype(numpy.float64), _sampler, 2)


# -- black_out ---------------------------------------------------------------------------

def _bo_ref(x, t, W, samples):
    x, W = x.astype('d'), W.astype('d')
    out = []
    for b in range(len(t)):
        pos = x[b] @ W[t[b]]
        neg = numpy.array([x[b] @ W[j] for j in samples[b]])
        logz = numpy.log(numpy.exp(pos) + numpy.exp(neg).sum())
        out.append(-(pos - logz + numpy.log(1 - numpy.exp(neg - logz)).sum()))
    return numpy.array(out)


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_black_out(fc, dtype, reduce):
    x = fc.uniform((4, 3), dtype)
    W = fc.uniform((6, 3), dtype)
    t = numpy.array([1, 2, 5, 0], numpy.int32)
    samples = SAMPLES[:, 1:]
    ref = _bo_ref(x, t, W, samples)
    if reduce == 'mean':
        ref = ref.mean()
    f = lambda x, W: F.black_out(x, t, W, samples, reduce)  # noqa: E731
    fc.check_forward(f, (x, W), numpy.asarray(ref, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (x, W), dtype)
    if dtype == numpy.float64:
        fc.check_double_backward(f, (x, W), dtype)


def test_black_out_edges_and_errors(fc):
    x = fc.uniform((4, 3), numpy.float32)
    W = fc.uniform((6, 3), numpy.float32)
    t = numpy.array([1, 2, 5, 0], numpy.int32)
    samples = SAMPLES[:, 1:]
    fc.check_forward(lambda x, W: F.black_out(x, t, W, samples),
                     (fc.noncontiguous(x), fc.noncontiguous(W)),
                     numpy.asarray(_bo_ref(x, t, W, samples).mean(), numpy.float32))
    big = numpy.full((1, 3), 30.0, numpy.float32)
    out = F.black_out(big, numpy.array([0], numpy.int32), numpy.eye(3, dtype=numpy.float32),
                      numpy.array([[1, 2]], numpy.int32))
    assert numpy.isfinite(out.array)
    with pytest.raises(ValueError, match='reduce'):
        F.black_out(x, t, W, samples, reduce='sum')
    with pytest.raises(InvalidType):
        F.black_out(x, t[:2], W, samples)
    with pytest.raises(InvalidType):
        F.black_out(x, t, W, samples[:, 0])
    with pytest.raises(InvalidType):
        F.black_out(x, t, W[:, :2], samples)


# -- discriminative_margin_based_clustering_loss -------------------------------------------

def _disc_ref(e, lab, dv, dd, n_inst, norm, alpha, beta, gamma):
    e = e.astype('d')
    batch = e.shape[0]

    def nrm(v):
        return numpy.abs(v).sum() if norm == 1 else numpy.sqrt((v * v).sum())

    mu = numpy.zeros((n_inst, batch, e.shape[1]))
    for c in range(n_inst):
        for b in range(batch):
            m = lab[b] == c + 1
            if m.any():
                mu[c, b] = e[b][:, m].mean(axis=1)
    l_var = 0.0
    for c in range(n_inst):
        total, count = 0.0, 0
        for b in range(batch):
            for h, w in zip(*numpy.nonzero(lab[b] == c + 1)):
                total += max(nrm(mu[c, b] - e[b, :, h, w]) - dv, 0) ** 2
                count += 1
        l_var += total / max(count, 1)
    l_var /= n_inst
    l_dist, pairs = 0.0, 0
    for ca in range(n_inst):
        for cb in range(ca + 1, n_inst):
            for b in range(batch):
                l_dist += max(2 * dd - nrm(mu[ca, b] - mu[cb, b]), 0) ** 2
            pairs += 1
    l_dist /= max(pairs * batch, 1)
    l_reg = sum(nrm(mu[c]) for c in range(n_inst)) / (n_inst * batch)
    return alpha * l_var, beta * l_dist, gamma * l_reg


def _disc_case(fc, dtype):
    e = fc.uniform((2, 3, 3, 4), dtype, -1, 1)
    lab = fc.rng.randint(0, 4, (2, 3, 4)).astype(numpy.int32)
    lab[1][lab[1] == 2] = 0  # instance 2 is absent from image 1
    return e, lab


@pytest.mark.parametrize('norm', [1, 2])
def test_discriminative_loss(fc, dtype, norm):
    e, lab = _disc_case(fc, dtype)
    args = (0.3, 0.8, 3, norm, 1.0, 2.0, 0.5)
    ref = _disc_ref(e, lab, *args)
    f = lambda e: F.discriminative_margin_based_clustering_loss(e, lab, *args)  # noqa
    tol = {'atol': 5e-2, 'rtol': 5e-2} if dtype == numpy.float16 else {}
    fc.check_forward(f, (e,), tuple(numpy.asarray(r, dtype) for r in ref), dtype, **tol)
    if dtype == numpy.float64:
        fc.check_backward(f, (e,), dtype)
        fc.check_double_backward(f, (e,), dtype)


def test_discriminative_loss_gradients_finite_and_errors(fc):
    e, lab = _disc_case(fc, numpy.float32)
    lab[:] = 0  # no instance at all: zero means, gradients must stay finite
    ev = chainer.Variable(e)
    outs = F.discriminative_margin_based_clustering_loss(ev, lab, 0.5, 1.5, 3, norm=2)
    (outs[0] + outs[1] + outs[2]).backward()
    assert numpy.isfinite(ev.grad).all()
    dl = F.discriminative_margin_based_clustering_loss
    with pytest.raises(ValueError):
        dl(e, lab, 0.5, 1.5, 0)
    with pytest.raises(ValueError):
        dl(e, lab, 0.5, 1.5, 3, norm=3)
    with pytest.raises(InvalidType):
        dl(e, lab, 0.5, 1.5, 4)
    with pytest.raises(InvalidType):
        dl(e, lab[:, :2], 0.5, 1.5, 3)
    with pytest.raises(InvalidType):
        dl(e, lab.astype(numpy.float32), 0.5, 1.5, 3)
