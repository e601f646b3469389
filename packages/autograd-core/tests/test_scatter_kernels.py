"""The compiled scatter-add of rows (an embedding's gradient) gives NumPy's add.at numbers
bit for bit."""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import _deferred_grad

pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')


def _embed_grad(mode, x, W, gy, ignore_label):
    Wv = chainer.Variable(W.copy())
    with chainer.using_config('use_numba', mode):
        y = F.embed_id(x, Wv, ignore_label=ignore_label)
        y.grad = gy
        y.backward()
    return Wv.grad


@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
@pytest.mark.parametrize('x_shape', [(0,), (1,), (7,), (35, 20)])
@pytest.mark.parametrize('ignore_label', [None, 3])
def test_embed_id_gradient_is_bit_identical(dtype, x_shape, ignore_label):
    rng = numpy.random.default_rng(0)
    x = rng.integers(0, 10, x_shape).astype(numpy.int32)  # many repeated IDs
    W = rng.standard_normal((10, 5)).astype(dtype)
    gy = rng.standard_normal(x_shape + (5,)).astype(dtype)
    if gy.size > 4:
        gy.flat[::4] = -0.0
        gy.flat[1::9] = numpy.inf
    ref = _embed_grad('never', x, W, gy, ignore_label)
    got = _embed_grad('always', x, W, gy, ignore_label)
    assert got.dtype == ref.dtype
    assert got.tobytes() == ref.tobytes()


@pytest.mark.parametrize('ids', [[0, -1, 2, -1, 0], [3, 1, 3], []])
def test_scatter_rows_matches_add_at(ids):
    rng = numpy.random.default_rng(1)
    ids = numpy.array(ids, numpy.int64)
    rows = rng.standard_normal((len(ids), 8)).astype(numpy.float32)
    strided = numpy.repeat(rows, 2, axis=1)[:, ::2]  # not contiguous
    with chainer.using_config('use_numba', 'always'):
        got = _deferred_grad.scatter_rows((4, 8), numpy.float32, ids, strided)
    ref = numpy.zeros((4, 8), numpy.float32)
    numpy.add.at(ref, ids, rows)
    assert got.tobytes() == ref.tobytes()


def test_out_of_range_ids_raise_as_numpy(monkeypatch):
    from chainer import _scatter_kernels
    calls = []
    real = _scatter_kernels.add_rows
    monkeypatch.setattr(_scatter_kernels, 'add_rows', lambda *a: calls.append(1) or real(*a))
    rows = numpy.ones((2, 3), numpy.float32)
    with chainer.using_config('use_numba', 'always'):
        out = _deferred_grad.scatter_rows((4, 3), numpy.float32, numpy.array([1, 1]), rows)
        assert calls and out[1].tolist() == [2, 2, 2]
        for bad in ([0, 4], [-5, 0]):
            with pytest.raises(IndexError):
                _deferred_grad.scatter_rows((4, 3), numpy.float32, numpy.array(bad), rows)
