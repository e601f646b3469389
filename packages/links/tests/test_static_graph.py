"""chainer.static_graph on a chain: define-by-run results, v7's inspection attributes."""

import numpy
import pytest

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.graph_optimizations.static_graph import ScheduleManager, static_graph


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(3, 4)
            self.l2 = L.Linear(4, 2)

    def dynamic(self, x):
        return self.l2(F.relu(self.l1(x)))

    @static_graph(verbosity_level=0)
    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


def test_static_chain_matches_define_by_run_and_records_schedules():
    model = MLP()
    x = numpy.random.RandomState(0).randn(5, 3).astype('f')
    y = model(x)
    numpy.testing.assert_array_equal(y.array, model.dynamic(x).array)
    assert isinstance(model.schedule_manager, ScheduleManager)
    first = model.static_schedule
    assert first.functions == ('LinearFunction', 'ReLU', 'LinearFunction')
    model(x * 2)
    assert model.static_schedule is first  # same signature, same schedule
    model(x[:2])
    assert model.static_schedule is not first and len(model.schedule_manager.schedules) == 2
    with chainer.using_config('train', False):
        model(x)
    assert len(model.schedule_manager.schedules) == 3
    model.schedule_manager.end_forward()
    assert model.schedule_manager.forward_count == 1


def test_keyword_arguments_key_schedules_by_name():
    class Two(chainer.Chain):
        @static_graph
        def forward(self, a=None, b=None):
            return F.relu(a) if b is None else F.tanh(b)

    chain = Two()
    x = numpy.ones((2, 3), 'f')
    chain(a=x)
    first = chain.static_schedule
    chain(b=x)  # same shapes, another argument: another schedule
    assert chain.static_schedule is not first
    assert len(chain.schedule_manager.schedules) == 2


def test_gradients_flow_through_a_static_chain():
    model, ref = MLP(), MLP()
    ref.copyparams(model)
    x = numpy.ones((2, 3), 'f')
    F.sum(model(x)).backward()
    F.sum(ref.dynamic(x)).backward()
    numpy.testing.assert_allclose(model.l1.W.grad, ref.l1.W.grad)


def test_use_static_graph_off_leaves_the_chain_alone():
    model = MLP()
    with chainer.using_config('use_static_graph', False):
        model(numpy.ones((1, 3), 'f'))
    assert not hasattr(model, 'schedule_manager') and not hasattr(model, 'static_schedule')


def test_positional_options_are_refused():
    with pytest.raises(TypeError, match='keyword'):
        static_graph(1, 2)
