"""PickleDataset and TextDataset."""

import io
import multiprocessing
import pickle
import sys

import pytest

from chainer.datasets import (
    PickleDataset,
    PickleDatasetWriter,
    TextDataset,
    open_pickle_dataset,
    open_pickle_dataset_writer,
)


def test_pickle_dataset_round_trip(tmp_path):
    path = tmp_path / 'data.pkl'
    with open_pickle_dataset_writer(path) as writer:
        for example in ({'a': 1}, [1, 2], 'text', None):
            writer.write(example)
    with open_pickle_dataset(path) as ds:
        assert len(ds) == 4
        assert ds[1] == [1, 2] and ds[3] is None and ds[0] == {'a': 1}
        restored = pickle.loads(pickle.dumps(ds))
        assert restored[2] == 'text'
        restored.close()


def test_pickle_dataset_on_a_stream():
    stream = io.BytesIO()
    writer = PickleDatasetWriter(stream)
    writer.write(3.5)
    writer.flush()
    assert PickleDataset(stream)[0] == 3.5


def _read_in_child(ds, queue):
    queue.put([ds[i] for i in range(len(ds))])


@pytest.mark.skipif(sys.platform != 'linux', reason='fork')
def test_pickle_dataset_in_a_forked_process(tmp_path):
    path = tmp_path / 'data.pkl'
    with open_pickle_dataset_writer(path) as writer:
        for i in range(5):
            writer.write(i * i)
    ds = open_pickle_dataset(path)
    ctx = multiprocessing.get_context('fork')
    queue = ctx.Queue()
    process = ctx.Process(target=_read_in_child, args=(ds, queue))
    process.start()
    assert queue.get(timeout=30) == [0, 1, 4, 9, 16]
    process.join()
    assert ds[4] == 16  # the parent's file offset was not disturbed
    ds.close()


def write(path, text, encoding='utf-8'):
    path.write_bytes(text.encode(encoding))
    return str(path)


def test_text_dataset_lines(tmp_path):
    one = write(tmp_path / 'a.txt', 'first\r\nsecond\n\nlast')
    ds = TextDataset(one)
    assert len(ds) == 4
    assert ds[0] == 'first\n' and ds[2] == '\n' and ds[3] == 'last'
    raw = TextDataset(one, newline='')
    assert raw[0] == 'first\r\n'
    ds.close()
    with pytest.raises(ValueError):
        ds[0]


def test_text_dataset_several_files_filter_and_pickle(tmp_path):
    a = write(tmp_path / 'a.txt', 'x\ny\nz\n')
    b = write(tmp_path / 'b.txt', '1\n2\n3\n', 'utf-16')
    ds = TextDataset([a, b], encoding=['utf-8', 'utf-16'],
                     filter_func=lambda s, t: t != '2\n')
    assert len(ds) == 2 and ds[1] == ('z\n', '3\n')
    restored = pickle.loads(pickle.dumps(TextDataset([a, b], encoding=['utf-8', 'utf-16'])))
    assert restored[1] == ('y\n', '2\n')
    with pytest.raises(ValueError, match='numbers of lines'):
        TextDataset([a, write(tmp_path / 'c.txt', 'only\n')])
    with pytest.raises(ValueError, match='encoding'):
        TextDataset([a, b], encoding=['utf-8'])


@pytest.mark.skipif(sys.platform != 'linux', reason='fork')
def test_text_dataset_in_worker_processes(tmp_path):
    from chainer.iterators import MultiprocessIterator

    lines = [f'line {i}\n' for i in range(50)]
    ds = TextDataset(write(tmp_path / 'lines.txt', ''.join(lines)))
    it = MultiprocessIterator(ds, 10, shuffle=False, n_processes=2)
    for k in range(5):
        assert ds[49 - k] == lines[49 - k]  # the parent reads meanwhile
        assert it.next() == lines[10 * k:10 * k + 10]
    it.finalize()
