"""chainer._threads: the one pool of CPU worker threads and the thread count."""

import threading

import numpy
import pytest

from chainer import _threads


def test_jobs_run_once_each_and_errors_reach_the_caller_after_the_others():
    pool = _threads.Pool(2)
    out = numpy.zeros(3)

    def fail():
        raise ValueError('bad job')

    with pytest.raises(ValueError, match='bad job'):
        pool.run([lambda: numpy.copyto(out[:1], 1.0), fail,
                  lambda: numpy.copyto(out[2:], 3.0)])
    assert out[0] == 1.0 and out[2] == 3.0  # the other jobs finished before the raise
    pool.run([lambda: numpy.copyto(out, 5.0), lambda: None])  # the pool goes on
    assert (out == 5.0).all()


def test_an_error_of_the_calling_thread_waits_for_the_workers():
    pool = _threads.Pool(1)
    out = numpy.zeros(2)
    with pytest.raises(ZeroDivisionError):
        pool.run([lambda: 1 / 0, lambda: numpy.copyto(out, 2.0)])
    assert (out == 2.0).all()


def test_jobs_spread_over_the_threads_asked_for():
    pool = _threads.Pool(3)
    seen = set()
    barrier = threading.Barrier(2, timeout=10)

    def job():
        seen.add(threading.current_thread().name)
        barrier.wait()  # two jobs must run at once to pass

    pool.run([job, job], threads=2)
    assert len(seen) == 2
    ran = []
    pool.run([lambda i=i: ran.append(i) for i in range(50)], threads=1)  # the caller only
    assert ran == list(range(50))


def test_a_pool_without_workers_runs_jobs_in_order():
    ran = []
    _threads.Pool(0).run([lambda i=i: ran.append(i) for i in range(5)])
    assert ran == [0, 1, 2, 3, 4]


@pytest.mark.parametrize('chainer_env, omp_env, expected', [
    ('3', '', 3), ('1', '8', 1), ('', '1', 1), ('', '', None), ('x', '', None),
    ('0', '', None), ('', '64', None),
])
def test_thread_count_settings(monkeypatch, chainer_env, omp_env, expected):
    monkeypatch.setenv('CHAINER_CPU_THREADS', chainer_env)
    monkeypatch.setenv('OMP_NUM_THREADS', omp_env)
    n = _threads.thread_count()
    assert n == (expected if expected is not None else _threads.cpu_count())


def test_blas_libraries_come_from_threadpoolctl():
    libs = _threads.blas_libraries()
    numpy.ones((64, 64)) @ numpy.ones((64, 64))  # NumPy's BLAS is loaded by now anyway
    for lib in libs:
        assert lib.user_api == 'blas' and lib.num_threads >= 1
