"""FunctionNodes with their own ``forward_chainerx``: run on ChainerX inputs (as v7),
with gradients of the first and second order from ChainerX's autograd, checked
numerically; ``chainer.Fallback`` and NumPy inputs keep ``forward``."""

import numpy
import pytest

import chainer
from chainer import gradient_check
from chainer.function_node import FunctionNode
from chainer.variable import Variable

chainerx = pytest.importorskip('chainerx')

pytestmark = pytest.mark.chainerx


class CubePlusProduct(FunctionNode):
    """(x ** 3 + x * w, w * 2): defined on ChainerX only."""

    calls = 0

    def forward_chainerx(self, inputs):
        type(self).calls += 1
        x, w = inputs
        return x * x * x + x * w, w * 2


class FallsBack(FunctionNode):
    def forward_chainerx(self, inputs):
        return chainer.Fallback

    def forward(self, inputs):
        x, = inputs
        return x * 3,

    def backward(self, indexes, grad_outputs):
        return grad_outputs[0] * 3,


def _chx(a):
    return chainerx.array(a)


def test_forward_chainerx_runs_once_on_chainerx_inputs():
    x, w = numpy.array([1.0, -2.0]), numpy.array([0.5, 3.0])
    CubePlusProduct.calls = 0
    y, z = CubePlusProduct().apply((Variable(_chx(x)), Variable(_chx(w))))
    assert CubePlusProduct.calls == 1
    assert isinstance(y.array, chainerx.ndarray)
    numpy.testing.assert_allclose(chainerx.to_numpy(y.array), x ** 3 + x * w)
    numpy.testing.assert_allclose(chainerx.to_numpy(z.array), w * 2)
    assert y.creator.label == 'CubePlusProduct'


def test_gradients_of_first_and_second_order():
    rng = numpy.random.RandomState(0)
    x, w = rng.uniform(-1, 1, (3,)), rng.uniform(-1, 1, (3,))
    gy, gz = rng.uniform(-1, 1, (3,)), rng.uniform(-1, 1, (3,))

    def f(a, b):
        return CubePlusProduct().apply((a, b))

    gradient_check.check_backward(f, (_chx(x), _chx(w)), (_chx(gy), _chx(gz)),
                                  dtype=numpy.float64)
    ggx, ggw = rng.uniform(-1, 1, (3,)), rng.uniform(-1, 1, (3,))
    gradient_check.check_double_backward(f, (_chx(x), _chx(w)), (_chx(gy), _chx(gz)),
                                         (_chx(ggx), _chx(ggw)), dtype=numpy.float64)
    # the values of the gradients
    xv, wv = Variable(_chx(x)), Variable(_chx(w))
    y, z = f(xv, wv)
    gx, gw = chainer.grad([y, z], [xv, wv], [Variable(_chx(gy)), Variable(_chx(gz))])
    numpy.testing.assert_allclose(chainerx.to_numpy(gx.array), gy * (3 * x ** 2 + w))
    numpy.testing.assert_allclose(chainerx.to_numpy(gw.array), gy * x + 2 * gz)


def test_fallback_and_numpy_inputs_use_forward():
    x = numpy.array([1.0, 2.0])
    y, = FallsBack().apply((Variable(_chx(x)),))
    numpy.testing.assert_allclose(chainerx.to_numpy(y.array), x * 3)
    y, = FallsBack().apply((Variable(x),))
    assert isinstance(y.array, numpy.ndarray)
    with pytest.raises(NotImplementedError):
        CubePlusProduct().apply((Variable(x), Variable(x)))
