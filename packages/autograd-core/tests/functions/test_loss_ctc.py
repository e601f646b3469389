"""Tests of connectionist_temporal_classification against a brute-force sum over
all alignments of tiny inputs."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType


def _collapse(path, blank):
    out = []
    prev = None
    for p in path:
        if p != prev and p != blank:
            out.append(p)
        prev = p
    return out


def _brute_nll(x, labels, blank):
    """-log sum over every path of length T that collapses to ``labels``; x: (T, V)."""
    x = x.astype('d')
    y = numpy.exp(x - x.max(axis=1, keepdims=True))
    y /= y.sum(axis=1, keepdims=True)
    total = 0.0
    for path in itertools.product(range(x.shape[1]), repeat=x.shape[0]):
        if _collapse(path, blank) == list(labels):
            total += numpy.prod([y[i, p] for i, p in enumerate(path)])
    return -numpy.log(total) if total > 0 else numpy.inf


def _case(fc, dtype):
    # T=5, B=5, V=3, blank 0; repeated labels, short inputs and an empty label
    x = fc.uniform((5, 5, 3), dtype, -2, 2)
    t = numpy.array([[1, 2], [1, 1], [2, 0], [1, 0], [2, 2]], numpy.int32)
    label_length = numpy.array([2, 2, 1, 0, 1], numpy.int32)
    input_length = numpy.array([5, 4, 3, 2, 1], numpy.int32)
    ref = numpy.array([_brute_nll(x[:input_length[b], b], t[b, :label_length[b]], 0)
                       for b in range(5)])
    return x, t, input_length, label_length, ref


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_ctc_matches_brute_force(fc, dtype, reduce):
    x, t, il, ll, ref = _case(fc, dtype)
    f = lambda *xs: F.connectionist_temporal_classification(  # noqa: E731
        list(xs), t, 0, il, ll, reduce)
    expected = ref.mean() if reduce == 'mean' else ref
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {}
    fc.check_forward(f, tuple(x), numpy.asarray(expected, dtype), dtype, **tol)
    if dtype != numpy.float16:
        fc.check_backward(f, tuple(x), dtype)


def test_ctc_default_lengths_other_blank(fc):
    x = fc.uniform((4, 2, 3), numpy.float64, -2, 2)
    t = numpy.array([[0, 1], [0, 0]], numpy.int32)
    ref = numpy.array([_brute_nll(x[:, b], t[b], 2) for b in range(2)])
    f = lambda *xs: F.connectionist_temporal_classification(list(xs), t, 2)  # noqa: E731
    fc.check_forward(f, tuple(x), numpy.asarray(ref.mean()), numpy.float64)
    fc.check_backward(f, tuple(x), numpy.float64)
    # variables, a variable t and non-contiguous steps
    xs = [chainer.Variable(fc.noncontiguous(a)) for a in x]
    out = F.connectionist_temporal_classification(xs, chainer.Variable(t), 2, reduce='no')
    numpy.testing.assert_allclose(out.array, ref, rtol=1e-10)


def test_ctc_infeasible_and_empty():
    # two equal labels need a blank in between: 2 steps cannot emit [1, 1]
    xs = [numpy.zeros((1, 3), numpy.float32)] * 2
    xv = [chainer.Variable(a.copy()) for a in xs]
    loss = F.connectionist_temporal_classification(xv, numpy.array([[1, 1]], numpy.int32), 0)
    assert numpy.isinf(loss.array)
    loss.backward()
    assert all((v.grad == 0).all() for v in xv)
    # an empty input has probability one of an empty label sequence
    out = F.connectionist_temporal_classification(
        xs, numpy.array([[1]], numpy.int32), 0, numpy.array([0], numpy.int32),
        numpy.array([0], numpy.int32), reduce='no')
    assert float(out.array[0]) == 0.0


def test_ctc_large_scores_are_stable():
    x = numpy.array([[[100.0, -100.0, 0.0]], [[-100.0, 100.0, 0.0]]], numpy.float32)
    xv = [chainer.Variable(a) for a in x]
    loss = F.connectionist_temporal_classification(xv, numpy.array([[1]], numpy.int32), 0)
    loss.backward()
    assert numpy.isfinite(loss.array) and all(numpy.isfinite(v.grad).all() for v in xv)


def test_ctc_errors():
    xs = [numpy.zeros((2, 3), numpy.float32)] * 3
    t = numpy.array([[1], [2]], numpy.int32)
    ctc = F.connectionist_temporal_classification
    with pytest.raises(TypeError):
        ctc(numpy.zeros((3, 2, 3), numpy.float32), t, 0)
    with pytest.raises(ValueError, match='blank'):
        ctc(xs, t, -1)
    with pytest.raises(ValueError, match='blank'):
        ctc(xs, t, 3)
    with pytest.raises(ValueError, match='reduce'):
        ctc(xs, t, 0, reduce='sum')
    with pytest.raises(ValueError, match='labels'):
        ctc(xs, numpy.array([[0], [2]], numpy.int32), 0)
    with pytest.raises(ValueError, match='input_length'):
        ctc(xs, t, 0, input_length=numpy.array([4, 1], numpy.int32))
    with pytest.raises(ValueError, match='label_length'):
        ctc(xs, t, 0, label_length=numpy.array([2, 1], numpy.int32))
    with pytest.raises(InvalidType):
        ctc(xs, t[:1], 0)
    with pytest.raises(InvalidType):
        ctc(xs, t.astype(numpy.float32), 0)
    with pytest.raises(InvalidType):
        ctc(xs[:2] + [numpy.zeros((2, 3), numpy.float64)], t, 0)
    with pytest.raises(InvalidType):
        ctc(xs, t, 0, input_length=numpy.array([3.0, 3.0]))
