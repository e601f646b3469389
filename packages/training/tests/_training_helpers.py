"""Shared fixtures of the chainer-training tests: fake updaters, tiny models, data."""

import numpy

import chainer
import chainer.links as L
from chainer import training
from chainer.datasets import TupleDataset
from chainer.iterators import SerialIterator


class FakeUpdater(training.Updater):
    """Counts iterations over a virtual epoch of ``per_epoch`` iterations.

    Each update reports ``value = iteration`` (1, 2, 3, ... after the update)
    so that means are easy to predict.
    """

    def __init__(self, per_epoch=4):
        self.per_epoch = per_epoch
        self.iteration = 0
        self.calls = []

    @property
    def epoch(self):
        return self.iteration // self.per_epoch

    @property
    def epoch_detail(self):
        return self.iteration / self.per_epoch

    @property
    def previous_epoch_detail(self):
        if self.iteration == 0:
            return None
        return (self.iteration - 1) / self.per_epoch

    @property
    def is_new_epoch(self):
        return self.iteration > 0 and self.iteration % self.per_epoch == 0

    def get_all_optimizers(self):
        return {}

    def get_optimizer(self, name):
        raise KeyError(name)

    def update(self):
        self.iteration += 1
        chainer.report({'value': float(self.iteration)})

    def serialize(self, serializer):
        self.iteration = serializer('iteration', self.iteration)


class FakeTrainer:
    """Just enough of a Trainer to drive triggers: holds an updater."""

    def __init__(self, updater):
        self.updater = updater


def make_data(n=40, seed=0):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, 3).astype(numpy.float32)
    t = (x[:, 0] + 0.5 * x[:, 1] > 0).astype(numpy.int32)
    return TupleDataset(x, t)


def make_model():
    """A Classifier over a 3 -> 2 Linear layer with fixed initial weights."""
    w = numpy.array([[0.1, -0.2, 0.3], [-0.3, 0.2, 0.1]], dtype=numpy.float32)
    b = numpy.array([0.05, -0.05], dtype=numpy.float32)
    return L.Classifier(L.Linear(3, 2, initialW=w, initial_bias=b))


def make_trainer(out, stop=(3, 'epoch'), batch_size=10, lr=0.1, shuffle=False, n=40):
    model = make_model()
    optimizer = chainer.optimizers.SGD(lr=lr)
    optimizer.setup(model)
    it = SerialIterator(make_data(n), batch_size, shuffle=shuffle)
    updater = training.updaters.StandardUpdater(it, optimizer)
    trainer = training.Trainer(updater, stop, out=str(out))
    return trainer, model, optimizer


def params(link):
    return {name: p.array.copy() for name, p in link.namedparams()}
