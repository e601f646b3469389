"""Tests of crf1d and argmax_crf1d against a brute-force enumeration of all label
sequences of tiny inputs."""

import itertools

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

K = 3
LENGTHS = [4, 3, 3, 1]  # sorted by decreasing length


def _case(fc, dtype):
    cost = fc.uniform((K, K), dtype, -1, 1)
    seqs = [fc.uniform((n, K), dtype, -1, 1) for n in LENGTHS]
    labels = [fc.rng.randint(0, K, n) for n in LENGTHS]
    # transpose: xs[i] stacks position i of the sequences longer than i
    xs = [numpy.stack([s[i] for s in seqs if len(s) > i]) for i in range(LENGTHS[0])]
    ys = [numpy.array([lab[i] for lab in labels if len(lab) > i], numpy.int32)
          for i in range(LENGTHS[0])]
    return cost, seqs, labels, xs, ys


def _score(cost, seq, path):
    return (sum(seq[i, p] for i, p in enumerate(path))
            + sum(cost[a, b] for a, b in zip(path[:-1], path[1:])))


def _brute(cost, seqs, labels):
    nll, best, best_path = [], [], []
    cost = cost.astype('d')
    for seq, lab in zip(seqs, labels):
        seq = seq.astype('d')
        scores = {p: _score(cost, seq, p) for p in itertools.product(range(K), repeat=len(seq))}
        v = numpy.array(list(scores.values()))
        nll.append(numpy.log(numpy.exp(v).sum()) - _score(cost, seq, tuple(lab)))
        p = max(scores, key=scores.get)
        best.append(scores[p])
        best_path.append(p)
    return numpy.array(nll), numpy.array(best), best_path


@pytest.mark.parametrize('reduce', ['mean', 'no'])
def test_crf1d_matches_brute_force(fc, dtype, reduce):
    cost, seqs, labels, xs, ys = _case(fc, dtype)
    nll, _, _ = _brute(cost, seqs, labels)
    f = lambda c, *xs: F.crf1d(c, list(xs), ys, reduce)  # noqa: E731
    expected = nll.mean() if reduce == 'mean' else nll
    fc.check_forward(f, (cost,) + tuple(xs), numpy.asarray(expected, dtype), dtype)
    if dtype != numpy.float16:
        fc.check_backward(f, (cost,) + tuple(xs), dtype)
    if dtype == numpy.float64:
        fc.check_double_backward(f, (cost,) + tuple(xs), dtype)


def test_argmax_crf1d_matches_brute_force(fc, dtype):
    cost, seqs, labels, xs, _ = _case(fc, dtype)
    _, best, best_path = _brute(cost, seqs, labels)
    score, path = F.argmax_crf1d(cost, xs)
    assert isinstance(score, chainer.Variable) and score.shape == (len(LENGTHS),)
    tol = {'atol': 1e-2, 'rtol': 1e-2} if dtype == numpy.float16 else {'rtol': 1e-5}
    numpy.testing.assert_allclose(score.array, best, **tol)
    assert len(path) == len(xs)
    assert [p.shape for p in path] == [x.shape[:1] for x in xs]
    assert all(p.dtype == numpy.int32 for p in path)  # as v7
    if dtype != numpy.float16:  # float16 may break near-ties differently
        for b, bp in enumerate(best_path):
            assert tuple(int(path[i][b]) for i in range(len(bp))) == bp


def test_argmax_crf1d_score_gradient(fc):
    cost, _, _, xs, _ = _case(fc, numpy.float64)
    f = lambda c, *xs: F.argmax_crf1d(c, list(xs))[0]  # noqa: E731
    fc.check_backward(f, (cost,) + tuple(xs), numpy.float64)


def test_crf1d_single_step_and_equal_lengths(fc):
    cost = fc.uniform((K, K), numpy.float64)
    x = fc.uniform((2, K), numpy.float64)
    y = numpy.array([0, 2], numpy.int32)
    lse = numpy.log(numpy.exp(x).sum(axis=1))
    out = F.crf1d(cost, [fc.noncontiguous(x)], [y], reduce='no')
    numpy.testing.assert_allclose(out.array, lse - x[[0, 1], y])
    seqs = [fc.uniform((2, K), numpy.float64) for _ in range(2)]
    xs = [numpy.stack([s[i] for s in seqs]) for i in range(2)]
    labels = [numpy.array([1, 0]), numpy.array([2, 2])]
    ys = [numpy.array([lab[i] for lab in labels], numpy.int32) for i in range(2)]
    nll, _, _ = _brute(cost, seqs, labels)
    numpy.testing.assert_allclose(F.crf1d(cost, xs, ys, 'no').array, nll)


def test_crf1d_errors(fc):
    cost, _, _, xs, ys = _case(fc, numpy.float32)
    with pytest.raises(ValueError, match='reduce'):
        F.crf1d(cost, xs, ys, reduce='sum')
    with pytest.raises(ValueError):
        F.crf1d(cost, [], [])
    with pytest.raises(ValueError):
        F.crf1d(cost, xs, ys[:-1])
    with pytest.raises(ValueError, match='increase'):
        F.crf1d(cost, xs[::-1], ys[::-1])
    with pytest.raises(ValueError, match='labels'):
        F.crf1d(cost, xs, [y + 3 for y in ys])
    with pytest.raises(InvalidType):
        F.crf1d(cost[:2], xs, ys)
    with pytest.raises(InvalidType):
        F.crf1d(cost, [x.astype(numpy.float64) for x in xs], ys)
    with pytest.raises(InvalidType):
        F.crf1d(cost, xs, [y.astype(numpy.float32) for y in ys])
    with pytest.raises(InvalidType):
        F.argmax_crf1d(cost, [x[:, :2] for x in xs])
