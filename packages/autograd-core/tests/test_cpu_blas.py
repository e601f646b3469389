"""chainer._cpu_blas: products on held BLAS threads and blocks on the worker pool."""

import multiprocessing
import sys
import threading

import numpy
import pytest

from chainer import _cpu_blas, _threads


class _CountingPool(_threads.Pool):
    """A pool that counts the products it was given."""

    def __init__(self, workers):
        super().__init__(workers)
        self.runs = 0

    def run(self, jobs, threads=None):
        self.runs += 1
        super().run(jobs, threads)


class _FakeControl(_cpu_blas._Control):
    """A control without a BLAS (hold/release do nothing) that applies, so that the
    block path runs on any machine."""

    def __init__(self, pool):
        self.lock = threading.Lock()
        self.libraries = []
        self.applies = True
        self.pool = pool
        self.threaded_at = -1e9

    def hold(self):
        return [self.pool.workers + 1]


@pytest.fixture
def blocks(monkeypatch):
    """Route dot through two blocks (one worker) on any machine."""
    pool = _CountingPool(1)
    control = _FakeControl(pool)
    monkeypatch.setattr(_cpu_blas, '_control', control)
    monkeypatch.setattr(_threads, 'pool', lambda: pool)
    return control


def _pair(m, k, n, dtype=numpy.float32, seed=0):
    rng = numpy.random.default_rng(seed)
    return (rng.standard_normal((m, k)).astype(dtype),
            rng.standard_normal((k, n)).astype(dtype))


def _check(a, b):
    y = _cpu_blas.dot(a, b)
    expected = a.dot(b)
    assert y.shape == expected.shape and y.dtype == expected.dtype
    assert y.flags.c_contiguous
    tol = 1e-5 if a.dtype == numpy.float32 else 1e-12
    numpy.testing.assert_allclose(y, expected, rtol=tol, atol=tol * numpy.abs(expected).max())
    return y


# (m, k, n) for each way a product runs: below OpenBLAS's own threading, one thread,
# OpenBLAS's threads, blocks of rows, blocks of columns, a result too narrow to cut
SHAPES = [(8, 32, 32), (64, 64, 128), (20, 200, 800), (1000, 100, 784),
          (100, 784, 1000), (16, 100000, 24)]


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_dot_equals_numpy(shape, dtype):
    _check(*_pair(*shape, dtype=dtype))


@pytest.mark.parametrize('shape', SHAPES)
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64])
def test_dot_blocks_equal_numpy(blocks, shape, dtype):
    _check(*_pair(*shape, dtype=dtype))


def test_large_products_run_as_blocks_of_rows_and_of_columns(blocks):
    _check(*_pair(1000, 100, 784))  # rows
    _check(*_pair(100, 784, 1000))  # columns
    assert blocks.pool.runs == 2


@pytest.mark.parametrize('layout', ['transposed', 'fortran', 'sliced', 'strided'])
def test_dot_blocks_on_every_layout(blocks, layout):
    a, b = _pair(300, 400, 500)
    if layout == 'transposed':
        a, b = numpy.ascontiguousarray(a.T).T, numpy.ascontiguousarray(b.T).T
    elif layout == 'fortran':
        a, b = numpy.asfortranarray(a), numpy.asfortranarray(b)
    elif layout == 'sliced':  # rows longer than the matrix: BLAS's leading dimension
        a = numpy.pad(a, ((0, 0), (0, 7)))[:, :400]
    else:  # no contiguous axis: NumPy's own path
        a = numpy.repeat(a, 2, axis=1)[:, ::2]
    _check(a, b)


def test_dot_falls_back_for_mixed_and_integer_dtypes(blocks):
    a, b = _pair(300, 400, 500)
    _check(a, b.astype(numpy.float64))
    ai, bi = (a * 10).astype(numpy.int64), (b * 10).astype(numpy.int64)
    assert numpy.array_equal(_cpu_blas.dot(ai, bi), ai.dot(bi))
    assert blocks.pool.runs == 0


@pytest.mark.parametrize('shape', [(0, 500, 500), (500, 0, 500), (500, 500, 0)])
def test_dot_of_empty_matrices(blocks, shape):
    a, b = _pair(*shape)
    y = _cpu_blas.dot(a, b)
    assert y.shape == (shape[0], shape[2])
    assert not y.any()


def test_mid_sized_products_leave_large_ones_to_openblas_while_it_spins(blocks):
    _check(*_pair(20, 200, 800))  # mid-sized: OpenBLAS's own threads
    assert blocks.pool.runs == 0
    assert blocks.threaded_at > 0
    _check(*_pair(100, 784, 1000))  # large, but OpenBLAS's workers may still spin
    assert blocks.pool.runs == 0
    blocks.threaded_at = -1e9  # long after: blocks again
    _check(*_pair(100, 784, 1000))
    assert blocks.pool.runs == 1


@pytest.mark.parametrize('layout', ['narrow', 'strided'])
def test_large_products_that_cannot_be_cut_go_to_openblas_threads(blocks, layout):
    if layout == 'narrow':  # a 32x27 result: too narrow for two blocks
        a, b = _pair(32, 40000, 27)
    else:
        a, b = _pair(300, 400, 500)
        a = numpy.repeat(a, 2, axis=1)[:, ::2]
    _check(a, b)
    assert blocks.pool.runs == 0
    assert blocks.threaded_at > 0


def test_small_products_do_not_mark_openblas_threads(blocks):
    _check(*_pair(64, 64, 128))
    assert blocks.threaded_at < 0


def test_concurrent_callers_get_their_own_products(blocks):
    pairs = [_pair(100, 784, 1000, seed=s) for s in range(6)]
    results = [None] * len(pairs)

    def work(i):
        for _ in range(3):
            results[i] = _cpu_blas.dot(*pairs[i])

    threads = [threading.Thread(target=work, args=(i,)) for i in range(len(pairs))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for (a, b), y in zip(pairs, results):
        numpy.testing.assert_allclose(y, a.dot(b), rtol=1e-5, atol=1e-3)


def _real_control():
    control = _cpu_blas._get_control()
    if not control.libraries:
        pytest.skip('threadpoolctl finds no BLAS in this process')
    return control


def _counts(control):
    return [lib.num_threads for lib in control.libraries]


def test_openblas_thread_counts_are_given_back():
    control = _real_control()
    before = _counts(control)
    for shape in SHAPES:
        _check(*_pair(*shape))
    with _cpu_blas.one_thread():
        if control.applies:
            assert _counts(control) == [1] * len(control.libraries)
    with pytest.raises(RuntimeError), _cpu_blas.one_thread():
        raise RuntimeError
    assert _counts(control) == before
    assert not control.lock.locked()


def test_one_thread_inside_one_thread_does_nothing():
    control = _real_control()
    if not control.applies:
        pytest.skip('the blocking policy does not apply to this BLAS here')
    before = _counts(control)
    with _cpu_blas.one_thread():
        with _cpu_blas.one_thread():  # the lock is taken: a plain block
            _check(*_pair(100, 784, 1000))
        assert _counts(control) == [1] * len(control.libraries)
    assert _counts(control) == before


def _product_sum(seed):
    a, b = _pair(100, 784, 1000, seed=seed)
    return float(numpy.abs(_cpu_blas.dot(a, b) - a.dot(b)).max())


@pytest.mark.skipif(not sys.platform.startswith('linux'), reason='fork start method')
@pytest.mark.filterwarnings('ignore:This process .* is multi-threaded')  # Python 3.12+
def test_dot_works_in_a_forked_child():
    _cpu_blas.dot(*_pair(100, 784, 1000))  # the parent has started its workers
    with multiprocessing.get_context('fork').Pool(1) as pool:
        assert pool.apply(_product_sum, (3,)) < 1e-3
