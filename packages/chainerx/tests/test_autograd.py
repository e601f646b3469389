import numpy
import pytest

import chainerx


def _full(value, shape=(2,)):
    return chainerx.full(shape, value, 'float32')


def test_backward_accumulates_into_leaves():
    x = _full(3).require_grad()
    y = x * x + x
    y.backward()
    assert x.grad._debug_flat_data == [7, 7]
    (x * 2).backward()
    assert x.grad._debug_flat_data == [9, 9]
    assert not y.is_grad_required()
    with pytest.raises(chainerx.ChainerxError):
        y.get_grad()


def test_grad_leaves_array_grads_alone():
    x = _full(2).require_grad()
    w = _full(5).require_grad()
    gx, gw = chainerx.grad([x * w], [x, w])
    assert gx._debug_flat_data == [5, 5] and gw._debug_flat_data == [2, 2]
    assert x.grad is None and w.grad is None


def test_grad_outputs_length_is_checked():
    x = _full(2).require_grad()
    with pytest.raises(chainerx.GradientError):
        chainerx.grad([x * 2, x * 3], [x], grad_outputs=[_full(1)])


def test_double_backprop():
    x = _full(3).require_grad()
    y = x * x * x
    chainerx.backward(y, enable_double_backprop=True)
    gx = x.grad  # 3 x^2, connected
    assert gx._debug_flat_data == [27, 27]
    x.cleargrad()
    gx.backward()
    assert x.grad._debug_flat_data == [18, 18]  # 6 x


def test_first_order_backward_is_not_recorded():
    x = _full(3).require_grad()
    chainerx.backward(x * x)
    assert not x.grad.is_backprop_required()


def test_graphs_are_separate():
    with chainerx.backprop_scope('a') as a, chainerx.backprop_scope('b') as b:
        x = _full(2).require_grad(a)
        w = _full(5).require_grad(b)
        y = x * w
        assert y.is_backprop_required(a) and y.is_backprop_required(b)
        assert not y.is_backprop_required()
        chainerx.backward(y, a)
        assert x.get_grad(a)._debug_flat_data == [5, 5]
        # computed with w, which is in graph b: the gradient stays in graph b
        assert x.get_grad(a).is_backprop_required(b)
        assert w.get_grad(b) is None


def test_no_backprop_mode_stops_recording():
    x = _full(1).require_grad()
    with chainerx.no_backprop_mode():
        y = x * 2
        assert not chainerx.is_backprop_required()
        with chainerx.force_backprop_mode():
            z = x * 2
    assert not y.is_backprop_required()
    assert z.is_backprop_required()


def test_as_grad_stopped_and_views():
    x = _full(1).require_grad()
    assert not x.as_grad_stopped().is_backprop_required()
    assert not x.view().is_grad_required()
    assert x.view().is_backprop_required()


def test_released_backprop_id():
    with chainerx.backprop_scope('gone') as bp:
        x = _full(1).require_grad(bp)
    assert "'<expired>'" in repr(x)
    with pytest.raises(chainerx.ChainerxError):
        x.get_grad(bp)


def test_set_grad_checks_the_gradient():
    x = chainerx.ones((3,), 'float64').require_grad()
    with pytest.raises(chainerx.GradientError):
        x.set_grad(chainerx.ones((3,), 'float32'))
    with pytest.raises(chainerx.ChainerxError):
        chainerx.ones((3,)).set_grad(chainerx.ones((3,)))


def test_integer_arrays_cannot_require_grad():
    with pytest.raises(chainerx.DtypeError):
        chainerx.ones((2,), 'int32').require_grad()


def test_retain_grad_keeps_intermediate_gradients():
    x = _full(3).require_grad()
    h = x * 2
    y = h + x
    chainerx.grad([y], [x], retain_grad=True)
    assert h.get_grad()._debug_flat_data == [1, 1]


def test_intermediate_arrays_can_be_freed():
    x = chainerx.array(numpy.arange(4.0, dtype='float32')).require_grad()
    y = (chainerx.exp(x) * 2).sum()  # the product's array is gone; its node stays
    y.backward()
    numpy.testing.assert_allclose(chainerx.to_numpy(x.grad), 2 * numpy.exp(numpy.arange(4.0)),
                                  rtol=1e-6)


def test_check_backward_accepts_right_and_rejects_wrong_gradients():
    def x_and_eps():
        x = chainerx.array([0.5, -1.0, 2.0], 'float64').require_grad()
        return (x,), (chainerx.ones((3,), 'float64'),), (chainerx.full((3,), 1e-4, 'float64'),)

    inputs, gys, eps = x_and_eps()
    chainerx.check_backward(lambda xs: (chainerx.sin(xs[0]) * xs[0],), inputs, gys, eps)
    inputs, gys, eps = x_and_eps()
    with pytest.raises(chainerx.GradientCheckError):
        chainerx.check_backward(lambda xs: ((xs[0] * xs[0]).as_grad_stopped() + xs[0],),
                                inputs, gys, eps)


def test_check_double_backward():
    x = chainerx.array([0.5, -1.0], 'float64').require_grad()
    gy = chainerx.ones((2,), 'float64').require_grad()
    eps = tuple(chainerx.full((2,), 1e-4, 'float64') for _ in range(2))
    chainerx.check_double_backward(lambda xs: (chainerx.exp(xs[0]) * xs[0],), (x,), (gy,),
                                   (chainerx.ones((2,), 'float64'),), eps, 1e-6, 1e-5)
