"""MultiprocessIterator: same batches as SerialIterator, errors and dead workers surface,
no process is left behind."""

import copy
import os
import pickle
import signal
import subprocess
import sys
import textwrap
import time

import numpy
import pytest
from _datasets_serial import DictReader, DictWriter

from chainer.datasets import TransformDataset, TupleDataset
from chainer.iterators import (
    MultiprocessIterator,
    MultithreadIterator,
    SerialIterator,
    ShuffleOrderSampler,
)
from chainer.iterators.multiprocess_iterator import TimeoutWarning, WorkerProcessError

pytestmark = pytest.mark.skipif(sys.platform == 'win32', reason='counts processes on POSIX')


def alive(pid):
    """Whether ``pid`` is a running (not zombie) process."""
    try:
        with open(f'/proc/{pid}/stat') as f:
            return f.read().split(')')[-1].split()[0] != 'Z'
    except FileNotFoundError:
        return False
    except OSError:  # no /proc: fall back on signal 0
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            return False
        return True


def children():
    """Process ids of the live children of this process (Linux)."""
    result = []
    if not os.path.isdir('/proc'):
        return result
    me = str(os.getpid())
    for entry in os.listdir('/proc'):
        if entry.isdigit():
            try:
                with open(f'/proc/{entry}/stat') as f:
                    fields = f.read().split(')')[-1].split()
            except OSError:
                continue
            if fields[1] == me and fields[0] != 'Z':
                result.append(int(entry))
    return result


def sampler(seed):
    return ShuffleOrderSampler(numpy.random.RandomState(seed))


@pytest.mark.parametrize('n_prefetch, shared_mem', [(1, None), (3, 4096)])
def test_same_batches_as_serial_iterator(n_prefetch, shared_mem):
    data = [numpy.full((3,), i, numpy.float32) for i in range(11)]
    serial = SerialIterator(data, 4, order_sampler=sampler(0))
    it = MultiprocessIterator(data, 4, order_sampler=sampler(0), n_processes=2,
                              n_prefetch=n_prefetch, shared_mem=shared_mem)
    for _ in range(7):
        expected, got = serial.next(), it.next()
        numpy.testing.assert_array_equal(numpy.stack(got), numpy.stack(expected))
        assert (it.epoch, it.is_new_epoch, it.current_position) == \
            (serial.epoch, serial.is_new_epoch, serial.current_position)
        assert it.epoch_detail == pytest.approx(serial.epoch_detail)
        assert it.previous_epoch_detail == pytest.approx(serial.previous_epoch_detail)
    it.finalize()


def test_tuples_dicts_and_shared_memory_round_trip():
    data = [{'x': numpy.arange(6).reshape(2, 3) + i, 'y': (i, numpy.float64(i) / 2)}
            for i in range(5)]
    it = MultiprocessIterator(data, 5, shuffle=False, n_processes=2, shared_mem=256)
    batch = it.next()
    for i, example in enumerate(batch):
        numpy.testing.assert_array_equal(example['x'], data[i]['x'])
        assert example['y'] == data[i]['y']
    it.finalize()


def test_shared_memory_too_small_falls_back_with_a_warning():
    data = [numpy.ones(100) * i for i in range(4)]
    it = MultiprocessIterator(data, 2, shuffle=False, n_processes=1, shared_mem=64)
    with pytest.warns(RuntimeWarning, match='shared_mem'):
        batch = it.next()
    numpy.testing.assert_array_equal(batch[1], data[1])
    it.finalize()


def test_unpicklable_dataset_and_repeat_false():
    dataset = TransformDataset(list(range(7)), lambda x: x * 10)  # a lambda: no pickling
    it = MultiprocessIterator(dataset, 3, repeat=False, shuffle=False, n_processes=2)
    assert list(it) == [[0, 10, 20], [30, 40, 50], [60]]
    with pytest.raises(StopIteration):
        it.next()
    it.finalize()


class Failing:
    def __init__(self, bad):
        self.bad = bad

    def __len__(self):
        return 6

    def __getitem__(self, i):
        if i == self.bad:
            raise KeyError(f'example {i} is broken')
        return i


def test_dataset_error_is_raised_in_the_main_process():
    it = MultiprocessIterator(Failing(4), 2, shuffle=False, n_processes=2)
    assert it.next() == [0, 1]
    assert it.next() == [2, 3]
    with pytest.raises(KeyError, match='example 4 is broken') as info:
        it.next()
    assert 'Traceback' in str(info.value.__cause__)  # the worker's traceback
    assert it.epoch_detail == pytest.approx(4 / 6)  # the failed batch was not consumed
    it.dataset.bad = None  # the forked workers still see the old dataset
    with pytest.raises(KeyError):
        it.next()
    it.finalize()


class Dying:
    def __len__(self):
        return 8

    def __getitem__(self, i):
        if i == 5:
            os.kill(os.getpid(), signal.SIGKILL)
        return i


def test_a_dead_worker_is_an_error_not_a_hang():
    before = set(children())
    it = MultiprocessIterator(Dying(), 4, shuffle=False, n_processes=2)
    assert it.next() == [0, 1, 2, 3]
    start = time.monotonic()
    with pytest.raises(WorkerProcessError, match='SIGKILL'):
        it.next()
    assert time.monotonic() - start < 10
    assert set(children()) <= before  # the other workers were stopped too
    it.finalize()


def test_finalize_leaves_no_process_behind():
    before = set(children())
    it = MultiprocessIterator(list(range(100)), 10, n_processes=3, n_prefetch=2)
    it.next()
    pids = it.worker_pids()
    assert len(pids) == 3 and set(pids) <= set(children())
    it.finalize()
    assert not any(alive(pid) for pid in pids)
    assert set(children()) <= before
    it.finalize()  # twice is fine
    with pytest.raises(RuntimeError, match='finalized'):
        it.next()
    with pytest.raises(NotImplementedError):
        it.reset()


class Sleeping:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        time.sleep(1000)


def test_finalize_stops_workers_stuck_in_the_dataset():
    it = MultiprocessIterator(Sleeping(), 2, n_processes=2, dataset_timeout=None)
    it._start()
    it._started = True
    it._plan()  # the workers are now sleeping in __getitem__
    pids = it.worker_pids()
    start = time.monotonic()
    it.finalize()
    assert time.monotonic() - start < 5
    assert not any(alive(pid) for pid in pids)


def test_garbage_collected_iterator_stops_its_workers():
    it = MultiprocessIterator(list(range(10)), 2, n_processes=2)
    it.next()
    pids = it.worker_pids()
    del it
    assert not any(alive(pid) for pid in pids)


def test_workers_exit_when_the_main_process_is_killed(tmp_path):
    script = textwrap.dedent('''
        import os, signal, sys
        from chainer.iterators import MultiprocessIterator
        it = MultiprocessIterator(list(range(100)), 10, n_processes=2)
        it.next()
        print(' '.join(map(str, it.worker_pids())), flush=True)
        os.kill(os.getpid(), signal.SIGKILL)
    ''')
    out = subprocess.run([sys.executable, '-c', script], capture_output=True, text=True)
    pids = [int(p) for p in out.stdout.split()]
    assert len(pids) == 2
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not any(alive(pid) for pid in pids)


class Stalling:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        if i == 2:
            time.sleep(0.5)
        return i


def test_dataset_timeout_warns_and_keeps_waiting():
    it = MultiprocessIterator(Stalling(), 2, shuffle=False, n_processes=1,
                              dataset_timeout=0.1)
    assert it.next() == [0, 1]
    with pytest.warns(TimeoutWarning, match='dataset_timeout'):
        assert it.next() == [2, 3]
    assert MultiprocessIterator.TimeoutWarning is TimeoutWarning
    it.finalize()


def test_maxtasksperchild_replaces_workers():
    it = MultiprocessIterator(list(range(12)), 4, shuffle=False, n_processes=2,
                              maxtasksperchild=2)
    seen = set()
    batches = []
    for _ in range(6):
        batches.append(it.next())
        seen.update(it.worker_pids())
    assert batches[:3] == [[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11]]
    assert len(seen) > 2
    it.finalize()


def test_snapshot_resumes_mid_epoch():
    data = list(range(10))
    reference = SerialIterator(data, 3, order_sampler=sampler(5))
    expected = [reference.next() for _ in range(6)]
    it = MultiprocessIterator(data, 3, order_sampler=sampler(5), n_processes=2, n_prefetch=2)
    assert [it.next() for _ in range(2)] == expected[:2]
    store = {}
    it.serialize(DictWriter(store))
    it.finalize()
    for kind in (MultiprocessIterator, MultithreadIterator, SerialIterator):
        resumed = kind(data, 3, order_sampler=sampler(99))
        resumed.serialize(DictReader(store))
        assert resumed.epoch_detail == pytest.approx(0.6)
        assert [resumed.next() for _ in range(4)][:2] == expected[2:4]
        resumed.finalize()


def test_loading_a_snapshot_drops_prefetched_batches():
    data = list(range(8))
    it = MultiprocessIterator(data, 2, shuffle=False, n_processes=2, n_prefetch=3)
    assert it.next() == [0, 1]  # batches [2, 3] ... are being read ahead
    store = {}
    SerialIterator(data, 2, shuffle=False).serialize(DictWriter(store))  # position 0
    it.serialize(DictReader(store))
    assert it.next() == [0, 1]
    it.reset()
    assert it.next() == [0, 1] and it.next() == [2, 3]
    it.finalize()


def test_copy_and_pickle_keep_the_position_without_workers():
    it = MultiprocessIterator(list(range(6)), 2, shuffle=False, n_processes=2)
    it.next()
    copied = copy.copy(it)
    restored = pickle.loads(pickle.dumps(it))
    assert copied.worker_pids() == [] and restored.worker_pids() == []
    assert it.next() == copied.next() == restored.next() == [2, 3]
    for each in (it, copied, restored):
        each.finalize()


def test_bad_arguments():
    with pytest.raises(ValueError, match='n_processes'):
        MultiprocessIterator([1], 1, n_processes=0)
    with pytest.raises(ValueError, match='n_prefetch'):
        MultiprocessIterator([1], 1, n_prefetch=0)
    with pytest.raises(ValueError, match='shared_mem'):
        MultiprocessIterator([1], 1, shared_mem=-1)
    with pytest.raises(ValueError, match='empty'):
        MultiprocessIterator([], 1)
    with pytest.raises(ValueError, match='order_sampler'):
        MultiprocessIterator([1], 1, shuffle=True, order_sampler=sampler(0))


def test_tuple_dataset_batches():
    x = numpy.arange(20, dtype=numpy.float32).reshape(10, 2)
    t = numpy.arange(10, dtype=numpy.int32)
    it = MultiprocessIterator(TupleDataset(x, t), 4, shuffle=False, n_processes=2,
                              shared_mem=64)
    batch = it.next()
    assert [int(b[1]) for b in batch] == [0, 1, 2, 3]
    numpy.testing.assert_array_equal(batch[3][0], x[3])
    it.finalize()


class Unpicklable:
    def __len__(self):
        return 4

    def __getitem__(self, i):
        return (lambda: i) if i == 3 else i


def test_an_example_that_cannot_be_sent_is_an_error():
    it = MultiprocessIterator(Unpicklable(), 2, shuffle=False, n_processes=1)
    assert it.next() == [0, 1]
    with pytest.raises(Exception, match='pickle|lambda'):
        it.next()
    it.finalize()
