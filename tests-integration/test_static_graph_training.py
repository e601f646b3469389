"""Training with chainer.static_graph: links, L.Classifier and optimizers, several steps.

A model whose chain is decorated and the same model undecorated start from the same
parameters; after each training step (forward, cleargrads, backward, update) both have
the same loss, gradients and parameters.
"""

import numpy
import pytest
from _static_models import CNN, MLP, Stack, StaticCNN, StaticMLP, StaticStack

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers, static_graph
from chainer.graph_optimizations._replay import Replay


def _models(eager_cls, static_cls, make_optimizer, x=None):
    pairs = []
    for cls in (eager_cls, static_cls):
        numpy.random.seed(0)
        model = L.Classifier(cls())
        if x is not None:
            model.predictor(x)  # initializes lazy parameters (and records the static one)
        pairs.append((model, make_optimizer()))
    return pairs


def _train(pairs, batches, exact):
    check = numpy.testing.assert_array_equal if exact else (
        lambda a, b: numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6))
    for step, (x, t) in enumerate(batches):
        losses = []
        for model, optimizer in pairs:
            if step == 0:
                optimizer.setup(model)
            loss = model(x, t)
            model.cleargrads()
            loss.backward()
            optimizer.update()
            losses.append(loss.array)
        check(losses[1], losses[0])
        (eager, _), (static, _) = pairs
        if step:
            assert type(static.y.creator_node) is Replay
        static_params = dict(static.namedparams())
        for name, p in eager.namedparams():
            q = static_params[name]
            check(q.grad, p.grad)
            check(q.array, p.array)


def _batches(shape, classes, n=4, seed=1):
    rng = numpy.random.RandomState(seed)
    return [(rng.randn(*shape).astype(numpy.float32),
             rng.randint(0, classes, shape[0]).astype(numpy.int32)) for _ in range(n)]


def test_overhead_stack_with_sgd():
    def make(cls):
        numpy.random.seed(0)
        return cls(*[L.Linear(8, 8) for _ in range(5)])

    numpy.random.seed(0)
    pairs = [(L.Classifier(make(cls)), optimizers.SGD(lr=0.1))
             for cls in (Stack, StaticStack)]
    _train(pairs, _batches((6, 8), 8), exact=True)


@pytest.mark.parametrize('make_optimizer', [
    lambda: optimizers.MomentumSGD(lr=0.05),
    lambda: optimizers.Adam(),
])
def test_mlp_with_momentum_and_adam(make_optimizer):
    batches = _batches((5, 12), 4)
    pairs = _models(MLP, StaticMLP, make_optimizer, batches[0][0])
    _train(pairs, batches, exact=True)


def test_cnn_with_momentum():
    pairs = _models(CNN, StaticCNN, lambda: optimizers.MomentumSGD(lr=0.05))
    _train(pairs, _batches((3, 3, 8, 8), 4), exact=False)


def test_batch_normalization_statistics_follow_the_replay():
    class Net(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l = L.Linear(4, 6)
                self.bn = L.BatchNormalization(6)

        def forward(self, x):
            return F.relu(self.bn(self.l(x)))

    class StaticNet(Net):
        forward = static_graph(Net.forward)

    numpy.random.seed(0)
    eager, static = Net(), StaticNet()
    static.copyparams(eager)
    for x, _ in _batches((5, 4), 2):
        numpy.testing.assert_allclose(static(x).array, eager(x).array, rtol=1e-6)
    numpy.testing.assert_allclose(static.bn.avg_mean, eager.bn.avg_mean, rtol=1e-6)
    numpy.testing.assert_allclose(static.bn.avg_var, eager.bn.avg_var, rtol=1e-6)
    with chainer.using_config('train', False):
        x = _batches((5, 4), 2)[0][0]
        numpy.testing.assert_allclose(static(x).array, eager(x).array, rtol=1e-6)
