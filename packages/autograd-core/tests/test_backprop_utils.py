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
