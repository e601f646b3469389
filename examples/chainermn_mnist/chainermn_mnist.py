"""Data-parallel training of the MNIST multi-layer perceptron with ChainerMN.

Run it as an MPI job, one process per worker::

    mpiexec -n 2 python chainermn_mnist.py

Every process holds a copy of the model and trains on its share of the training set;
the multi-node optimizer averages the gradients over all processes (an allreduce) before
every update, so the copies stay identical. The multi-node evaluator averages the
validation results over the processes, each evaluating its share of the test set.

By default the data are generated (no download): 28x28 images of ten "digits", each a
fixed pattern of strokes, randomly shifted and noisy. ``--real-data`` trains on MNIST
(``chainer.datasets.get_mnist()``, read by rank 0 only). Run
``python chainermn_mnist.py --help`` for the options.
"""

from __future__ import annotations

import argparse

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
import chainermn
from chainer import training
from chainer.training import extensions


def synthetic_digits(n: int, seed: int = 0) -> chainer.datasets.TupleDataset:
    """``n`` generated 28x28 "digits" (flattened float32 in [0, 1]) and int32 labels 0..9.

    Class ``c`` is a fixed pattern of four line strokes (the same for every ``seed``);
    each example is its pattern shifted by up to 2 pixels, plus Gaussian noise.
    """
    pattern_rng = np.random.RandomState(1234)
    yy, xx = np.mgrid[:28, :28]
    t = np.linspace(0, 1, 30)[:, None, None]
    patterns = np.zeros((10, 28, 28), np.float32)
    for c in range(10):
        for _ in range(4):
            (y0, x0), (y1, x1) = pattern_rng.uniform(5, 23, (2, 2))
            dist = np.hypot(yy - (y0 + t * (y1 - y0)), xx - (x0 + t * (x1 - x0))).min(0)
            patterns[c] = np.maximum(patterns[c], np.clip(1.5 - dist, 0, 1))
    rng = np.random.RandomState(seed)
    labels = rng.randint(0, 10, n).astype(np.int32)
    shifts = rng.randint(-2, 3, (n, 2))
    images = np.stack([np.roll(patterns[c], s, (0, 1)) for c, s in zip(labels, shifts)])
    images = np.clip(images + rng.normal(0, 0.3, images.shape), 0, 1).astype(np.float32)
    return chainer.datasets.TupleDataset(images.reshape(n, 784), labels)


class MLP(chainer.Chain):
    """Two hidden layers of ``n_units`` ReLUs and a linear output of ``n_out`` logits."""

    def __init__(self, n_units: int, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    def forward(self, x: chainer.Variable) -> chainer.Variable:
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return self.l3(h)


def main(argv: list[str] | None = None) -> float:
    """Train and evaluate; return the final validation accuracy (the same on every rank)."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--batchsize', '-b', type=int, default=100,
                        help='examples per process and step')
    parser.add_argument('--epochs', '-e', type=int, default=10)
    parser.add_argument('--unit', '-u', type=int, default=500, help='units per hidden layer')
    parser.add_argument('--communicator', default='naive',
                        help="'naive' or 'flat' on CPUs; 'pure_nccl' with one GPU per process")
    parser.add_argument('--gpu', action='store_true',
                        help='use GPU number comm.intra_rank in each process')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--out', '-o', default='result', help='folder of the results')
    parser.add_argument('--real-data', action='store_true',
                        help='train on MNIST (get_mnist) instead of generated digits')
    parser.add_argument('--quick', action='store_true',
                        help='a few seconds of training on a small data set (CI)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs, args.unit = 3, 100

    comm = chainermn.create_communicator(args.communicator)
    # the same seed everywhere: the copies of the model start identical
    np.random.seed(args.seed)
    device = chainer.get_device(f'@cupy:{comm.intra_rank}' if args.gpu else '@numpy')
    device.use()

    # rank 0 reads or makes the data; scatter_dataset gives each process its share
    train = test = None
    if comm.rank == 0:
        if args.real_data:
            train, test = chainer.datasets.get_mnist()
            if args.quick:
                train, test = train[:5000], test[:1000]
        else:
            n_train, n_test = (2000, 500) if args.quick else (20000, 2000)
            train = synthetic_digits(n_train, seed=args.seed)
            test = synthetic_digits(n_test, seed=args.seed + 1)
        print(f'{comm.size} processes, communicator {args.communicator}, device {device}; '
              f'{len(train)} training and {len(test)} test examples, '
              f'{args.batchsize} per process and step', flush=True)
    train = chainermn.scatter_dataset(train, comm, shuffle=True, seed=args.seed)
    test = chainermn.scatter_dataset(test, comm)

    model = L.Classifier(MLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainermn.create_multi_node_optimizer(chainer.optimizers.Adam(), comm)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    # every process evaluates its share; the results are averaged over the processes
    evaluator = chainermn.create_multi_node_evaluator(
        extensions.Evaluator(test_iter, model, device=device), comm)
    trainer.extend(evaluator)
    if comm.rank == 0:  # report and save once, not once per process
        trainer.extend(extensions.LogReport())
        trainer.extend(extensions.PrintReport(
            ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
             'validation/main/accuracy', 'elapsed_time']))
        trainer.extend(extensions.snapshot_object(model.predictor, 'mlp_epoch_{.updater.epoch}'),
                       trigger=(args.epochs, 'epoch'))
    trainer.run()

    accuracy = float(trainer.observation['validation/main/accuracy'])
    if comm.rank == 0:
        print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    main()
