"""DaliIterator: a clear error without NVIDIA DALI; the batch bookkeeping with a stand-in
pipeline shaped like DALI's (build, run, epoch_size, TensorList.as_cpu/at)."""

import sys
import types

import numpy
import pytest

from chainer.iterators import DaliIterator


def test_without_dali_the_error_says_what_is_missing(monkeypatch):
    monkeypatch.setitem(sys.modules, 'nvidia.dali', None)  # makes the import fail
    with pytest.raises(RuntimeError, match='NVIDIA DALI'):
        DaliIterator(object())


class FakeTensorList:
    def __init__(self, arrays, on_gpu):
        self.arrays = arrays
        self.on_gpu = on_gpu

    def as_cpu(self):
        return FakeTensorList(self.arrays, False)

    def __len__(self):
        return len(self.arrays)

    def at(self, i):
        assert not self.on_gpu
        return self.arrays[i]


class FakePipeline:
    max_batch_size = 2

    def __init__(self):
        self.built = False
        self.counter = 0

    def build(self):
        self.built = True

    def epoch_size(self):
        return {'Reader': 5}

    def run(self):
        images, labels = [], []
        for _ in range(self.max_batch_size):
            images.append(numpy.full((2, 2), self.counter))
            labels.append(numpy.array([self.counter % 5]))
            self.counter += 1
        return FakeTensorList(images, True), FakeTensorList(labels, False)


def test_batches_and_epochs(monkeypatch):
    nvidia = types.ModuleType('nvidia')
    nvidia.dali = types.ModuleType('nvidia.dali')
    monkeypatch.setitem(sys.modules, 'nvidia', nvidia)
    monkeypatch.setitem(sys.modules, 'nvidia.dali', nvidia.dali)
    pipeline = FakePipeline()
    it = DaliIterator(pipeline, repeat=False)
    assert pipeline.built and it.batch_size == 2
    batch = it.next()
    assert len(batch) == 2 and batch[1][0].shape == (2, 2) and int(batch[1][1][0]) == 1
    assert it.epoch_detail == pytest.approx(0.4) and it.previous_epoch_detail == 0.0
    it.next()
    it.next()
    assert it.is_new_epoch and it.epoch == 1
    with pytest.raises(StopIteration):
        it.next()
