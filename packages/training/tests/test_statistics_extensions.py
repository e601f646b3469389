"""MicroAverage, ParameterStatistics, VariableStatisticsPlot, unchain_variables."""

import os
import warnings

import numpy
import pytest
from _training_helpers import FakeUpdater, make_model

import chainer
import chainer.functions as F
from chainer import serializers, training
from chainer.training import extensions
from chainer.training.extensions import variable_statistics_plot as vsp


@pytest.fixture(autouse=True)
def _chdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)


class Reporting(FakeUpdater):
    """Reports ``hits`` (a Variable) and ``seen`` per iteration from a fixed table."""

    table = [(3, 4), (1, 4), (4, 4), (0, 2), (2, 2), (1, 3)]

    def update(self):
        hits, seen = self.table[self.iteration % len(self.table)]
        self.iteration += 1
        chainer.report({'hits': chainer.Variable(numpy.array(hits, numpy.float32)), 'seen': seen})


def run_collecting(updater, extension, n, key):
    trainer = training.Trainer(updater, (n, 'iteration'), out='.')
    trainer.extend(extension)
    seen = []
    trainer.extend(lambda tr: seen.append(tr.observation.get(key)), name='spy',
                   priority=training.PRIORITY_READER)
    trainer.run()
    return trainer, seen


def test_micro_average_reports_ratio_of_sums_per_interval():
    ext = extensions.MicroAverage('hits', 'seen', 'accuracy', trigger=(3, 'iteration'))
    _, seen = run_collecting(Reporting(), ext, 6, 'accuracy')
    assert seen[:2] == [None, None] and seen[3:5] == [None, None]
    assert seen[2] == pytest.approx(8 / 12)  # not the mean of the ratios
    assert seen[5] == pytest.approx(3 / 7)


def test_micro_average_resumes_its_sums_and_trigger(tmp_path):
    ext = extensions.MicroAverage('hits', 'seen', 'accuracy', trigger=(3, 'iteration'))
    trainer, _ = run_collecting(Reporting(), ext, 4, 'accuracy')
    serializers.save_npz(str(tmp_path / 's.npz'), trainer)
    updater = Reporting()
    resumed = extensions.MicroAverage('hits', 'seen', 'accuracy', trigger=(3, 'iteration'))
    trainer2 = training.Trainer(updater, (6, 'iteration'), out='.')
    trainer2.extend(resumed)
    seen = []
    trainer2.extend(lambda tr: seen.append(tr.observation.get('accuracy')), name='spy',
                    priority=training.PRIORITY_READER)
    serializers.load_npz(str(tmp_path / 's.npz'), trainer2)
    assert resumed._numerator == 0.0 and resumed._denominator == 2.0
    trainer2.run()
    assert seen == [None, pytest.approx(3 / 7)]


def test_micro_average_loads_v7_state_without_trigger():
    store = {'_numerator': numpy.array(5), '_denominator': numpy.array(10)}
    ext = extensions.MicroAverage('a', 'b', 'c')
    with warnings.catch_warnings():
        warnings.simplefilter('error')
        serializers.NpzDeserializer(store).load(ext)
    assert (ext._numerator, ext._denominator) == (5.0, 10.0)


def test_parameter_statistics_keys_and_values():
    model = make_model()
    link = model.predictor
    link.W.grad = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    link.b.grad = None
    ext = extensions.ParameterStatistics(link, prefix='stats', trigger=(1, 'iteration'))
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out='.')
    trainer.extend(ext)
    trainer.run()
    obs = trainer.observation
    W = link.W.array.ravel()
    assert obs['stats/predictor/W/data/mean'] == pytest.approx(W.mean())
    assert obs['stats/predictor/W/data/std'] == pytest.approx(W.std())
    assert obs['stats/predictor/W/data/min'] == pytest.approx(W.min())
    assert obs['stats/predictor/W/data/max'] == pytest.approx(W.max())
    assert obs['stats/predictor/b/data/zeros'] == 0
    assert obs['stats/predictor/W/grad/zeros'] == 1
    expected = numpy.percentile(W, (0.13, 2.28, 15.87, 50, 84.13, 97.72, 99.87))
    got = [obs[f'stats/predictor/W/data/percentile/{i}'] for i in range(7)]
    numpy.testing.assert_allclose(got, expected, rtol=1e-6)
    # a gradient that is None is skipped; 12 values per reported array
    assert not any(k.startswith('stats/predictor/b/grad') for k in obs)
    assert len([k for k in obs if k.startswith('stats/')]) == 36


def test_parameter_statistics_nan_custom_and_late_registration():
    link = chainer.links.Linear(3, 2)  # gradients are NaN until the first update
    ext = extensions.ParameterStatistics(link, statistics=None, report_params=False,
                                         skip_nan_params=True, trigger=(1, 'iteration'))
    ext.register_statistics('one', lambda x: 1.0)
    trainer = training.Trainer(FakeUpdater(), (1, 'iteration'), out='.')
    trainer.extend(ext)
    trainer.run()
    values = {k: v for k, v in trainer.observation.items() if '/grad/' in k}
    assert set(values) == {'None/W/grad/one', 'None/b/grad/one'}
    assert all(numpy.isnan(v) for v in values.values())
    with pytest.raises(ValueError, match="'default'"):
        extensions.ParameterStatistics(link, statistics='mean')


def test_parameter_statistics_means_over_the_interval():
    link = chainer.links.Linear(1, 1, initialW=numpy.zeros((1, 1), 'f'), nobias=True)

    class Grow(FakeUpdater):
        def update(self):
            super().update()
            link.W.array += 1

    ext = extensions.ParameterStatistics(link, statistics={'v': lambda x: x[0]},
                                         report_grads=False, trigger=(2, 'iteration'))
    _, seen = run_collecting(Grow(), ext, 4, 'None/W/data/v')
    assert seen == [None, 1.5, None, 3.5]


def test_reservoir_keeps_a_sorted_sample_without_touching_numpy_random():
    reservoir = vsp.Reservoir(size=3, data_shape=(2,))
    state = numpy.random.get_state()
    for i in range(10):
        reservoir.add(numpy.full(2, i), idx=100 + i)
    assert numpy.random.get_state()[2] == state[2]
    numpy.testing.assert_array_equal(numpy.random.get_state()[1], state[1])
    idxs, data = reservoir.get_data()
    assert len(idxs) == 3 and list(idxs) == sorted(idxs)
    numpy.testing.assert_array_equal(data[:, 0], idxs - 100)
    small = vsp.Reservoir(size=5, data_shape=())
    small.add(1.0)
    assert list(small.get_data()[0]) == [0]
    # every item has the same chance to stay
    counts = numpy.zeros(6)
    for _ in range(600):
        r = vsp.Reservoir(size=2, data_shape=())
        for i in range(6):
            r.add(float(i))
        counts[r.get_data()[1].astype(int)] += 1
    assert counts.min() > 120 and counts.max() < 280  # 200 expected each


def test_statistician():
    x = numpy.random.RandomState(0).randn(4, 5)
    stats = vsp.Statistician(True, True, (0, 50, 100))(x, axis=None)
    assert stats['mean'] == pytest.approx(x.mean())
    assert stats['std'] == pytest.approx(x.std())
    numpy.testing.assert_allclose(stats['percentile'], [x.min(), numpy.median(x), x.max()])
    by_column = vsp.Statistician(True, False, None)(x, axis=0, dtype=numpy.float32)
    assert set(by_column) == {'mean'} and by_column['mean'].dtype == numpy.float32
    empty = vsp.Statistician(True, True, (50,))(numpy.zeros(0), axis=None)
    assert numpy.isnan(empty['mean']) and numpy.isnan(empty['percentile']).all()


def test_variable_statistics_plot_draws_atomically(tmp_path):
    pytest.importorskip('matplotlib')
    model = make_model()
    ext = extensions.VariableStatisticsPlot(model, trigger=(2, 'iteration'),
                                            filename='stats.png')
    trainer = training.Trainer(FakeUpdater(), (4, 'iteration'), out=str(tmp_path / 'out'))
    trainer.extend(ext, trigger=(1, 'iteration'))
    trainer.run()
    data = (tmp_path / 'out' / 'stats.png').read_bytes()
    assert data.startswith(b'\x89PNG')
    assert os.listdir(tmp_path / 'out') == ['stats.png']
    idxs, records = ext._samples.get_data()
    assert list(idxs) == [1, 2, 3, 4]
    assert records.shape == (4, 2, 11)  # data and grad; mean, std and 9 percentiles
    with pytest.raises(ValueError):
        extensions.VariableStatisticsPlot(model, report_data=False, report_grad=False)
    with pytest.raises(TypeError):
        extensions.VariableStatisticsPlot([numpy.zeros(3)])


def test_variable_statistics_plot_without_matplotlib_does_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(vsp, '_check_available', lambda: False)
    ext = extensions.VariableStatisticsPlot(chainer.Variable(numpy.ones(3, 'f')))
    trainer = training.Trainer(FakeUpdater(), (2, 'iteration'), out=str(tmp_path))
    trainer.extend(ext, trigger=(1, 'iteration'))
    trainer.run()
    assert ext._samples.counter == 0 and os.listdir(tmp_path) == []


def test_unchain_variables_frees_reported_graphs():
    kept = []

    class Graph(FakeUpdater):
        def update(self):
            self.iteration += 1
            x = chainer.Variable(numpy.ones(3, numpy.float32))
            y = F.sum(x * 2)
            kept.append(y)
            chainer.report({'y': y})

    trainer = training.Trainer(Graph(), (2, 'iteration'), out='.')
    trainer.extend(extensions.unchain_variables())
    with chainer.using_config('keep_graph_on_report', True):
        trainer.run()
    assert all(v.creator is None for v in kept)

    kept.clear()
    trainer = training.Trainer(Graph(), (2, 'iteration'), out='.')
    trainer.extend(extensions.unchain_variables())
    trainer.run()  # the flag is off: the extension does not fire (reports hold no graph)
    assert extensions.unchain_variables.priority == 0
