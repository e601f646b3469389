"""A static_graph model on a GPU: its forward and backward run as a CUDA graph from the
third call of GradientMethod.update(lossfun, ...) on, with the same parameters and
reported values as define-by-run (needs CuPy and a CUDA device)."""

import warnings

import numpy
import pytest
from _static_models import CNN, MLP, StaticCNN, StaticMLP

import chainer
import chainer.links as L
from chainer import optimizers, static_graph, training
from chainer.optimizers import _captured_step

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')


class Syncing(MLP):
    @static_graph
    def forward(self, x):
        if float(x.array.sum()) > 1e9:  # a host synchronization: cannot be captured
            x = x * 0
        return MLP.forward(self, x)


def _pair(static_cls, eager_cls, make):
    a, b = L.Classifier(static_cls()), L.Classifier(eager_cls())
    if static_cls is not StaticCNN:  # the MLP's first layer is initialized by a call
        for model in (a, b):
            with chainer.using_config('use_static_graph', False):
                model.predictor(numpy.zeros((1, 12), 'f'))
    b.copyparams(a)
    a.to_device('@cupy:0')
    b.to_device('@cupy:0')
    return a, make().setup(a), b, make().setup(b)


def _batches(shape, n, seed=0):
    rng = numpy.random.default_rng(seed)
    for _ in range(n):
        yield (cupy.asarray(rng.standard_normal(shape).astype('f')),
               cupy.asarray(rng.integers(0, 4, shape[0]).astype('i')))


@pytest.mark.parametrize('static_cls,eager_cls,shape', [
    (StaticMLP, MLP, (8, 12)), (StaticCNN, CNN, (4, 3, 8, 8))])
@pytest.mark.parametrize('make', [lambda: optimizers.MomentumSGD(0.1),
                                  lambda: optimizers.Adam(0.01)])
def test_captured_steps_match_define_by_run(static_cls, eager_cls, shape, make):
    a, oa, b, ob = _pair(static_cls, eager_cls, make)
    losses = []
    for x, t in _batches(shape, 6):
        observed = []
        for model, opt in ((a, oa), (b, ob)):
            reporter = chainer.Reporter()
            reporter.add_observer('main', model)
            with reporter:
                opt.update(model, x, t)
            observed.append(float(reporter.observation['main/loss'].array))
        losses.append(observed)
    kinds = [type(v).__name__ for v in oa._captured_steps.values()]
    assert kinds == ['_Graph']
    numpy.testing.assert_allclose(*zip(*losses), rtol=1e-5)
    for (name, pa), (_, pb) in zip(sorted(a.namedparams()), sorted(b.namedparams()),
                                   strict=True):
        numpy.testing.assert_allclose(cupy.asnumpy(pa.array), cupy.asnumpy(pb.array),
                                      rtol=1e-5, atol=1e-6, err_msg=name)


def test_new_shape_is_captured_again():
    a, oa, b, ob = _pair(StaticMLP, MLP, lambda: optimizers.SGD(0.1))
    for shape in ((8, 12), (8, 12), (8, 12), (3, 12), (3, 12), (3, 12), (8, 12)):
        x, t = next(_batches(shape, 1, seed=shape[0]))
        oa.update(a, x, t)
        ob.update(b, x, t)
    assert sum(type(v).__name__ == '_Graph' for v in oa._captured_steps.values()) == 2
    for pa, pb in zip(a.params(), b.params(), strict=True):
        numpy.testing.assert_allclose(cupy.asnumpy(pa.array), cupy.asnumpy(pb.array),
                                      rtol=1e-5, atol=1e-6)


def test_host_synchronization_falls_back_with_a_warning():
    a, oa, b, ob = _pair(Syncing, MLP, lambda: optimizers.SGD(0.1))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        for x, t in _batches((8, 12), 4):
            oa.update(a, x, t)
            ob.update(b, x, t)
    assert any('could not be captured' in str(w.message) for w in caught)
    assert _captured_step._NEVER in oa._captured_steps.values()
    for pa, pb in zip(a.params(), b.params(), strict=True):
        numpy.testing.assert_allclose(cupy.asnumpy(pa.array), cupy.asnumpy(pb.array),
                                      rtol=1e-5, atol=1e-6)


def test_use_static_graph_off_runs_define_by_run():
    a, oa, _, _ = _pair(StaticMLP, MLP, lambda: optimizers.SGD(0.1))
    with chainer.using_config('use_static_graph', False):
        for x, t in _batches((8, 12), 4):
            oa.update(a, x, t)
    assert not oa.__dict__.get('_captured_steps')


def test_trainer_logs_the_loss_of_every_iteration(tmp_path):
    rng = numpy.random.default_rng(5)
    data = chainer.datasets.TupleDataset(rng.standard_normal((64, 12)).astype('f'),
                                         rng.integers(0, 4, 64).astype('i'))
    model = L.Classifier(StaticMLP())
    opt = optimizers.MomentumSGD(0.1).setup(model)
    it = chainer.iterators.SerialIterator(data, 8, shuffle=False)
    updater = training.updaters.StandardUpdater(it, opt, device='@cupy:0')
    trainer = training.Trainer(updater, (2, 'epoch'), out=str(tmp_path))
    log = training.extensions.LogReport(trigger=(1, 'iteration'))
    trainer.extend(log)
    trainer.run()
    assert len(log.log) == 16
    assert all('main/loss' in entry and 'main/accuracy' in entry for entry in log.log)
    assert any(type(v).__name__ == '_Graph' for v in opt._captured_steps.values())
