"""Leaf gradients summed at the end of the pass (chainer._deferred_grad).

A weight used at many steps gets its gradient as one product (linear) or one
scatter (embedding) when backward ends; these tests check the values against
NumPy sums of the per-step terms, and every case where the pass must not defer.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import _deferred_grad
from chainer.function_hooks import TimerHook


@pytest.fixture(autouse=True)
def defer_small_weights(monkeypatch):
    """The tests' small weights are deferred too (by default only large ones are)."""
    monkeypatch.setattr(_deferred_grad, 'MIN_SIZE', 1)


@pytest.fixture
def made(monkeypatch):
    """The names of the deferred gradients made, in order."""
    names = []
    original = _deferred_grad.DeferredGrad.__init__

    def record(self, *args):
        names.append(type(self).__name__)
        original(self, *args)

    monkeypatch.setattr(_deferred_grad.DeferredGrad, '__init__', record)
    return names


def _unrolled(steps=6, batch=3, vocab=7, units=4, out=5, seed=0, dtype=numpy.float64):
    """An embedding and a linear map used at every step; returns loss, params, records."""
    rng = numpy.random.default_rng(seed)
    E = chainer.Parameter(rng.standard_normal((vocab, units)).astype(dtype))
    W = chainer.Parameter(rng.standard_normal((out, units)).astype(dtype))
    ids = rng.integers(0, vocab, size=(steps, batch)).astype(numpy.int32)
    gys = rng.standard_normal((steps, batch, out)).astype(dtype)
    loss = 0
    for t in range(steps):
        y = F.linear(F.embed_id(ids[t], E), W)
        loss += F.sum(y * gys[t])
    return loss, E, W, ids, gys


def _expected(E, W, ids, gys):
    """NumPy: gW = sum_t gy_t^T x_t and gE = rows of gy_t W scattered at ids_t."""
    gW = numpy.zeros_like(W.array)
    gE = numpy.zeros_like(E.array)
    for t in range(len(ids)):
        x = E.array[ids[t]]
        gW += gys[t].T @ x
        numpy.add.at(gE, ids[t], gys[t] @ W.array)
    return gE, gW


def test_grads_of_weights_shared_over_steps_match_numpy():
    loss, E, W, ids, gys = _unrolled()
    loss.backward()
    gE, gW = _expected(E, W, ids, gys)
    numpy.testing.assert_allclose(W.grad, gW, rtol=1e-12, atol=1e-12)
    numpy.testing.assert_allclose(E.grad, gE, rtol=1e-12, atol=1e-12)
    assert isinstance(W.grad, numpy.ndarray) and W.grad.dtype == numpy.float64


def test_float32_grads_keep_the_dtype():
    loss, E, W, ids, gys = _unrolled(dtype=numpy.float32)
    loss.backward()
    gE, gW = _expected(E, W, ids, gys)
    assert W.grad.dtype == numpy.float32 and E.grad.dtype == numpy.float32
    numpy.testing.assert_allclose(W.grad, gW, rtol=1e-5, atol=1e-5)
    numpy.testing.assert_allclose(E.grad, gE, rtol=1e-5, atol=1e-5)


def test_grads_add_to_an_existing_grad():
    loss, E, W, ids, gys = _unrolled()
    W.grad = numpy.ones_like(W.array)
    loss.backward()
    _, gW = _expected(E, W, ids, gys)
    numpy.testing.assert_allclose(W.grad, gW + 1, rtol=1e-12)


@pytest.mark.parametrize('mode', ['debug', 'hook', 'double', 'retain', 'lazy'])
def test_passes_that_must_not_defer_give_the_same_grads(mode, made):
    loss, E, W, ids, gys = _unrolled()
    if mode == 'debug':
        with chainer.using_config('debug', True):
            loss.backward()
    elif mode == 'hook':
        with TimerHook():
            loss.backward()
    elif mode == 'double':
        loss.backward(enable_double_backprop=True)
    elif mode == 'retain':
        loss.backward(retain_grad=True)
    else:
        with chainer.using_config('lazy_grad_sum', True):
            loss.backward()
    assert made == []
    gE, gW = _expected(E, W, ids, gys)
    numpy.testing.assert_allclose(W.grad, gW, rtol=1e-12)
    numpy.testing.assert_allclose(E.grad, gE, rtol=1e-12)


def test_the_plain_pass_defers(made):
    loss, E, W, ids, gys = _unrolled()
    assert not _deferred_grad.enabled()
    loss.backward()
    assert not _deferred_grad.enabled()  # off again after the pass
    assert 'ProductSum' in made and 'RowScatterSum' in made
    gE, gW = _expected(E, W, ids, gys)
    numpy.testing.assert_allclose(W.grad, gW, rtol=1e-12)


def test_weight_that_is_not_a_leaf_gets_its_dense_grad():
    rng = numpy.random.default_rng(1)
    V = chainer.Parameter(rng.standard_normal((5, 4)))
    x = rng.standard_normal((3, 4))
    W = V * 2.0  # made by a function: its gradient flows on to V
    loss = F.sum(F.linear(x, W)) + F.sum(F.linear(x * 2, W))
    loss.backward()
    expected = 2 * (numpy.ones((3, 5)).T @ x + numpy.ones((3, 5)).T @ (x * 2))
    numpy.testing.assert_allclose(V.grad, expected, rtol=1e-12)


def test_deferred_and_dense_grads_of_one_weight_add_up():
    rng = numpy.random.default_rng(2)
    W = chainer.Parameter(rng.standard_normal((5, 4)))
    x = rng.standard_normal((3, 4))
    # linear (deferred), a plain function of W (dense), linear again (deferred)
    loss = F.sum(F.linear(x, W)) + F.sum(W * W) + F.sum(F.linear(x * 3, W))
    loss.backward()
    expected = numpy.ones((3, 5)).T @ x + 2 * W.array + numpy.ones((3, 5)).T @ (3 * x)
    numpy.testing.assert_allclose(W.grad, expected, rtol=1e-12)


def test_many_large_factors_are_summed_on_the_way():
    # the factors of a 2x2 weight over a batch of 500 exceed the bound at once
    rng = numpy.random.default_rng(3)
    W = chainer.Parameter(rng.standard_normal((2, 2)))
    xs = rng.standard_normal((20, 500, 2))
    loss = 0
    for x in xs:
        loss += F.sum(F.linear(x, W))
    loss.backward()
    expected = sum(numpy.ones((500, 2)).T @ x for x in xs)
    numpy.testing.assert_allclose(W.grad, expected, rtol=1e-12)


def test_embed_ignore_label_gets_no_grad():
    E = chainer.Parameter(numpy.arange(12.0).reshape(4, 3))
    loss = 0
    for ids in ([0, -1, 2], [-1, -1, 2]):
        loss += F.sum(F.embed_id(numpy.array(ids, numpy.int32), E, ignore_label=-1))
    loss.backward()
    expected = numpy.zeros((4, 3))
    expected[0] = 1
    expected[2] = 2
    numpy.testing.assert_array_equal(E.grad, expected)


def test_product_sums_of_other_dtypes_do_not_merge():
    a = _deferred_grad.ProductSum(numpy.ones((2, 3)), numpy.ones((2, 4)), numpy.float64)
    b = _deferred_grad.ProductSum(numpy.ones((2, 3), numpy.float32),
                                  numpy.ones((2, 4), numpy.float32), numpy.float64)
    c = _deferred_grad.RowScatterSum((3, 4), numpy.float64, numpy.array([0]),
                                     numpy.ones((1, 4)))
    assert not a.merge(b)
    assert not a.merge(c)
    numpy.testing.assert_array_equal(a.materialize(), numpy.full((3, 4), 2.0))


def test_materialize_without_factors_is_an_error():
    a = _deferred_grad.ProductSum(numpy.ones((2, 3)), numpy.ones((2, 4)), numpy.float64)
    a.materialize()
    a._base = None
    with pytest.raises(RuntimeError, match='without factors'):
        a.materialize()


def test_a_factor_larger_than_the_bound_is_summed_at_once():
    # a batch of 100 against a 2x3 weight: holding gy and x would cost far more than
    # the gradient itself, so the product is computed on the spot
    rng = numpy.random.default_rng(5)
    gy, x = rng.standard_normal((100, 2)), rng.standard_normal((100, 3))
    big = _deferred_grad.ProductSum(gy, x, numpy.float64)
    assert big._left == [] and big._held == 0
    small = _deferred_grad.ProductSum(gy[:1], x[:1], numpy.float64)
    assert len(small._left) == 1
    assert big.merge(small)
    numpy.testing.assert_allclose(big.materialize(), gy.T @ x + gy[:1].T @ x[:1],
                                  rtol=1e-12)
    rows = _deferred_grad.RowScatterSum((2, 3), numpy.float64, numpy.zeros(50, int),
                                        numpy.ones((50, 3)))
    assert rows._left == []
    numpy.testing.assert_array_equal(rows.materialize(), [[50.0] * 3, [0.0] * 3])


def test_weight_tied_between_embedding_and_output_layer():
    # one matrix as both the embedding and the output layer of a language model
    rng = numpy.random.default_rng(6)
    W = chainer.Parameter(rng.standard_normal((7, 4)))
    ids = rng.integers(0, 7, size=(5, 3)).astype(numpy.int32)
    gys = rng.standard_normal((5, 3, 7))
    loss = 0
    for t in range(5):
        loss += F.sum(F.linear(F.embed_id(ids[t], W), W) * gys[t])
    loss.backward()
    expected = numpy.zeros_like(W.array)
    for t in range(5):
        x = W.array[ids[t]]
        expected += gys[t].T @ x  # as the output layer
        numpy.add.at(expected, ids[t], gys[t] @ W.array)  # as the embedding
    numpy.testing.assert_allclose(W.grad, expected, rtol=1e-12, atol=1e-12)


def test_deferred_sum_keeps_each_kind_and_adds_them():
    a = _deferred_grad.ProductSum(numpy.ones((1, 2)), numpy.ones((1, 3)), numpy.float64)
    r = _deferred_grad.RowScatterSum((2, 3), numpy.float64, numpy.array([1]),
                                     numpy.ones((1, 3)))
    both = _deferred_grad.DeferredSum(a, r)
    assert both.merge(_deferred_grad.ProductSum(numpy.ones((1, 2)), numpy.ones((1, 3)),
                                                numpy.float64))
    assert len(both._parts) == 2
    assert not both.merge(_deferred_grad.ProductSum(numpy.ones((1, 5)), numpy.ones((1, 3)),
                                                    numpy.float64))
    numpy.testing.assert_array_equal(both.materialize(), [[2.0] * 3, [3.0] * 3])


def test_a_backward_called_by_hand_inside_the_pass_gets_dense_grads():
    # a function whose backward runs another function's backward itself must get plain
    # gradients back, although the pass around it defers
    seen = []

    class Outer(chainer.FunctionNode):
        def forward(self, inputs):
            x, W = inputs
            self.retain_inputs((0, 1))
            return x.dot(W.T),

        def backward(self, indexes, grad_outputs):
            x, W = self.get_retained_inputs()
            inner = F.connection.linear.LinearFunction()
            with chainer.force_backprop_mode():  # a graph node, to call backward on
                inner.apply((x, W))
            gxs = inner.backward((0, 1), grad_outputs)
            seen.extend(type(g) for g in gxs)
            return gxs

    rng = numpy.random.default_rng(7)
    W = chainer.Parameter(rng.standard_normal((3, 2)))
    x = chainer.Variable(rng.standard_normal((4, 2)))
    y, = Outer().apply((x, W))
    F.sum(y).backward()
    assert seen == [chainer.Variable, chainer.Variable]
    numpy.testing.assert_allclose(W.grad, numpy.ones((4, 3)).T @ x.array, rtol=1e-12)


def test_small_weights_are_not_deferred_by_default(monkeypatch, made):
    monkeypatch.setattr(_deferred_grad, 'MIN_SIZE', 1 << 14)
    loss, E, W, ids, gys = _unrolled()  # 7x4 and 5x4 weights
    loss.backward()
    assert made == []
    big = chainer.Parameter(numpy.ones((128, 128)))
    F.sum(F.linear(numpy.ones((2, 128)), big)).backward()
    assert made == ['ProductSum']
    numpy.testing.assert_array_equal(big.grad, numpy.full((128, 128), 2.0))


def test_an_empty_batch_gives_zero_gradients(monkeypatch):
    monkeypatch.setattr(_deferred_grad, 'MIN_SIZE', 1 << 14)  # the default: big weights
    W = chainer.Parameter(numpy.ones((128, 256), numpy.float32))
    E = chainer.Parameter(numpy.ones((300, 64), numpy.float32))
    loss = F.sum(F.linear(numpy.zeros((0, 256), numpy.float32), W))
    loss += F.sum(F.embed_id(numpy.zeros((0,), numpy.int32), E))
    loss.backward()
    numpy.testing.assert_array_equal(W.grad, numpy.zeros((128, 256), numpy.float32))
    numpy.testing.assert_array_equal(E.grad, numpy.zeros((300, 64), numpy.float32))
