import numpy
import pytest

import chainer
from chainer import Variable
from chainer.reporter import DictSummary, Summary


class Observer:
    pass


def test_report_with_observer_prefix_and_scope():
    reporter = chainer.Reporter()
    obs = Observer()
    reporter.add_observer('main', obs)
    observation = {}
    with reporter.scope(observation):
        chainer.report({'loss': 1.5}, obs)
        chainer.report({'x': 2})
    assert observation == {'main/loss': 1.5, 'x': 2}


def test_reported_variable_has_no_graph_unless_kept():
    reporter = chainer.Reporter()
    x = Variable(numpy.array(2.0))
    y = x * 3
    observation = {}
    with reporter.scope(observation):
        chainer.report({'y': y})
    assert isinstance(observation['y'], Variable)
    assert observation['y'].creator is None
    assert float(observation['y'].array) == 6.0
    with chainer.using_config('keep_graph_on_report', True), reporter.scope(observation):
        chainer.report({'y': y})
    assert observation['y'] is y


def test_unregistered_observer():
    reporter = chainer.Reporter()
    with reporter, pytest.raises(KeyError, match='not registered'):
        chainer.report({'a': 1}, Observer())


def test_report_without_reporter_is_a_no_op_and_get_current_raises():
    chainer.report({'a': 1})
    with pytest.raises(IndexError):
        chainer.get_current_reporter()


def test_report_scope():
    reporter = chainer.Reporter()
    with reporter:
        inner = {}
        with chainer.report_scope(inner):
            chainer.report({'a': 1})
        assert inner == {'a': 1}
        assert reporter.observation == {}


def test_summary_statistics():
    s = Summary()
    for v in (1.0, 2.0, 3.0, 4.0):
        s.add(v)
    assert s.compute_mean() == pytest.approx(2.5)
    mean, std = s.make_statistics()
    assert mean == pytest.approx(2.5) and std == pytest.approx(numpy.std([1, 2, 3, 4]))
    w = Summary()
    w.add(1.0, weight=3)
    w.add(Variable(numpy.array(5.0)), weight=1)
    assert float(w.compute_mean()) == pytest.approx(2.0)


def test_dict_summary_skips_non_numbers_and_weights():
    d = DictSummary()
    d.add({'a': 1.0, 'b': numpy.array(2.0), 's': 'text'})
    d.add({'a': (3.0, 3), 'b': Variable(numpy.array(4.0))})
    mean = d.compute_mean()
    assert set(mean) == {'a', 'b'}
    assert float(mean['a']) == pytest.approx(2.5)
    assert float(mean['b']) == pytest.approx(3.0)
    stats = d.make_statistics()
    assert 'a.std' in stats


def test_dict_summary_serialize_round_trip():
    class Store(chainer.Serializer):
        def __init__(self, d, prefix=''):
            self.d, self.prefix = d, prefix

        def __getitem__(self, key):
            return Store(self.d, self.prefix + key + '/')

        def __call__(self, key, value):
            self.d[self.prefix + key] = value
            return value

    class Load(chainer.Deserializer):
        def __init__(self, d, prefix=''):
            self.d, self.prefix = d, prefix

        def __getitem__(self, key):
            return Load(self.d, self.prefix + key + '/')

        def __call__(self, key, value):
            return self.d[self.prefix + key]

    d = DictSummary()
    d.add({'a': 1.0, 'b': 3.0})
    d.add({'a': 2.0})
    store = {}
    d.serialize(Store(store))
    # Chainer v7's layout: the names as a JSON list, the i-th summary under _summaries/i
    assert store['_names'] == '["a", "b"]'
    assert store['_summaries/0/_x'] == 3.0 and store['_summaries/0/_n'] == 2
    assert store['_summaries/1/_x'] == 3.0 and store['_summaries/1/_n'] == 1
    e = DictSummary()
    e.serialize(Load(store))
    assert e.compute_mean() == d.compute_mean()
    with pytest.raises(ValueError, match='JSON'):
        DictSummary().serialize(Load({'_names': 'a\nb'}))

    # a file saved by a version that stored nothing resets the state, with a warning
    with pytest.warns(UserWarning, match='reset'):
        e.serialize(Load({}))
    assert e.compute_mean() == {}
    e.add({'a': 9.0})
    assert e.compute_mean() == {'a': 9.0}


def test_dict_summary_weight_must_be_a_scalar():
    d = DictSummary()
    d.add({'a': (1.0, 0.5)})
    d.add({'a': (2.0, numpy.array(0.4))})
    d.add({'a': (3.0, Variable(numpy.array(0.3)))})
    numpy.testing.assert_allclose(d.compute_mean()['a'], (0.5 + 0.8 + 0.9) / 1.2)
    for w in (numpy.array([0.5]), Variable(numpy.array([0.5]))):
        with pytest.raises(ValueError, match="weight given to 'a'"):
            d.add({'a': (4.0, w)})
