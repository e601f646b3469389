"""Train a small VGG-style convolutional network on CIFAR-10 with a Trainer.

By default the data are generated (no download): 32x32 RGB images of ten classes, five
shapes (disk, square, triangle, ring, cross) and five textures (horizontal, vertical and
diagonal stripes, checkerboard, dots) in random colors, positions, sizes and phases, with
noise. ``--real-data`` trains on CIFAR-10 (``chainer.datasets.get_cifar10()``, downloaded
once into Chainer's dataset cache). Run ``python cifar.py --help`` for the options.
"""

from __future__ import annotations

import argparse

import matplotlib
import numpy as np

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions

matplotlib.use('Agg')


def synthetic_images(n: int, seed: int = 0) -> chainer.datasets.TupleDataset:
    """``n`` generated 32x32 RGB images (float32 (3, 32, 32) in [0, 1]) and labels 0..9.

    The class is the shape or texture; colors, position, size and phase are random.
    """
    rng = np.random.RandomState(seed)
    yy, xx = np.mgrid[:32, :32].astype(np.float32)
    labels = rng.randint(0, 10, n).astype(np.int32)
    images = np.empty((n, 3, 32, 32), np.float32)
    for i, c in enumerate(labels):
        cy, cx = rng.uniform(11, 21, 2)
        r, p, phase = rng.uniform(6, 10), rng.randint(3, 6), rng.randint(0, 6)
        dy, dx = yy - cy, xx - cx
        mask = [np.hypot(dy, dx) < r,                                       # disk
                np.maximum(abs(dy), abs(dx)) < 0.8 * r,                     # square
                (dy < 0.7 * r) & (abs(dx) < 0.6 * (dy + r)),                # triangle
                (np.hypot(dy, dx) < r) & (np.hypot(dy, dx) > 0.55 * r),     # ring
                (np.minimum(abs(dy), abs(dx)) < r / 3) & (np.maximum(abs(dy), abs(dx)) < r),
                (yy + phase) // p % 2 == 0,                                 # stripes -
                (xx + phase) // p % 2 == 0,                                 # stripes |
                (xx + yy + phase) // p % 2 == 0,                            # stripes /
                ((xx + phase) // p + (yy + phase) // p) % 2 == 0,           # checkerboard
                np.hypot((yy + phase) % (2 * p) - p, (xx + phase) % (2 * p) - p) < p / 1.5,
                ][c]
        fg, bg = rng.uniform(0.5, 1, (3, 1, 1)), rng.uniform(0, 0.45, (3, 1, 1))
        if rng.rand() < 0.5:
            fg, bg = bg, fg
        images[i] = np.where(mask, fg, bg) + rng.normal(0, 0.1, (3, 32, 32))
    return chainer.datasets.TupleDataset(np.clip(images, 0, 1), labels)


class ConvBNReLU(chainer.Chain):
    """3x3 convolution (no bias), batch normalization, ReLU."""

    def __init__(self, out_channels: int) -> None:
        super().__init__()
        with self.init_scope():
            self.conv = L.Convolution2D(None, out_channels, 3, pad=1, nobias=True)
            self.bn = L.BatchNormalization(out_channels)

    def forward(self, x: chainer.Variable) -> chainer.Variable:
        return F.relu(self.bn(self.conv(x)))


class VGGSmall(chainer.Chain):
    """Three VGG blocks (two conv-BN-ReLU, 2x2 max pooling) of ``width``, 2 and 4 times
    ``width`` channels, global average pooling, dropout and a linear classifier."""

    def __init__(self, n_class: int = 10, width: int = 16) -> None:
        super().__init__()
        with self.init_scope():
            self.blocks = chainer.ChainList(*[
                chainer.Sequential(ConvBNReLU(w), ConvBNReLU(w))
                for w in (width, 2 * width, 4 * width)])
            self.fc = L.Linear(None, n_class)

    def forward(self, x: chainer.Variable) -> chainer.Variable:
        for block in self.blocks:
            x = F.max_pooling_2d(block(x), 2)
        x = F.average(x, axis=(2, 3))  # global average pooling
        return self.fc(F.dropout(x, 0.3))


def main(argv: list[str] | None = None) -> float:
    """Train and evaluate; return the final validation accuracy."""
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument('--batchsize', '-b', type=int, default=64)
    parser.add_argument('--epochs', '-e', type=int, default=6)
    parser.add_argument('--width', type=int, default=16, help='channels of the first block')
    parser.add_argument('--learnrate', '-l', type=float, default=1e-3, help="Adam's alpha")
    parser.add_argument('--device', '-d', default='-1',
                        help="-1 or '@numpy' for the CPU, '@cupy:0' or 0 for a GPU")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--out', '-o', default='result', help='folder of the results')
    parser.add_argument('--resume', '-r', help='a snapshot to resume training from')
    parser.add_argument('--real-data', action='store_true',
                        help='train on CIFAR-10 (get_cifar10) instead of generated images')
    parser.add_argument('--quick', action='store_true',
                        help='a few seconds of training on a small data set (CI)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs, args.width = 3, 8

    np.random.seed(args.seed)  # weight initialization, dropout, the iterator's shuffling
    device = chainer.get_device(args.device)
    device.use()

    if args.real_data:
        train, test = chainer.datasets.get_cifar10()
        if args.quick:
            train, test = train[:2000], test[:500]
    else:
        n_train, n_test = (1000, 300) if args.quick else (3000, 1000)
        train = synthetic_images(n_train, seed=args.seed)
        test = synthetic_images(n_test, seed=args.seed + 1)
    print(f'{len(train)} training and {len(test)} test examples, device {device}')

    model = L.Classifier(VGGSmall(10, args.width))
    model.to_device(device)
    optimizer = chainer.optimizers.Adam(alpha=args.learnrate)
    optimizer.setup(model)

    train_iter = chainer.iterators.SerialIterator(train, args.batchsize)
    test_iter = chainer.iterators.SerialIterator(test, args.batchsize, repeat=False,
                                                 shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)

    # the Evaluator runs the model with chainer.config.train False: batch normalization
    # uses its running averages and dropout is off
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.snapshot(filename='snapshot_epoch_{.updater.epoch}'),
                   trigger=(args.epochs, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
                                         filename='loss.png'))
    trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                         'epoch', filename='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    if args.resume:
        chainer.serializers.load_npz(args.resume, trainer)
    trainer.run()

    accuracy = float(trainer.observation['validation/main/accuracy'])
    print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    main()
