"""A Chainer v7 style training script (the tutorial's MNIST-like loop) runs unchanged."""

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers


class MLP(chainer.Chain):
    def __init__(self, n_units, n_out):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, n_units)
            self.l2 = L.Linear(None, n_units)
            self.l3 = L.Linear(None, n_out)

    def forward(self, x):
        h1 = F.relu(self.l1(x))
        h2 = F.relu(self.l2(h1))
        return self.l3(h2)


def test_manual_training_loop_learns_xor_like_task():
    rng = numpy.random.RandomState(0)
    x = rng.uniform(-1, 1, (256, 2)).astype(numpy.float32)
    t = ((x[:, 0] > 0) ^ (x[:, 1] > 0)).astype(numpy.int32)
    numpy.random.seed(0)
    model = L.Classifier(MLP(16, 2))
    optimizer = optimizers.Adam(alpha=0.01)
    optimizer.setup(model)
    for _ in range(300):
        model.cleargrads()
        loss = model(x, t)
        loss.backward()
        optimizer.update()
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        acc = F.accuracy(model.predictor(x), t)
    assert float(acc.array) > 0.95
    assert sorted(name for name, _ in model.namedparams()) == [
        '/predictor/l1/W', '/predictor/l1/b', '/predictor/l2/W', '/predictor/l2/b',
        '/predictor/l3/W', '/predictor/l3/b']
