"""Write the Chainer 7.8.1 optimizer snapshots of ``tests-integration/data/v7_optimizers/``.

Run with the interpreter of a Chainer 7.8.1 env (the benchmark's, see
tools/bench/envs.py)::

    .bench/chainer781/bin/python tools/compat/make_v7_optimizer_files.py

For every optimizer of Chainer v7 (with a few hyperparameters off their
defaults), it trains a two-layer MLP classifier for three updates, saves the
model and the optimizer with ``save_npz`` (``<Name>.model``, ``<Name>.opt``),
then runs a fourth update and records the loss after it in ``losses.json``:
tests-integration/test_v7_files.py loads the files into this project and checks
that the fourth update reaches the same loss. The data and the initial weights
are fixed by seeds, so the files are reproducible.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers

OUT = Path(__file__).resolve().parents[2] / 'tests-integration' / 'data' / 'v7_optimizers'

#: The optimizers and the constructor arguments of the snapshots.
OPTIMIZERS = {
    'AdaDelta': {'rho': 0.9},
    'AdaGrad': {'lr': 0.05},
    'Adam': {'alpha': 0.01},
    'AdamW': {'alpha': 0.01, 'weight_decay_rate': 0.1, 'eta': 0.5},
    'AMSGrad': {'alpha': 0.01, 'beta2': 0.9},
    'AdaBound': {'alpha': 0.01, 'final_lr': 0.05},
    'AMSBound': {'alpha': 0.01, 'gamma': 0.01},
    'CorrectedMomentumSGD': {'lr': 0.05},
    'MomentumSGD': {'lr': 0.05, 'momentum': 0.8},
    'MSVAG': {'lr': 0.05, 'beta': 0.8, 'weight_decay_rate': 0.01},
    'NesterovAG': {'lr': 0.05},
    'RMSprop': {'lr': 0.01, 'alpha': 0.9},
    'RMSpropGraves': {'lr': 0.01},
    'SGD': {'lr': 0.1},
    'SMORMS3': {'lr': 0.01},
}


class Net(chainer.Chain):
    """The MLP of the snapshots: Linear(4, 5), relu, Linear(5, 3)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def data() -> tuple[numpy.ndarray, numpy.ndarray]:
    """The fixed minibatch every update uses."""
    x = numpy.random.RandomState(0).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    return x, t


def main() -> int:
    if chainer.__version__ != '7.8.1':
        print(f'run this with Chainer 7.8.1, not {chainer.__version__}', file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    x, t = data()
    losses = {}
    for name, kwargs in OPTIMIZERS.items():
        numpy.random.seed(1)
        model = L.Classifier(Net())
        optimizer = getattr(optimizers, name)(**kwargs).setup(model)
        for _ in range(3):
            optimizer.update(model, x, t)
        chainer.serializers.save_npz(str(OUT / f'{name}.model'), model)
        chainer.serializers.save_npz(str(OUT / f'{name}.opt'), optimizer)
        optimizer.update(model, x, t)
        losses[name] = {'kwargs': kwargs, 'loss': float(model(x, t).array)}
    (OUT / 'losses.json').write_text(json.dumps(losses, indent=1) + '\n')
    print(f'wrote {len(losses)} snapshots to {OUT}')
    return 0


if __name__ == '__main__':
    sys.exit(main())
