"""ParallelUpdater and MultiprocessParallelUpdater, checked numerically on CPU devices."""

import multiprocessing
import warnings

import numpy
import pytest
from _training_helpers import make_data, make_model, params

import chainer
import chainer.functions as F
from chainer import serializers, training
from chainer.iterators import SerialIterator
from chainer.training.updaters import multiprocess_parallel_updater as mpu


class SumLoss(chainer.Chain):
    """A linear regression whose loss sums over the examples (not a mean)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l = chainer.links.Linear(
                3, 2, initialW=numpy.array([[0.1, -0.2, 0.3], [-0.3, 0.2, 0.1]], 'f'),
                initial_bias=numpy.array([0.05, -0.05], 'f'))

    def forward(self, x, t):
        loss = F.sum(F.square(self.l(x) - t))
        chainer.report({'loss': loss}, self)
        return loss


def regression_data(n=24, seed=3):
    rng = numpy.random.RandomState(seed)
    x = rng.randn(n, 3).astype(numpy.float32)
    t = rng.randn(n, 2).astype(numpy.float32)
    return chainer.datasets.TupleDataset(x, t)


def test_parallel_updater_on_two_cpu_devices_equals_one_update_of_the_whole_batch():
    data = regression_data()
    parallel_model = SumLoss()
    opt = chainer.optimizers.SGD(0.01).setup(parallel_model)
    updater = training.updaters.ParallelUpdater(
        SerialIterator(data, 8, shuffle=False), opt,
        devices={'main': '@numpy', 'second': '@numpy'})
    second = updater._models['second']
    assert second is not parallel_model

    single_model = SumLoss()
    single_opt = chainer.optimizers.SGD(0.01).setup(single_model)
    single = training.StandardUpdater(SerialIterator(data, 8, shuffle=False), single_opt)
    for _ in range(5):
        updater.update()
        single.update()
        for name, value in params(single_model).items():
            numpy.testing.assert_allclose(params(parallel_model)[name], value, rtol=1e-5,
                                          atol=1e-6)
        # the copy follows the main model
        for name, value in params(parallel_model).items():
            numpy.testing.assert_array_equal(params(second)[name], value)
    assert updater.iteration == 5


def test_parallel_updater_splits_batches_by_turns_and_reports_each_model():
    seen = {}

    class Recorder(SumLoss):
        def forward(self, x, t):
            seen.setdefault(self.tag, []).append(x.copy())
            return super().forward(x, t)

    model = Recorder()
    model.tag = 'main'
    other = Recorder()
    other.tag = 'other'
    opt = chainer.optimizers.SGD(0.01).setup(model)
    data = regression_data(6)
    updater = training.updaters.ParallelUpdater(
        SerialIterator(data, 6, shuffle=False), opt, models={'main': model, 'other': other})
    trainer = training.Trainer(updater, (1, 'iteration'), out='unused')
    observed = {}
    trainer.extend(lambda tr: observed.update(tr.observation), name='spy')
    trainer.run()
    x = numpy.stack([data[i][0] for i in range(6)])
    numpy.testing.assert_array_equal(seen['main'][0], x[0::2])
    numpy.testing.assert_array_equal(seen['other'][0], x[1::2])
    assert {'main/loss', 'other/loss'} <= set(observed)


def test_parallel_updater_arguments():
    model = SumLoss()
    opt = chainer.optimizers.SGD().setup(model)
    it = SerialIterator(regression_data(), 4)
    with pytest.raises(ValueError, match='models or devices'):
        training.updaters.ParallelUpdater(it, opt)
    with pytest.raises(KeyError, match='main'):
        training.updaters.ParallelUpdater(it, opt, devices={'a': '@numpy'})
    with pytest.raises(KeyError, match='main'):
        training.updaters.ParallelUpdater(it, opt, models={'a': model})
    assert training.ParallelUpdater is training.updaters.ParallelUpdater


def test_parallel_updater_copies_resync_after_loading_a_snapshot(tmp_path):
    def build():
        model = SumLoss()
        opt = chainer.optimizers.SGD(0.01).setup(model)
        updater = training.updaters.ParallelUpdater(
            SerialIterator(regression_data(), 8, shuffle=False), opt,
            devices={'main': '@numpy', 'second': '@numpy'})
        return updater, model

    updater, model = build()
    for _ in range(3):
        updater.update()
    serializers.save_npz(str(tmp_path / 'u.npz'), updater)
    updater.update()
    expected = params(model)

    resumed, resumed_model = build()
    serializers.load_npz(str(tmp_path / 'u.npz'), resumed)
    resumed.update()  # the second model works with the loaded parameters
    for name, value in params(resumed_model).items():
        numpy.testing.assert_array_equal(value, expected[name])


# -- MultiprocessParallelUpdater -----------------------------------------------------


def test_multiprocess_parallel_updater_says_what_is_missing():
    if mpu.MultiprocessParallelUpdater.available():
        pytest.skip('CUDA and NCCL are available here')
    model = make_model()
    opt = chainer.optimizers.SGD().setup(model)
    its = [SerialIterator(make_data(), 4), SerialIterator(make_data(), 4)]
    with pytest.raises(RuntimeError, match='needs CUDA GPUs and NCCL: CuPy'):
        mpu.MultiprocessParallelUpdater(its, opt, devices=['@numpy', '@numpy'])
    with pytest.raises(RuntimeError, match='CUDA'):
        training.updaters.MultiprocessParallelUpdater(its, opt, devices=[0, 1])


def test_gather_and_scatter_refuse_cpu_links():
    model = make_model()
    with pytest.raises(RuntimeError, match='only on GPU'):
        mpu.gather_grads(model)
    with pytest.raises(RuntimeError, match='only on GPU'):
        mpu.gather_params(model)
    assert mpu.size_num_grads(model) == (8, 2)


def test_gather_scatter_round_trip_keeps_values_and_dtypes():
    model = make_model()
    model.cleargrads()
    flat = mpu._gather(model, 'data')
    assert flat.dtype == numpy.float32 and flat.shape == (8,)
    other = make_model()
    for p in other.params():
        p.array[...] = 0
    mpu._scatter(other, flat, 'data')
    for name, value in params(model).items():
        numpy.testing.assert_array_equal(params(other)[name], value)
    grads = mpu._gather(model, 'grad')  # no gradients yet: zeros
    numpy.testing.assert_array_equal(grads, numpy.zeros(8, numpy.float32))
    mpu._scatter(model, grads + 1, 'grad')
    assert all((p.grad == 1).all() for p in model.params())
    with pytest.raises(ValueError, match='7 values'):
        mpu._scatter(model, grads[:7], 'grad')


@pytest.fixture
def cpu_mpu(monkeypatch):
    """CPU devices exchange through pipes; worker processes are forked (the test
    module and the default converter need not be importable or picklable in them)."""
    if 'fork' not in multiprocessing.get_all_start_methods():
        pytest.skip('needs the fork start method')
    monkeypatch.setattr(mpu, '_CPU_FOR_TESTS', True)
    method = multiprocessing.get_start_method(allow_none=True)
    multiprocessing.set_start_method('fork', force=True)
    yield
    multiprocessing.set_start_method(method, force=True)


def test_multiprocess_updater_on_two_cpu_processes_equals_one_update_of_both_batches(cpu_mpu):
    data = make_data(32)
    shares = [chainer.datasets.SubDataset(data, 0, 16), chainer.datasets.SubDataset(data, 16, 32)]
    model = make_model()
    opt = chainer.optimizers.SGD(0.2).setup(model)
    its = [SerialIterator(s, 4, shuffle=False) for s in shares]
    with pytest.warns(UserWarning, match='lr is changed to 0.1'):
        updater = mpu.MultiprocessParallelUpdater(its, opt, devices=['@numpy', '@numpy'])
    trainer = training.Trainer(updater, (6, 'iteration'), out='unused')
    trainer.run()  # finalize stops the worker
    assert not any(w.is_alive() for w in updater._workers)

    # one process, the same examples: each batch holds both processes' batches; the
    # two means summed with lr / 2 are the mean of the whole batch with lr
    reference = make_model()
    ref_opt = chainer.optimizers.SGD(0.2).setup(reference)
    for i in range(6):
        idx = [(4 * i + k) % 16 for k in range(4)]
        x = numpy.stack([shares[0][j][0] for j in idx] + [shares[1][j][0] for j in idx])
        t = numpy.array([shares[0][j][1] for j in idx] + [shares[1][j][1] for j in idx])
        ref_opt.update(reference, x, t)
    for name, value in params(reference).items():
        numpy.testing.assert_allclose(params(model)[name], value, rtol=1e-5, atol=1e-6)


def test_multiprocess_updater_with_one_device_needs_no_worker(cpu_mpu):
    model = make_model()
    opt = chainer.optimizers.Adam().setup(model)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter('always')
        updater = mpu.MultiprocessParallelUpdater(
            [SerialIterator(make_data(), 5)], opt, devices={'main': '@numpy'})
    assert any('eps is changed' in str(w.message) for w in caught)
    before = params(model)
    updater.update()
    updater.finalize()
    assert updater._workers == [] and updater.comm is None
    assert any((before[n] != v).any() for n, v in params(model).items())


def test_multiprocess_updater_arguments(cpu_mpu):
    model = make_model()
    opt = chainer.optimizers.SGD().setup(model)
    its = [SerialIterator(make_data(), 4), SerialIterator(make_data(), 4)]
    with pytest.raises(ValueError, match='list, tuple or dict'):
        mpu.MultiprocessParallelUpdater(its, opt, devices='@numpy')
    with pytest.raises(ValueError, match='one iterator per device'):
        mpu.MultiprocessParallelUpdater(its, opt, devices=['@numpy'])
    with pytest.raises(ValueError, match="'main'"):
        mpu.MultiprocessParallelUpdater(its, opt, devices={'a': '@numpy', 'b': '@numpy'})
    with pytest.raises(ValueError, match='every device'):
        mpu.MultiprocessParallelUpdater(its, opt, devices=['@numpy', None])
