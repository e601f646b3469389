"""Data-parallel training of an MNIST-style classifier with ChainerMN.

Run as an MPI job, one process per worker (each process trains on its share of the
data; the gradients are averaged over the processes at every step)::

    mpiexec -n 2 python train.py

The data are generated: 28x28 images of ten classes, each a fixed random stroke pattern
with noise and a random shift, so no download is needed. Run ``python train.py --help``
for the options.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions

HERE = os.path.dirname(os.path.abspath(__file__))


def make_digits(n: int, seed: int = 0) -> chainer.datasets.TupleDataset:
    """``n`` generated 28x28 images (flattened, float32 in [0, 1]) with labels 0..9."""
    rng = np.random.RandomState(seed)
    prototypes = np.zeros((10, 28, 28), np.float32)
    for c in range(10):
        for _ in range(6):  # six random strokes per class
            r, col = rng.randint(4, 24, size=2)
            dr, dc = rng.randint(-1, 2, size=2)
            for k in range(10):
                rr, cc = np.clip(r + k * dr, 0, 27), np.clip(col + k * dc, 0, 27)
                prototypes[c, max(rr - 1, 0):rr + 1, max(cc - 1, 0):cc + 1] = 1
    labels = rng.randint(0, 10, size=n).astype(np.int32)
    images = np.empty((n, 28, 28), np.float32)
    for i, c in enumerate(labels):
        shifted = np.roll(prototypes[c], rng.randint(-2, 3, size=2), axis=(0, 1))
        images[i] = np.clip(shifted + rng.normal(0, 0.3, (28, 28)), 0, 1)
    return chainer.datasets.TupleDataset(images.reshape(n, 784), labels)


class MLP(chainer.Chain):
    """784 - n_units - n_units - 10."""

    def __init__(self, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, 10)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


def main(argv: list[str] | None = None) -> float:
    """Train; return the final validation accuracy (the same on every process)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--communicator', default='naive',
                        help="'naive' or 'flat' on CPU; 'pure_nccl' with one GPU per process")
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--batchsize', type=int, default=50, help='per process')
    parser.add_argument('--unit', type=int, default=100)
    parser.add_argument('--examples', type=int, default=6000)
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--quick', action='store_true', help='a short run (CI)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs, args.examples = 3, 2000

    comm = chainermn.create_communicator(args.communicator)
    device = chainer.get_device('@numpy')
    if args.communicator in ('pure_nccl', 'hierarchical', 'two_dimensional',
                             'single_node', 'non_cuda_aware'):
        device = chainer.get_device(f'@cupy:{comm.intra_rank}')
        device.use()
    if comm.rank == 0:
        print(f'{comm.size} processes, communicator {args.communicator}, '
              f'{args.batchsize} examples per process and step', flush=True)

    model = L.Classifier(MLP(args.unit))
    model.to_device(device)
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    # rank 0 makes the data and gives every process its share
    train = test = None
    if comm.rank == 0:
        train, test = chainer.datasets.split_dataset(make_digits(args.examples),
                                                     args.examples * 5 // 6)
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=0)
    test = chainermn.scatter_dataset(test, comm)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(test_iter, model, device=device), comm)
    trainer.extend(evaluator)
    if comm.rank == 0:  # report once, not once per process
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
             'validation/main/accuracy', 'elapsed_time']))
    trainer.run()

    accuracy = float(evaluator()['validation/main/accuracy'])
    if comm.rank == 0:
        print(f'validation accuracy: {accuracy:.3f}')
    return accuracy


if __name__ == '__main__':
    sys.exit(0 if main() > 0.9 else 'the classifier did not learn (accuracy <= 0.9)')
