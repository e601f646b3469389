"""Backward of multi-output functions when only some outputs get a gradient.

The engine passes None for an output no gradient reached (as Chainer v7 does); each
node must treat it as zeros. The gradient with None entries must equal the one with
explicit zero gradients, with and without a graph of the backward (double backprop)."""

import numpy
import pytest

import chainer
import chainer.functions as F


def _rand(*shape):
    return numpy.random.RandomState(len(shape) + sum(shape)).uniform(
        -1, 1, shape).astype(numpy.float64)


# name -> (inputs, function of the input Variables returning a tuple of outputs)
CASES = {
    'split_axis': ([_rand(3, 6)], lambda x: F.split_axis(x, 3, axis=1)),
    'separate': ([_rand(3, 4)], lambda x: F.separate(x, axis=0)),
    'fft': ([_rand(2, 4), _rand(2, 4)], lambda r, i: F.fft((r, i))),
    'ifft': ([_rand(2, 4), _rand(2, 4)], lambda r, i: F.ifft((r, i))),
    'lstm': ([_rand(2, 3), _rand(2, 12)], lambda c, x: F.lstm(c, x)),
    'slstm': ([_rand(2, 3), _rand(2, 3), _rand(2, 12), _rand(2, 12)],
              lambda c1, c2, x1, x2: F.slstm(c1, c2, x1, x2)),
    'tree_lstm': ([_rand(2, 3), _rand(2, 3), _rand(2, 15)],
                  lambda c1, c2, x: F.tree_lstm(c1, c2, x)),
    'identity': ([_rand(2, 3), _rand(3)], lambda a, b: F.identity(a, b)),
    'broadcast': ([_rand(2, 3), _rand(1, 3)], lambda a, b: F.broadcast(a, b)),
    'transpose_sequence': ([_rand(3, 2), _rand(2, 2)],
                           lambda a, b: F.transpose_sequence([a, b])),
}


@pytest.mark.parametrize('name', sorted(CASES))
@pytest.mark.parametrize('double', [False, True])
def test_gradient_of_one_output_equals_zeros_for_the_others(name, double):
    arrays, fn = CASES[name]
    xs = [chainer.Variable(a.copy()) for a in arrays]
    ys = fn(*xs)
    assert len(ys) > 1
    for k in range(len(ys)):
        gy = _rand(*ys[k].shape) + 0.5
        with_none = chainer.grad([ys[k]], xs, [chainer.Variable(gy)],
                                 enable_double_backprop=double)
        zeros = [chainer.Variable(gy) if i == k else chainer.Variable(numpy.zeros_like(y.array))
                 for i, y in enumerate(ys)]
        with_zeros = chainer.grad(list(ys), xs, zeros, enable_double_backprop=double)
        for a, b in zip(with_none, with_zeros):
            if b is None or not b.array.any():
                assert a is None or not a.array.any()
            else:
                assert a is not None
                numpy.testing.assert_allclose(a.array, b.array, rtol=1e-12, atol=1e-12)
