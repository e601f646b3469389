"""Throughput of the dataset iterators with a transform of 5 ms per example.

Usage: ``python tools/bench/iterators.py [--ms 5] [--batches 30] [--batch-size 32]``

Each example is a 3x32x32 float32 image; the transform crops and flips it and then works
for ``--ms`` milliseconds: ``--work cpu`` computes until its thread has used that much CPU
time (so threads share one core under the GIL, and a loaded machine slows it down);
``--work sleep`` waits that long, like I/O or code that releases the GIL. The consumer
does nothing with the batches, so the figure is the iterator's own rate: examples per
second over ``--batches`` batches, after one warm-up batch (which also starts the
workers).
"""

from __future__ import annotations

import argparse
import os
import time

import numpy

from chainer.datasets import TransformDataset
from chainer.iterators import MultiprocessIterator, MultithreadIterator, SerialIterator


class Augment:
    """Random crop and flip, then ``seconds`` of work."""

    def __init__(self, seconds: float, work: str) -> None:
        self.seconds = seconds
        self.work = work

    def __call__(self, image: numpy.ndarray) -> numpy.ndarray:
        clock = time.perf_counter if self.work == 'sleep' else time.thread_time
        start = clock()
        top, left = numpy.random.randint(0, 5, 2)
        out = image[:, top:top + 28, left:left + 28]
        if numpy.random.rand() < 0.5:
            out = out[:, :, ::-1]
        out = numpy.ascontiguousarray(out)
        if self.work == 'sleep':
            time.sleep(max(self.seconds - (clock() - start), 0.0))
        else:
            while clock() - start < self.seconds:
                pass
        return out


def rate(make, batches: int, batch_size: int) -> float:
    it = make()
    try:
        it.next()  # warm-up: starts workers, fills the prefetch queue
        start = time.perf_counter()
        for _ in range(batches):
            it.next()
        return batches * batch_size / (time.perf_counter() - start)
    finally:
        it.finalize()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument('--ms', type=float, default=5.0)
    parser.add_argument('--batches', type=int, default=30)
    parser.add_argument('--batch-size', type=int, default=32)
    parser.add_argument('--work', choices=('cpu', 'sleep'), nargs='+',
                        default=['cpu', 'sleep'])
    args = parser.parse_args()
    images = numpy.random.RandomState(0).rand(2048, 3, 32, 32).astype(numpy.float32)
    size = args.batch_size
    try:
        cores = len(os.sched_getaffinity(0))
    except AttributeError:
        cores = os.cpu_count()
    load = os.getloadavg()[0] if hasattr(os, 'getloadavg') else float('nan')
    print(f'{args.ms} ms per example, batch {size}, {args.batches} batches, {cores} cores, '
          f'load average {load:.1f}')
    print(f'{"iterator":48s} {"work":>5s} {"examples/s":>11s}')
    for work in args.work:
        dataset = TransformDataset(images, Augment(args.ms / 1000, work))
        candidates = {
            'SerialIterator': (SerialIterator, {}),
            'MultiprocessIterator(n_processes=1)': (MultiprocessIterator, {'n_processes': 1}),
            'MultiprocessIterator(n_processes=2)': (MultiprocessIterator, {'n_processes': 2}),
            'MultiprocessIterator(n_processes=2, shared_mem)': (
                MultiprocessIterator, {'n_processes': 2, 'shared_mem': 28 * 28 * 3 * 4}),
            'MultithreadIterator(n_threads=2)': (MultithreadIterator, {'n_threads': 2}),
        }
        for name, (kind, options) in candidates.items():
            def make(kind=kind, options=options, dataset=dataset):
                return kind(dataset, size, **options)

            print(f'{name:48s} {work:>5s} {rate(make, args.batches, size):11.0f}', flush=True)


if __name__ == '__main__':
    main()
