"""Variables over ChainerX arrays: the NumPy fallback behind them, what they show, and
their gradients (values against NumPy, numerical gradients)."""

import copy
import operator
import pickle

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import backend, gradient_check
from chainer.variable import Parameter, Variable

chainerx = pytest.importorskip('chainerx')

pytestmark = pytest.mark.chainerx


def _host(a):
    return backend.CpuDevice().send(a)


def test_a_variable_views_the_chainerx_array_and_shows_it():
    data = numpy.arange(6, dtype=numpy.float32).reshape(2, 3)
    a = chainerx.asarray(data)
    x = Variable(a)
    assert x._has_chainerx_array and x.xp is chainerx
    assert x.device == backend.get_device('native:0')
    assert isinstance(x.array, chainerx.ndarray) and x.array is x.data is x.array
    assert x.shape == (2, 3) and x.dtype == numpy.float32 and x.size == 6 and len(x) == 2
    data[0, 0] = 9  # the same memory all along
    assert float(x.array[0, 0]) == 9
    assert backend.get_array_module(x) is chainerx
    assert backend.get_device_from_array(x) == x.device
    with pytest.raises(RuntimeError):
        x.node  # as v7: a ChainerX variable shows no node


def test_array_is_viewed_anew_when_the_data_changes():
    x = Variable(chainerx.ones((2,), chainerx.float32))
    first = x.array
    x.array = chainerx.zeros((3,), chainerx.float32)
    assert x.array is not first and x.shape == (3,)
    x.array = numpy.ones(4, numpy.float32)  # a NumPy array makes it a NumPy variable
    assert not x._has_chainerx_array and isinstance(x.array, numpy.ndarray)


def test_requires_grad_rules_of_v7():
    a = chainerx.ones((2,), chainerx.float32).require_grad()
    with pytest.raises(ValueError):
        Variable(a, requires_grad=False)
    assert Variable(a).requires_grad
    x = Variable(chainerx.ones((2,), chainerx.float32), requires_grad=False)
    with pytest.raises(RuntimeError):
        x.grad = chainerx.ones((2,), chainerx.float32)
    y = Variable(chainerx.ones((2,), chainerx.float32))
    with pytest.raises(TypeError, match='different devices'):
        y.grad = numpy.ones(2, numpy.float32)
    with pytest.raises(TypeError, match='numpy.ndarray or cupy.ndarray'):
        Variable([1.0, 2.0])


@pytest.mark.parametrize('func, reference', [
    (F.relu, lambda a: numpy.maximum(a, 0)),
    (F.sigmoid, lambda a: 1 / (1 + numpy.exp(-a))),
    (lambda v: F.sum(v * v, axis=1), lambda a: (a * a).sum(axis=1)),
    (lambda v: F.softmax(v), lambda a: numpy.exp(a) / numpy.exp(a).sum(1, keepdims=True)),
])
def test_functions_run_on_the_numpy_array_and_return_chainerx(func, reference):
    a = numpy.random.RandomState(1).uniform(-1, 1, (3, 4)).astype(numpy.float32)
    y = func(Variable(chainerx.asarray(a)))
    assert isinstance(y.array, chainerx.ndarray) and y.device.name == 'native:0'
    numpy.testing.assert_allclose(_host(y.array), reference(a), rtol=1e-6)


def test_raw_chainerx_arrays_as_function_arguments():
    a = chainerx.asarray(numpy.array([[1., -2.], [3., 4.]], numpy.float32))
    t = chainerx.asarray(numpy.array([1, 0], numpy.int32))
    y = F.relu(a)  # an array alone: the output is a ChainerX variable too
    assert y._has_chainerx_array
    numpy.testing.assert_array_equal(_host(y.array), [[1, 0], [3, 4]])
    loss = F.softmax_cross_entropy(Variable(a), t)
    assert loss._has_chainerx_array
    expected = F.softmax_cross_entropy(_host(a), _host(t))
    numpy.testing.assert_allclose(float(_host(loss.array)), float(expected.array), rtol=1e-6)
    # a FunctionNode applied to arrays directly
    z, = F.activation.relu.ReLU().apply((a,))
    assert z._has_chainerx_array


def test_backward_gives_chainerx_gradients_equal_to_numpy_ones():
    a = numpy.random.RandomState(2).uniform(-1, 1, (4, 3)).astype(numpy.float32)
    w = numpy.random.RandomState(3).uniform(-1, 1, (2, 3)).astype(numpy.float32)

    def loss_of(x, W):
        return F.sum(F.tanh(F.linear(x, W)) ** 2)

    xn, wn = Variable(a.copy()), Variable(w.copy())
    loss_of(xn, wn).backward()
    xc, wc = Variable(chainerx.array(a)), Variable(chainerx.array(w))
    loss = loss_of(xc, wc)
    loss.backward()
    for var, ref in ((xc, xn), (wc, wn)):
        assert isinstance(var.grad, chainerx.ndarray) and var.grad is var.grad
        assert var.grad_var._has_chainerx_array
        numpy.testing.assert_allclose(_host(var.grad), ref.grad, rtol=1e-6)
    assert isinstance(loss.array, chainerx.ndarray)


def test_double_backprop_and_chainer_grad():
    x = Variable(chainerx.asarray(numpy.array([1., 2., 3.], numpy.float32)))
    y = x * x * x
    gx, = chainer.grad([y], [x], grad_outputs=[chainerx.ones((3,), chainerx.float32)],
                       enable_double_backprop=True)
    assert gx._has_chainerx_array
    numpy.testing.assert_allclose(_host(gx.array), [3, 12, 27])
    ggx, = chainer.grad([gx], [x], grad_outputs=[chainerx.ones((3,), chainerx.float32)])
    numpy.testing.assert_allclose(_host(ggx.array), [6, 12, 18])


def test_gradient_checks_take_chainerx_arrays():
    rng = numpy.random.RandomState(4)
    x = chainerx.asarray(rng.uniform(0.5, 1, (3, 2)).astype(numpy.float32))
    gy = chainerx.asarray(rng.uniform(-1, 1, (3, 2)).astype(numpy.float32))
    ggx = chainerx.asarray(rng.uniform(-1, 1, (3, 2)).astype(numpy.float32))
    gradient_check.check_backward(F.log, x, gy, dtype=numpy.float64)
    gradient_check.check_double_backward(F.sigmoid, x, gy, ggx, dtype=numpy.float64,
                                         atol=1e-3, rtol=1e-3)
    with pytest.raises(AssertionError):  # a wrong backward is caught on ChainerX too
        gradient_check.check_backward(lambda v: _WrongSquare().apply((v,))[0], x, gy,
                                      dtype=numpy.float64)


class _WrongSquare(chainer.FunctionNode):
    def forward(self, inputs):
        self.retain_inputs((0,))
        return inputs[0] ** 2,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 3 * x * grad_outputs[0],  # should be 2x


def test_backward_code_sees_the_numpy_arrays():
    seen = []

    class Probe(chainer.FunctionNode):
        def forward(self, inputs):
            seen.append(type(inputs[0]))
            self.retain_inputs((0,))
            return inputs[0] * 2,

        def backward(self, indexes, grad_outputs):
            x, = self.get_retained_inputs()
            seen.extend([type(x.array), x.xp, type(grad_outputs[0].array)])
            return grad_outputs[0] * 2,

    x = Variable(chainerx.ones((2,), chainerx.float32))
    y, = Probe().apply((x,))
    y.grad = chainerx.ones((2,), chainerx.float32)
    y.backward()
    assert seen == [numpy.ndarray, numpy.ndarray, numpy, numpy.ndarray]
    numpy.testing.assert_array_equal(_host(x.grad), [2, 2])
    assert isinstance(x.grad, chainerx.ndarray)


def test_loss_scale_is_divided_out_of_chainerx_gradients():
    x = Variable(chainerx.asarray(numpy.array([1., 2.], numpy.float32)))
    F.sum(x * 3).backward(loss_scale=8)
    numpy.testing.assert_array_equal(_host(x.grad), [3, 3])
    assert x._loss_scale is None


def test_to_device_keeps_the_memory():
    data = numpy.ones((2, 2), numpy.float32)
    x = Parameter(data)
    x.grad = numpy.zeros((2, 2), numpy.float32)
    x.to_device('native:0')
    assert x._has_chainerx_array and isinstance(x.grad, chainerx.ndarray)
    assert backend.from_chx(x.array) is data
    x.to_device('native:1')
    assert x.device.name == 'native:1' and backend.from_chx(x.array) is data
    x.to_device('@numpy')
    assert x.array is data and isinstance(x.grad, numpy.ndarray)
    # to_chx / from_chx
    v = Variable(numpy.ones(2, numpy.float32), requires_grad=False)
    assert v.to_chx() is v and v.device.name == 'native:0'
    assert v.from_chx() is v and isinstance(v.array, numpy.ndarray)


def test_v7_limits_of_moving_chainerx_variables():
    x = Variable(chainerx.ones((2,), chainerx.float32))  # requires_grad
    with pytest.raises(RuntimeError):
        x.to_device('@numpy')  # its graph would be lost in v7: refused
    y = Variable(numpy.ones(2, numpy.float32)) * 2
    with pytest.raises(RuntimeError):
        y.to_device('native:0')  # a variable with a creator
    z = Variable(chainerx.ones((2,), chainerx.float32))
    with pytest.raises(RuntimeError):
        z.addgrad(Variable(numpy.ones(2, numpy.float32)))


def test_parameters_are_initialized_on_the_chainerx_device():
    p = Parameter(chainer.initializers.Constant(2.0))
    p.to_device('native:0')
    assert p.array is None and p.device.name == 'native:0'
    p.initialize((2, 3))
    assert isinstance(p.array, chainerx.ndarray) and p.array.device.name == 'native:0'
    numpy.testing.assert_array_equal(_host(p.array), numpy.full((2, 3), 2.0))
    assert isinstance(p.grad, chainerx.ndarray)  # v7's NaN gradient, on the device
    assert numpy.isnan(_host(p.grad)).all()
    q = Parameter(chainerx.asarray(numpy.arange(3, dtype=numpy.float32)))
    assert q._has_chainerx_array and q.device.name == 'native:0'


def test_copy_deepcopy_pickle():
    p = Parameter(chainerx.asarray(numpy.arange(3, dtype=numpy.float32)))
    p.grad = chainerx.ones((3,), chainerx.float32)
    for q in (copy.copy(p), copy.deepcopy(p), pickle.loads(pickle.dumps(p))):
        assert q._has_chainerx_array and isinstance(q.grad, chainerx.ndarray)
        numpy.testing.assert_array_equal(_host(q.array), [0, 1, 2])
    deep = copy.deepcopy(p)
    deep.array += 1
    numpy.testing.assert_array_equal(_host(p.array), [0, 1, 2])  # deep: its own memory


def test_item_chx_array_and_array_types():
    x = Variable(chainerx.ones((2,), chainerx.float32))
    with pytest.raises(chainerx.DimensionError):
        x.item()
    assert Variable(chainerx.full((), 3, chainerx.float32)).item() == 3.0
    assert x.chx_array is x.array
    with pytest.raises(ValueError):
        Variable(numpy.ones(1)).chx_array
    assert chainerx.ndarray in chainer.get_array_types()


def test_numpy_variables_are_unchanged():
    x = Variable(numpy.ones(2, numpy.float32))
    assert not x._has_chainerx_array and x.xp is numpy and x.node is not None
    y = F.relu(x)
    assert type(y.array) is numpy.ndarray and not y._has_chainerx_array


def test_function_outputs_made_from_arrays_are_chainerx_too():
    y = Variable(chainerx.asarray(numpy.array([[0.1, 0.9], [0.8, 0.2]], numpy.float32)))
    t = chainerx.asarray(numpy.array([1, 1], numpy.int32))
    acc = F.accuracy(y, t)  # built from the arrays of its arguments
    assert acc._has_chainerx_array and float(_host(acc.array)) == 0.5


def test_copy_between_chainerx_and_numpy():
    x = chainerx.asarray(numpy.arange(3, dtype=numpy.float32))
    y = F.copy(x, '@numpy')
    assert type(y.array) is numpy.ndarray and not y._has_chainerx_array
    z = F.copy(numpy.arange(3, dtype=numpy.float32), 'native:1')
    assert isinstance(z.array, chainerx.ndarray) and z.device.name == 'native:1'
    w = F.copy(Variable(x), 'native:2')  # between ChainerX devices, with its gradient
    w.grad = chainerx.ones((3,), chainerx.float32, device='native:2')
    assert w.device.name == 'native:2'
    with pytest.raises(RuntimeError):  # as v7: not across the ChainerX boundary
        F.copy(Variable(x), '@numpy')


def test_arithmetic_with_chainerx_constants():
    x = Variable(numpy.array([1., 2.], numpy.float32))
    c = chainerx.asarray(numpy.array([10., 20.], numpy.float64))
    y = x + c
    numpy.testing.assert_array_equal(_host(y.array), [11, 22])
    assert y.dtype == numpy.float32
    numpy.testing.assert_array_equal(_host((x * chainerx.full((), 3, chainerx.float32)).array),
                                     [3, 6])


def test_noncontiguous_helper_keeps_values_and_device():
    from chainer.testing import array as testing_array

    a = chainerx.asarray(numpy.arange(6, dtype=numpy.float32).reshape(2, 3))
    b = testing_array._as_noncontiguous_array(a)
    assert isinstance(b, chainerx.ndarray) and not b.is_contiguous
    numpy.testing.assert_array_equal(_host(b), _host(a))
    n = testing_array._as_noncontiguous_array((numpy.ones((2, 2)), None))
    assert not n[0].flags.c_contiguous and n[1] is None


@pytest.mark.parametrize('op', [operator.add, operator.sub, operator.mul, operator.truediv,
                                operator.pow])
def test_a_chainerx_array_on_the_left_of_a_variable_gives_a_variable(op):
    # the ChainerX operator defers (NotImplemented) to the Variable's reflected one
    a = numpy.array([1.5, 2.0, 3.0], numpy.float32)
    b = numpy.array([2.0, 0.5, 1.5], numpy.float32)
    v = Variable(b.copy())
    y = op(chainerx.asarray(a), v)
    assert isinstance(y, Variable)
    numpy.testing.assert_allclose(_host(y.array), op(a, b), rtol=1e-6)
    F.sum(y).backward()
    assert v.grad is not None and v.grad.shape == (3,)


@pytest.mark.parametrize('through_guard', [True, False])
def test_gaussian_returns_its_noise_on_the_chainerx_device(through_guard, monkeypatch):
    # the guard passes ChainerX arguments as their NumPy arrays; without it the node
    # takes the ChainerX arrays itself: the noise comes back on the device either way
    from chainer.functions import _guard

    if not through_guard:
        monkeypatch.setattr(_guard, '_chainerx_active', False)
    mean = chainerx.asarray(numpy.arange(4, dtype=numpy.float32))
    ln_var = chainerx.asarray(numpy.zeros(4, numpy.float32))
    y, eps = F.gaussian(mean, ln_var, return_eps=True)
    assert isinstance(eps, chainerx.ndarray) and eps.dtype == numpy.float32
    _, eps_of_variables = F.gaussian(Variable(mean), Variable(ln_var), return_eps=True)
    assert isinstance(eps_of_variables, chainerx.ndarray)
    numpy.testing.assert_allclose(_host(y.array), numpy.arange(4) + _host(eps), rtol=1e-6)
    again = F.gaussian(mean, ln_var, eps=eps)
    numpy.testing.assert_array_equal(_host(again.array), _host(y.array))


def test_walker_alias_draws_on_a_chainerx_device():
    from chainer.utils import WalkerAlias

    sampler = WalkerAlias([0.1, 0.2, 0.7])
    numpy.random.seed(3)
    on_numpy = sampler.sample((500,))
    sampler.to_device('native:0')
    numpy.random.seed(3)
    drawn = sampler.sample((500,))
    assert isinstance(drawn, chainerx.ndarray) and drawn.dtype == numpy.int32
    numpy.testing.assert_array_equal(_host(drawn), on_numpy)  # the same draws


def test_negative_sampling_returns_its_samples_on_the_chainerx_device():
    rng = numpy.random.default_rng(0)
    x = chainerx.asarray(rng.standard_normal((2, 3)).astype(numpy.float32))
    W = chainerx.asarray(rng.standard_normal((5, 3)).astype(numpy.float32))
    t = chainerx.asarray(numpy.array([1, 4], numpy.int32))

    def sampler(shape):
        return chainerx.asarray(numpy.arange(numpy.prod(shape), dtype=numpy.int32)
                                .reshape(shape) % 5)

    loss, samples = F.negative_sampling(x, t, W, sampler, 2, return_samples=True)
    assert isinstance(loss.array, chainerx.ndarray)
    assert isinstance(samples, chainerx.ndarray) and samples.dtype == numpy.int32
    assert _host(samples)[:, 0].tolist() == [1, 4]  # the targets come first
