"""Train the MNIST multi-layer perceptron whose forward is decorated with chainer.static_graph.

In Chainer v7, ``@static_graph`` traced a chain's forward on its first call and replayed
the trace afterwards (to save Python overhead). In this project the decorated forward runs
define-by-run on every call, with the same results and gradients; the decorator records,
per configuration and input signature, the functions the forward called (a "static
schedule"), which this example prints after training. ``--no-static-graph`` turns the
decorator off (``chainer.config.use_static_graph = False``): the numbers are the same.

By default the data are generated (no download): 28x28 images of ten "digits", each a
fixed pattern of strokes, randomly shifted and noisy. ``--real-data`` trains on MNIST
(``chainer.datasets.get_mnist()``). Run ``python static_graph_mnist.py --help`` for the options.
"""

from __future__ import annotations

import argparse

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import static_graph, training
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


class StaticMLP(chainer.Chain):
    """The MNIST MLP (784 - n_units - n_units - n_out) with a static-graph forward.

    A static forward computes the same functions on every call for a given input shape:
    no Python control flow that depends on the data.
    """

    def __init__(self, n_units: int, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(784, n_units)
            self.l2 = L.Linear(n_units, n_units)
            self.l3 = L.Linear(n_units, n_out)

    @static_graph
    def forward(self, x: chainer.Variable) -> chainer.Variable:
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return self.l3(h)


def main(argv: list[str] | None = None) -> float:
    """Train and evaluate; return the final validation accuracy."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--batchsize', '-b', type=int, default=100)
    parser.add_argument('--epochs', '-e', type=int, default=10)
    parser.add_argument('--unit', '-u', type=int, default=500, help='units per hidden layer')
    parser.add_argument('--device', '-d', default='-1',
                        help="-1 or '@numpy' for the CPU, '@cupy:0' or 0 for a GPU")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--out', '-o', default='result', help='folder of the results')
    parser.add_argument('--no-static-graph', action='store_true',
                        help='run with chainer.config.use_static_graph = False')
    parser.add_argument('--real-data', action='store_true',
                        help='train on MNIST (get_mnist) instead of generated digits')
    parser.add_argument('--quick', action='store_true',
                        help='a few seconds of training on a small data set (CI)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs, args.unit = 2, 100

    np.random.seed(args.seed)  # weight initialization and the iterator's shuffling
    chainer.config.use_static_graph = not args.no_static_graph
    device = chainer.get_device(args.device)
    device.use()

    if args.real_data:
        train, test = chainer.datasets.get_mnist()
        if args.quick:
            train, test = train[:5000], test[:1000]
    else:
        n_train, n_test = (2000, 500) if args.quick else (20000, 2000)
        train = synthetic_digits(n_train, seed=args.seed)
        test = synthetic_digits(n_test, seed=args.seed + 1)
    print(f'{len(train)} training and {len(test)} test examples, device {device}, '
          f'use_static_graph={chainer.config.use_static_graph}')

    model = L.Classifier(StaticMLP(args.unit, 10))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    # A static schedule is kept per input shape: a last, smaller minibatch of an epoch
    # adds one more schedule (no harm done here, but v7 re-traced for it).
    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.run()

    manager = getattr(model.predictor, 'schedule_manager', None)
    if manager is not None:
        print(f'{len(manager.schedules)} static schedules recorded:')
        for (train_mode, backprop, inputs, _), schedule in manager.schedules.items():
            print(f'  train={train_mode} enable_backprop={backprop} inputs={inputs}: '
                  f'{" -> ".join(schedule.functions)}')

    accuracy = float(trainer.observation['validation/main/accuracy'])
    print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    main()
