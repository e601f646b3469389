"""Evaluation functions: accuracy, binary_accuracy, classification_summary, precision,
recall, f1_score, r2_score (all non-differentiable metrics)."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer.utils.type_check import InvalidType

# -- accuracy ---------------------------------------------------------------------------


@pytest.mark.parametrize('ignore', [None, 0])
@pytest.mark.parametrize('y_shape', [(10, 3), (4, 3, 2, 2)])
def test_accuracy(fc, dtype, ignore, y_shape):
    y = fc.uniform(y_shape, dtype)
    t_shape = y_shape[:1] + y_shape[2:]
    t = numpy.random.randint(0, 3, t_shape).astype(numpy.int32)
    pred = y.argmax(axis=1)
    mask = numpy.ones(t.shape, bool) if ignore is None else t != ignore
    expected = ((pred == t) & mask).sum() / max(mask.sum(), 1)
    acc = F.accuracy(y, t, ignore_label=ignore)
    assert acc.dtype == dtype and acc.shape == ()
    assert float(acc.array) == pytest.approx(expected, rel=1e-3)


def test_accuracy_edges_and_errors(fc):
    y = fc.uniform((4, 3), numpy.float32)
    t = numpy.array([0, 1, 2, 1], numpy.int32)
    a = F.accuracy(fc.noncontiguous(y), t)
    assert float(a.array) == pytest.approx((y.argmax(1) == t).mean())
    assert float(F.accuracy(y, numpy.full(4, -1, numpy.int32), ignore_label=-1).array) == 0
    # no labels: NaN (the mean of nothing) as in Chainer 7; 0 with ignore_label
    assert numpy.isnan(F.accuracy(numpy.zeros((0, 3), 'f'), numpy.zeros(0, 'i')).array)
    assert float(F.accuracy(numpy.zeros((0, 3), 'f'), numpy.zeros(0, 'i'),
                            ignore_label=-1).array) == 0
    v = chainer.Variable(y)
    assert not F.accuracy(v, t).requires_grad
    with pytest.raises(InvalidType):
        F.accuracy(y, t[:2])
    with pytest.raises(InvalidType):
        F.accuracy(y, t.astype(numpy.float32))
    with pytest.raises(InvalidType):
        F.accuracy(y, numpy.zeros((4, 3), numpy.int32))


@pytest.mark.parametrize('y_shape,t_shape', [
    ((6, 3, 1), (6,)), ((6, 3, 1, 1), (6,)), ((6, 3, 2, 4, 1), (6, 2, 4))])
def test_accuracy_trailing_axes_of_length_one(fc, y_shape, t_shape):
    # as in v7, y may have more trailing axes than t, when they are of length 1
    y = fc.uniform(y_shape, numpy.float32)
    t = numpy.random.randint(0, 3, t_shape).astype(numpy.int8)
    expected = (y.argmax(axis=1).reshape(t_shape) == t).mean()
    assert float(F.accuracy(y, t).array) == pytest.approx(expected)
    support = F.classification_summary(y, t, label_num=3)[3].array
    numpy.testing.assert_array_equal(support, numpy.bincount(t.ravel(), minlength=3))


@pytest.mark.parametrize('y_shape,t_shape', [
    ((6, 3), (4,)), ((6, 3, 2), (6,)), ((6, 3, 1, 2), (6,)), ((6, 3, 4), (6, 5)),
    ((6, 3, 5, 2), (6, 5)), ((6,), (6,))])
def test_accuracy_rejects_mismatched_shapes(y_shape, t_shape):
    y = numpy.zeros(y_shape, numpy.float32)
    t = numpy.zeros(t_shape, numpy.int32)
    with pytest.raises(InvalidType):
        F.accuracy(y, t)


def test_binary_accuracy(fc, dtype):
    y = fc.uniform((5, 4), dtype)
    t = numpy.random.randint(-1, 2, (5, 4)).astype(numpy.int32)
    mask = t != -1
    expected = (((y >= 0) == t) & mask).sum() / mask.sum()
    acc = F.binary_accuracy(y, t)
    assert acc.dtype == dtype
    assert float(acc.array) == pytest.approx(expected, rel=1e-3)


def test_binary_accuracy_edges_and_errors(fc):
    y = fc.uniform((3, 4), numpy.float32)
    t = (y > 0).astype(numpy.int32)
    assert float(F.binary_accuracy(fc.noncontiguous(y), t).array) == 1
    assert float(F.binary_accuracy(y, numpy.full((3, 4), -1, numpy.int32)).array) == 0
    assert float(F.binary_accuracy(numpy.zeros(0, 'f'), numpy.zeros(0, 'i')).array) == 0
    with pytest.raises(InvalidType):
        F.binary_accuracy(y, t[:2])
    with pytest.raises(InvalidType):
        F.binary_accuracy(y.astype(numpy.int32), t)


# -- classification summary ------------------------------------------------------------------

def _summary_ref(pred, t, label_num, beta, ignore):
    keep = t != ignore
    pred, t = pred[keep], t[keep]
    p, r, f, s = [], [], [], []
    for c in range(label_num):
        tp = ((pred == c) & (t == c)).sum()
        n_pred = (pred == c).sum()
        n_true = (t == c).sum()
        pc = tp / n_pred if n_pred else numpy.nan
        rc = tp / n_true if n_true else numpy.nan
        fc_ = (1 + beta ** 2) * pc * rc / (beta ** 2 * pc + rc) if pc + rc else numpy.nan
        p.append(pc)
        r.append(rc)
        f.append(fc_)
        s.append(n_true)
    return numpy.array(p), numpy.array(r), numpy.array(f), numpy.array(s)


@pytest.mark.parametrize('label_num', [None, 4])
@pytest.mark.parametrize('beta', [1.0, 2.0])
@pytest.mark.parametrize('y_shape', [(30, 4), (6, 4, 5)])
def test_classification_summary(fc, dtype, label_num, beta, y_shape):
    y = fc.uniform(y_shape, dtype)
    t = numpy.random.randint(-1, 4, y_shape[:1] + y_shape[2:]).astype(numpy.int32)
    pred = y.argmax(axis=1)
    n = int(t.max()) + 1 if label_num is None else label_num
    ref = _summary_ref(pred.ravel(), t.ravel(), n, beta, -1)
    out = F.classification_summary(y, t, label_num=label_num, beta=beta)
    assert len(out) == 4
    for o, r in zip(out, ref):
        assert isinstance(o, chainer.Variable) and o.shape == (n,)
        numpy.testing.assert_allclose(o.array.astype('d'), r,
                                      rtol=1e-3 if dtype == numpy.float16 else 1e-6)
    # float64 ratios whatever the dtype of y, as in Chainer 7
    assert all(o.dtype == numpy.float64 for o in out[:3]) and out[3].dtype.kind == 'i'


def test_precision_recall_f1(fc):
    y = numpy.eye(3, dtype=numpy.float32)[[0, 1, 2, 0, 1, 1]]   # predictions 0,1,2,0,1,1
    t = numpy.array([0, 1, 1, 2, 1, -1], numpy.int32)
    p, s = F.precision(y, t)
    numpy.testing.assert_allclose(p.array, [1 / 2, 1, 0])
    numpy.testing.assert_array_equal(s.array, [1, 3, 1])
    r, s2 = F.recall(y, t)
    numpy.testing.assert_allclose(r.array, [1, 2 / 3, 0])
    numpy.testing.assert_array_equal(s2.array, s.array)
    f, _ = F.f1_score(y, t)
    numpy.testing.assert_allclose(f.array[:2], [2 / 3, 0.8], rtol=1e-6)
    assert numpy.isnan(f.array[2])   # 0 / 0
    from chainer.functions.evaluation.classification_summary import fbeta_score
    f2, _ = fbeta_score(y, t, beta=2.0)
    numpy.testing.assert_allclose(f2.array[1], 5 * 1 * (2 / 3) / (4 * 1 + 2 / 3), rtol=1e-6)


def test_classification_summary_label_num_counts_ignore_label():
    # label_num=None: the largest label plus one, the ignored label included (Chainer 7)
    y = numpy.eye(4, dtype=numpy.float32)[[0, 1, 3, 2]]
    t = numpy.array([0, 1, 3, 3], numpy.int32)
    p, r, f, s = F.classification_summary(y, t, ignore_label=3)
    numpy.testing.assert_array_equal(s.array, [1, 1, 0, 0])
    numpy.testing.assert_array_equal(p.array, [1, 1, numpy.nan, numpy.nan])
    numpy.testing.assert_array_equal(r.array, [1, 1, numpy.nan, numpy.nan])
    r, s = F.recall(y[:2], numpy.array([-1, 1], numpy.int32))
    assert r.shape == (2,)


def test_classification_summary_edges_and_errors(fc):
    y = fc.uniform((5, 3), numpy.float32)
    t = numpy.array([0, 1, 2, 1, 0], numpy.int32)
    a = F.classification_summary(fc.noncontiguous(y), t)
    b = F.classification_summary(y, t)
    for u, v in zip(a, b):
        numpy.testing.assert_array_equal(u.array, v.array)
    p, r, f, s = F.classification_summary(y, t, label_num=5)
    assert p.shape == (5,)
    numpy.testing.assert_array_equal(s.array, [2, 2, 1, 0, 0])
    assert numpy.isnan(r.array[3])
    p, r, f, s = F.classification_summary(numpy.zeros((0, 3), 'f'), numpy.zeros(0, 'i'),
                                          label_num=3)
    numpy.testing.assert_array_equal(s.array, [0, 0, 0])
    assert not F.classification_summary(chainer.Variable(y), t)[0].requires_grad
    with pytest.raises(InvalidType):
        F.classification_summary(y, t[:3])
    with pytest.raises(InvalidType):
        F.classification_summary(y, t.astype(numpy.float32))
    with pytest.raises(ValueError):
        F.classification_summary(y, numpy.array([0, 1, -2, 1, 0], numpy.int32))


# -- r2_score ---------------------------------------------------------------------------

def _r2_ref(p, t):
    p, t = p.astype('d'), t.astype('d')
    res = ((p - t) ** 2).sum(axis=0)
    tot = ((t - t.mean(axis=0)) ** 2).sum(axis=0)
    return numpy.where(tot == 0, 0.0, 1 - res / numpy.where(tot == 0, 1, tot))


@pytest.mark.parametrize('shape', [(10,), (10, 3), (6, 2, 2)])
def test_r2_score(fc, dtype, shape):
    t = fc.uniform(shape, dtype)
    p = (t + fc.uniform(shape, dtype, -0.3, 0.3)).astype(dtype)
    ref = _r2_ref(p, t)
    tol = 1e-2 if dtype == numpy.float16 else 1e-5
    raw = F.r2_score(p, t, multioutput='raw_values')
    assert raw.shape == shape[1:] and raw.dtype == dtype
    numpy.testing.assert_allclose(raw.array, ref, rtol=tol, atol=tol)
    avg = F.r2_score(p, t)
    assert avg.shape == () and avg.dtype == dtype
    assert float(avg.array) == pytest.approx(ref.mean(), rel=tol, abs=tol)


def test_r2_score_edges_and_errors(fc):
    t = fc.uniform((5, 2), numpy.float32)
    assert float(F.r2_score(t, t).array) == pytest.approx(1)
    assert float(F.r2_score(fc.noncontiguous(t), t).array) == pytest.approx(1)
    const = numpy.ones((5, 2), numpy.float32)
    numpy.testing.assert_array_equal(F.r2_score(t, const, multioutput='raw_values').array,
                                     [0, 0])
    assert not F.r2_score(chainer.Variable(t), t).requires_grad
    with pytest.raises(NotImplementedError):
        F.r2_score(t, t, sample_weight=numpy.ones(5))
    with pytest.raises(ValueError):
        F.r2_score(t, t, multioutput='variance_weighted')
    with pytest.raises(InvalidType):
        F.r2_score(t, t[:3])
    with pytest.raises(InvalidType):
        F.r2_score(t, t.astype(numpy.float64))
    with pytest.raises(InvalidType):
        F.r2_score(t.astype(numpy.int32), t.astype(numpy.int32))


@pytest.mark.gpu
def test_evaluation_gpu(fc):
    cupy = pytest.importorskip('cupy')
    y = fc.uniform((20, 3), numpy.float32)
    t = numpy.random.randint(-1, 3, 20).astype(numpy.int32)
    yg, tg = cupy.asarray(y), cupy.asarray(t)
    assert float(F.accuracy(yg, tg, ignore_label=-1).array) == pytest.approx(
        float(F.accuracy(y, t, ignore_label=-1).array))
    for a, b in zip(F.classification_summary(yg, tg), F.classification_summary(y, t)):
        numpy.testing.assert_allclose(cupy.asnumpy(a.array), b.array, rtol=1e-6)
    tb = (y > 0).astype(numpy.int32)
    assert float(F.binary_accuracy(yg, cupy.asarray(tb)).array) == 1
    numpy.testing.assert_allclose(cupy.asnumpy(F.r2_score(yg, yg * 0.9).array),
                                  F.r2_score(y, y * 0.9).array, rtol=1e-5)
