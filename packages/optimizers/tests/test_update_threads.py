"""The fused update's jobs on several threads (chainer.optimizers._update_threads)."""

import threading

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import _fused_update, _update_threads


def _link(seed=0):
    rng = numpy.random.default_rng(seed)
    link = chainer.Link()
    with link.init_scope():
        # two parameters of several chunks each, and small ones packed together
        link.a = chainer.Parameter(rng.standard_normal(3 * _fused_update.CHUNK + 5,
                                                       dtype=numpy.float32))
        link.b = chainer.Parameter(rng.standard_normal((2, _fused_update.CHUNK),
                                                       dtype=numpy.float32))
        for i in range(5):
            setattr(link, f's{i}', chainer.Parameter(
                rng.standard_normal((7, 3), dtype=numpy.float32)))
    return link


def _trained(threads, monkeypatch, steps=3):
    monkeypatch.setattr(_update_threads, 'thread_count', lambda: threads)
    link = _link()
    opt = optimizers.Adam(alpha=0.01)
    opt.setup(link)
    rng = numpy.random.default_rng(1)
    for _ in range(steps):
        for p in link.params():
            p.grad = rng.standard_normal(p.shape, dtype=numpy.float32)
        opt.update()
    return link


def test_threaded_update_equals_the_single_thread_one_to_the_bit(monkeypatch):
    single = _trained(1, monkeypatch)
    threaded = _trained(4, monkeypatch)
    for (name, p), (_, q) in zip(sorted(single.namedparams()),
                                 sorted(threaded.namedparams()), strict=True):
        numpy.testing.assert_array_equal(p.array, q.array, err_msg=name)
        for key in ('m', 'v'):
            numpy.testing.assert_array_equal(p.update_rule.state[key],
                                             q.update_rule.state[key], err_msg=name)


def test_jobs_run_once_each_on_several_threads():
    seen = []
    lock = threading.Lock()
    barrier = threading.Barrier(2, timeout=10)

    def job(index):
        def run(temps):
            if index < 2:
                barrier.wait()  # the first two jobs meet: two threads are running
            with lock:
                seen.append((index, threading.get_ident()))
        return run

    if _update_threads.thread_count() < 2:
        pytest.skip('this machine gives the update one thread')
    _update_threads.run([job(i) for i in range(40)], 16)
    assert sorted(i for i, _ in seen) == list(range(40))
    assert len({t for _, t in seen}) >= 2


def test_temps_are_per_thread_and_of_the_dtypes_asked():
    got = []

    def job(temps):
        a, b = temps((numpy.float32, numpy.float64))
        got.append((a.dtype, b.dtype, a.size, b.size))

    _update_threads.run([job], 8)
    assert got == [(numpy.float32, numpy.float64, 8, 8)]


def test_an_error_in_a_job_is_raised_after_the_other_jobs_ran(monkeypatch):
    monkeypatch.setattr(_update_threads, 'thread_count', lambda: 3)
    ran = []

    def job(i):
        def run(temps):
            if i == 5:
                raise ValueError('bad chunk 5')
            ran.append(i)
        return run

    with pytest.raises(ValueError, match='bad chunk 5'):
        _update_threads.run([job(i) for i in range(20)], 4)
    assert sorted(ran) == [i for i in range(20) if i != 5]


@pytest.mark.parametrize('env, expected', [('1', 1), ('3', 3), ('', None), ('x', None)])
def test_thread_count_follows_chainer_cpu_threads(monkeypatch, env, expected):
    monkeypatch.setenv('CHAINER_CPU_THREADS', env)
    monkeypatch.delenv('OMP_NUM_THREADS', raising=False)
    n = _update_threads.thread_count()
    assert n == (expected if expected is not None else chainer.internal.cpu_thread_count())
    assert n >= 1


def test_updates_run_on_the_projects_one_pool(monkeypatch):
    names = set()
    monkeypatch.setenv('CHAINER_CPU_THREADS', '2')

    def job(temps):
        names.add(threading.current_thread().name)

    _update_threads.run([job] * 64, 4)
    assert names <= {threading.current_thread().name} | {
        f'chainer-cpu-{i}' for i in range(64)}
