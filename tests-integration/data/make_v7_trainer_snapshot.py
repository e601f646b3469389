"""Write v7_trainer_snapshot and v7_trainer_final.npz with Chainer 7.8.1 (not run by tests).

Usage, in an environment with Chainer 7.8.1 (e.g. the benchmark's ``.bench/chainer781``):
``python make_v7_trainer_snapshot.py OUT_DIR``. ``test_v7_files.py`` builds the same trainer
with this project, loads the snapshot taken at iteration 10 and checks that training ends at
iteration 20 with the parameters and the log Chainer 7.8.1 ended with.
"""

import json
import os
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.training import extensions, triggers


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(5)
        with self.init_scope():
            self.l1 = L.Linear(4, 5, initialW=rng.randn(5, 4).astype('f') * 0.5)
            self.l2 = L.Linear(5, 3, initialW=rng.randn(3, 5).astype('f') * 0.5)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def build(out):
    rng = numpy.random.RandomState(2)
    x = rng.randn(36, 4).astype(numpy.float32)
    t = (x[:, 0] > 0).astype(numpy.int32) + (x[:, 1] > 0.5).astype(numpy.int32)
    model = L.Classifier(Net())
    optimizer = chainer.optimizers.Adam(alpha=0.02).setup(model)
    optimizer.add_hook(chainer.optimizer_hooks.WeightDecay(1e-3))
    it = chainer.iterators.SerialIterator(chainer.datasets.TupleDataset(x, t), 8,
                                          shuffle=False)
    updater = training.updaters.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, (20, 'iteration'), out=out)
    trainer.extend(extensions.ExponentialShift('alpha', 0.7), trigger=(3, 'iteration'))
    trainer.extend(extensions.LogReport(trigger=(2, 'iteration')))
    trainer.extend(extensions.observe_lr(observation_key='alpha'), trigger=(1, 'iteration'))
    trainer.extend(extensions.observe_value(
        'hits', lambda tr: float(tr.observation['main/accuracy'].array) * 8),
        trigger=(1, 'iteration'))
    trainer.extend(extensions.observe_value('seen', lambda tr: 8.0), trigger=(1, 'iteration'))
    trainer.extend(extensions.MicroAverage('hits', 'seen', 'accuracy'),
                   trigger=(4, 'iteration'))
    trainer.extend(lambda trainer: None, name='once', trigger=triggers.OnceTrigger())
    trainer.extend(lambda trainer: None, name='best',
                   trigger=triggers.MinValueTrigger('main/loss', (2, 'iteration')))
    trainer.extend(extensions.snapshot(filename='snapshot_{.updater.iteration}'),
                   trigger=triggers.ManualScheduleTrigger([10], 'iteration'))
    return trainer, model


if __name__ == '__main__':
    out = sys.argv[1]
    trainer, model = build(out)
    trainer.run()
    numpy.savez(os.path.join(out, 'v7_trainer_final.npz'),
                **{name: p.array for name, p in model.namedparams()})
    with open(os.path.join(out, 'log')) as f:
        log = json.load(f)
    print(json.dumps([{k: v for k, v in e.items() if k != 'elapsed_time'} for e in log]))
