"""Chainer at a Glance: classify mushrooms as edible or poisonous.

The program of the Chainer tutorial of the same name, on the bundled mushrooms.csv with
one-hot encoded features. Run ``python3 glance.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import sys

import matplotlib
import numpy as np

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer import datasets, training
from chainer.training import extensions

matplotlib.use('Agg')

HERE = os.path.dirname(os.path.abspath(__file__))


def load_mushrooms(path: str) -> tuple[np.ndarray, np.ndarray]:
    """Read the CSV and return one-hot float32 features and int32 labels (1 = poisonous)."""
    data = np.genfromtxt(path, delimiter=',', dtype=str, skip_header=1)
    labels = (data[:, 0] == 'p').astype(np.int32)[:, None]
    columns = []
    for col in range(1, data.shape[1]):
        values, codes = np.unique(data[:, col], return_inverse=True)
        columns.append(np.eye(len(values), dtype=np.float32)[codes])
    return np.concatenate(columns, axis=1), labels


def MLP(n_units: int, n_out: int) -> ch.Sequential:
    """Two hidden Linear+ReLU layers and a Linear output, input size inferred lazily."""
    layer = ch.Sequential(L.Linear(n_units), F.relu)
    model = layer.repeat(2)
    model.append(L.Linear(n_out))
    return model


def main(argv: list[str] | None = None) -> float:
    """Train, report, predict; return the final validation accuracy."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=50)
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--device', default='@numpy', help="'@numpy' or '@cupy:0'")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--data', default=os.path.join(HERE, 'mushrooms.csv'))
    parser.add_argument('--quick', action='store_true', help='a 10-epoch run (nox -s examples)')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs = min(args.epochs, 10)

    np.random.seed(args.seed)
    X, Y = load_mushrooms(args.data)
    train, test = datasets.split_dataset_random(
        datasets.TupleDataset(X, Y), int(X.shape[0] * .7), seed=args.seed)

    train_iter = ch.iterators.SerialIterator(train, 100)
    test_iter = ch.iterators.SerialIterator(test, 100, repeat=False, shuffle=False)

    model = L.Classifier(MLP(44, 1), lossfun=F.sigmoid_cross_entropy,
                         accfun=F.binary_accuracy)
    device = ch.get_device(args.device)
    model.to_device(device)
    optimizer = ch.optimizers.SGD().setup(model)

    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    if hasattr(extensions, 'DumpGraph'):
        trainer.extend(extensions.DumpGraph('main/loss'))
    trainer.extend(extensions.snapshot(), trigger=(20, 'epoch'))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PlotReport(['main/loss', 'validation/main/loss'], 'epoch',
                                         file_name='loss.png'))
    trainer.extend(extensions.PlotReport(['main/accuracy', 'validation/main/accuracy'],
                                         'epoch', file_name='accuracy.png'))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.run()

    accuracy = float(trainer.observation['validation/main/accuracy'])
    print(f'Final validation accuracy: {accuracy:.4f}')

    x, t = test[np.random.randint(len(test))]
    with ch.using_config('train', False), ch.no_backprop_mode():
        predict = model.predictor(device.send(x[None])).array
    predict = float(predict[0][0])
    actual = ['Edible', 'Poisonous'][int(t[0])]
    print(('Predicted Poisonous' if predict >= 0 else 'Predicted Edible') + ', Actual ' + actual)
    print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    # 50 epochs reach 99%; the 10 of --quick, 95%
    sys.exit(0 if main() >= (0.95 if '--quick' in sys.argv else 0.99) else 1)
