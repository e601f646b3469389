"""chainer._backprop_utils: one backward step on gradient lists, as v7 code drives it."""

import numpy
import pytest

import chainer
from chainer import FunctionNode, Variable, _backprop_utils


class Scale(FunctionNode):
    """y = 2 * a + 3 * b."""

    def forward(self, inputs):
        a, b = inputs
        return 2 * a + 3 * b,

    def backward(self, indexes, grad_outputs):
        gy, = grad_outputs
        return 2 * gy, 3 * gy


class ScaleAccumulating(Scale):
    def backward_accumulate(self, indexes, grad_outputs, grad_inputs):
        gxs = self.backward(indexes, grad_outputs)
        return tuple(gx if g is None else gx + g for gx, g in zip(gxs, grad_inputs))


def _applied(cls, same_input=False):
    a = Variable(numpy.array([1.0, 2.0]))
    b = a if same_input else Variable(numpy.array([3.0, 4.0]))
    f = cls()
    f.apply((a, b))
    return f, a, b


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulating])
@pytest.mark.parametrize('lazy', [False, True])
def test_step_adds_to_the_gradients_so_far(cls, lazy):
    f, a, b = _applied(cls)
    gy = Variable(numpy.array([1.0, 10.0]))
    grads = {a.node: [Variable(numpy.array([100.0, 100.0]))], b.node: []}
    with chainer.using_config('lazy_grad_sum', lazy):
        _backprop_utils.backprop_step(f, (0, 1), (gy,), grads, False)
    if not lazy:
        assert all(len(g) <= 1 for g in grads.values())
    numpy.testing.assert_array_equal(_backprop_utils._reduce(grads[a.node]).array,
                                     [102.0, 120.0])
    numpy.testing.assert_array_equal(_backprop_utils._reduce(grads[b.node]).array,
                                     [3.0, 30.0])


@pytest.mark.parametrize('cls', [Scale, ScaleAccumulating])
def test_step_with_one_node_at_two_positions(cls):
    f, a, _ = _applied(cls, same_input=True)
    grads = {a.node: [Variable(numpy.array([1.0, 1.0]))]}
    _backprop_utils.backprop_step(f, (0, 1), (Variable(numpy.ones(2)),), grads, True)
    numpy.testing.assert_array_equal(_backprop_utils._reduce(grads[a.node]).array, [6.0, 6.0])


def test_reduce():
    assert _backprop_utils._reduce([]) is None
    v = Variable(numpy.ones(2))
    assert _backprop_utils._reduce([v]) is v
    numpy.testing.assert_array_equal(_backprop_utils._reduce([v, v, v]).array, [3.0, 3.0])


def test_gradient_sums_made_in_place_never_touch_shared_arrays():
    # the sum of a weight's many gradients is accumulated in place (one array for all
    # uses); gradients handed on by a backward (Add passes gy to both inputs) stay intact
    rng = numpy.random.RandomState(0)
    w = chainer.Variable(rng.randn(3, 2).astype('f'))
    x = chainer.Variable(rng.randn(3, 2).astype('f'))
    terms = []
    for k in range(5):
        s = w * (k + 1) + x  # x collects one gradient per term
        terms.append(chainer.functions.sum(s * s))
    loss = chainer.functions.add(*terms)
    loss.backward()
    expected_w = sum(2 * (w.array * (k + 1) + x.array) * (k + 1) for k in range(5))
    expected_x = sum(2 * (w.array * (k + 1) + x.array) for k in range(5))
    numpy.testing.assert_allclose(w.grad, expected_w, rtol=1e-5)
    numpy.testing.assert_allclose(x.grad, expected_x, rtol=1e-5)
    g0 = numpy.ones((3, 2), 'f')
    y = x + x + x  # Add hands the same gradient to both of its inputs
    y.grad = g0.copy()
    x.cleargrad()
    y.backward()
    numpy.testing.assert_array_equal(x.grad, 3 * g0)
    numpy.testing.assert_array_equal(g0, numpy.ones((3, 2), 'f'))
    h = x * 2
    y = h + h + h
    y.grad = g0.copy()
    x.cleargrad()
    y.backward(retain_grad=True)
    numpy.testing.assert_array_equal(y.grad, g0)
    numpy.testing.assert_array_equal(h.grad, 3 * g0)
    numpy.testing.assert_array_equal(x.grad, 6 * g0)
