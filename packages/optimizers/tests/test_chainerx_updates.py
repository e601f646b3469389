"""Updates of parameters on a ChainerX device: v7's fallback through the NumPy arrays
behind them, in place, with the same numbers as on the CPU."""

import numpy
import pytest

import chainer
from chainer import backend, optimizer, optimizers

chainerx = pytest.importorskip('chainerx')


class _Model(chainer.Chain):
    def __init__(self):
        super().__init__()
        rng = numpy.random.RandomState(0)
        with self.init_scope():
            self.w = chainer.Parameter(rng.uniform(-1, 1, (3, 4)).astype(numpy.float32))
            self.b = chainer.Parameter(rng.uniform(-1, 1, (4,)).astype(numpy.float32))
            self.big = chainer.Parameter(rng.uniform(-1, 1, (70000,)).astype(numpy.float32))


def _train(device, make_optimizer, fuse, steps=3):
    model = _Model()
    model.to_device(device)
    opt = make_optimizer()
    opt._fuse = fuse
    opt.setup(model)
    rng = numpy.random.RandomState(1)
    arrays = {name: backend.from_chx(p.array) for name, p in model.namedparams()}
    for _ in range(steps):
        for p in model.params():
            p.grad = backend.get_device(device).send(
                rng.uniform(-1, 1, p.shape).astype(numpy.float32))
        opt.update()
    # updated in place: the NumPy arrays behind the parameters are still the same ones
    for name, p in model.namedparams():
        assert backend.from_chx(p.array) is arrays[name]
        if device != '@numpy':
            assert isinstance(p.array, chainerx.ndarray)
    return {name: backend.CpuDevice().send(p.array).copy() for name, p in model.namedparams()}


@pytest.mark.parametrize('make_optimizer', [
    lambda: optimizers.SGD(lr=0.1),
    lambda: optimizers.MomentumSGD(lr=0.1),
    lambda: optimizers.Adam(alpha=0.01),
    lambda: optimizers.RMSprop(lr=0.01),
])
@pytest.mark.parametrize('fuse', [True, False])
def test_updates_on_native_match_numpy_bit_for_bit(make_optimizer, fuse):
    expected = _train('@numpy', make_optimizer, fuse)
    got = _train('native:0', make_optimizer, fuse)
    for name in expected:
        numpy.testing.assert_array_equal(got[name], expected[name])


def test_custom_rules_go_through_update_core_chainerx():
    calls = []

    class Rule(optimizer.UpdateRule):
        def update_core_cpu(self, param):
            calls.append(('cpu', type(param.array)))
            param.array -= param.grad

    class Opt(optimizer.GradientMethod):
        def create_update_rule(self):
            return Rule()

    p = chainer.Parameter(numpy.ones(3, numpy.float32))
    link = chainer.Link()
    with link.init_scope():
        link.p = p
    link.to_device('native:0')
    p.grad = chainerx.full((3,), 0.5, chainerx.float32)
    opt = Opt()
    opt.setup(link)
    opt.update()
    # the default update_core_chainerx runs update_core_cpu on the NumPy arrays
    assert calls == [('cpu', numpy.ndarray)]
    numpy.testing.assert_array_equal(backend.CpuDevice().send(p.array), [0.5] * 3)
    assert isinstance(p.array, chainerx.ndarray)


def test_update_core_chainerx_can_be_overridden():
    class Rule(optimizer.UpdateRule):
        def update_core_chainerx(self, param):
            param.array[...] = param.array - 2 * param.grad

    p = chainer.Parameter(chainerx.asarray(numpy.ones(2, numpy.float32)))
    p.grad = chainerx.ones((2,), chainerx.float32)
    Rule().update(p)
    numpy.testing.assert_array_equal(backend.CpuDevice().send(p.array), [-1, -1])


def test_states_of_the_per_parameter_path_are_chainerx_arrays():
    p = chainer.Parameter(chainerx.asarray(numpy.ones(4, numpy.float32)))
    p.grad = chainerx.ones((4,), chainerx.float32)
    rule = optimizers.Adam().create_update_rule()
    rule.update(p)
    assert all(isinstance(v, chainerx.ndarray) for v in rule.state.values())
    m = rule.state['m']
    rule.update(p)
    assert rule.state['m'] is m  # updated in place through the NumPy array behind it
    assert float(backend.CpuDevice().send(m)[0]) != 0


def test_loss_scale_is_not_divided_again():
    # v7: a ChainerX gradient comes unscaled from backward, so the rule leaves it
    p = chainer.Parameter(chainerx.asarray(numpy.zeros(2, numpy.float32)))
    p.grad = chainerx.ones((2,), chainerx.float32)
    p._loss_scale = 4
    optimizers.SGD(lr=1).create_update_rule().update(p)
    numpy.testing.assert_array_equal(backend.CpuDevice().send(p.array), [-1, -1])
