"""Train the MNIST multi-layer perceptron with a hand-written training loop (no Trainer).

Each step takes a minibatch from an iterator, runs the forward pass, clears the
gradients, back-propagates the loss and updates the parameters; after every epoch the
model is evaluated on the test set in test mode without building a graph.

By default the data are generated (no download): 28x28 images of ten "digits", each a
fixed pattern of strokes, randomly shifted and noisy. ``--real-data`` trains on MNIST
(``chainer.datasets.get_mnist()``). Run ``python mnist_custom_loop.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os

import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.dataset import concat_examples


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
            self.l1 = L.Linear(None, n_units)  # input size inferred on the first call
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x: chainer.Variable) -> chainer.Variable:
        h = F.relu(self.l1(x))
        h = F.relu(self.l2(h))
        return self.l3(h)


def evaluate(model: chainer.Link, dataset, batchsize: int,
             device: chainer.backend.Device) -> tuple[float, float]:
    """Mean loss and accuracy of ``model`` on ``dataset`` (test mode, no graph built)."""
    iterator = chainer.iterators.SerialIterator(dataset, batchsize, repeat=False,
                                                shuffle=False)
    total_loss = total_correct = 0.0
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        for batch in iterator:
            x, t = concat_examples(batch, device)
            y = model(x)
            total_loss += float(F.softmax_cross_entropy(y, t).array) * len(t)
            total_correct += float(F.accuracy(y, t).array) * len(t)
    return total_loss / len(dataset), total_correct / len(dataset)


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
    parser.add_argument('--real-data', action='store_true',
                        help='train on MNIST (get_mnist) instead of generated digits')
    parser.add_argument('--quick', action='store_true',
                        help='a few seconds of training on a small data set (CI)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs, args.unit = 2, 100

    np.random.seed(args.seed)  # weight initialization and the iterator's shuffling
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
    print(f'{len(train)} training and {len(test)} test examples, device {device}')

    model = MLP(args.unit, 10)
    model.to_device(device)
    optimizer = chainer.optimizers.Adam()
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    sum_loss = sum_correct = 0.0
    count = 0
    accuracy = 0.0
    print('epoch  main/loss  main/accuracy  validation/main/loss  validation/main/accuracy')
    while train_iter.epoch < args.epochs:
        batch = train_iter.next()
        x, t = concat_examples(batch, device)  # a tuple of arrays on the device

        y = model(x)  # forward
        loss = F.softmax_cross_entropy(y, t)
        model.cleargrads()  # gradients accumulate otherwise
        loss.backward()
        optimizer.update()  # one Adam step on every parameter

        sum_loss += float(loss.array) * len(t)
        sum_correct += float(F.accuracy(y, t).array) * len(t)
        count += len(t)

        if train_iter.is_new_epoch:
            test_loss, accuracy = evaluate(model, test, args.batchsize, device)
            print(f'{train_iter.epoch:<5d}  {sum_loss / count:<9.4g}  '
                  f'{sum_correct / count:<13.4f}  {test_loss:<20.4g}  {accuracy:.4f}')
            sum_loss = sum_correct = 0.0
            count = 0

    os.makedirs(args.out, exist_ok=True)
    path = os.path.join(args.out, 'mlp.npz')
    chainer.serializers.save_npz(path, model)
    print(f'model saved to {path}')
    print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    main()
