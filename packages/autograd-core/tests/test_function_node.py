import threading

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import FunctionNode, Variable
from chainer.utils import type_check


class Square(FunctionNode):
    def check_type_forward(self, in_types):
        type_check.argname(in_types, ('x',))
        type_check.expect(in_types[0].dtype.kind == 'f')

    def forward(self, inputs):
        self.retain_inputs((0,))
        x, = inputs
        return x * x,

    def backward(self, indexes, grad_outputs):
        x, = self.get_retained_inputs()
        return 2 * x * grad_outputs[0],


def square(x):
    return Square().apply((x,))[0]


def test_custom_function_node():
    x = Variable(numpy.array([1.0, 3.0]))
    y = square(x)
    assert isinstance(y.creator_node, Square)
    assert y.creator_node.inputs[0] is x.node
    assert y.rank == 1
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, [2.0, 6.0])


def test_type_check_error_names_function_argument_and_expectation():
    with pytest.raises(type_check.InvalidType) as e:
        square(numpy.array([1, 2]))
    text = str(e.value)
    assert 'Square' in text
    assert 'x.dtype.kind == ' in text
    assert 'Actual: i != f' in text


def test_type_check_disabled():
    with chainer.using_config('type_check', False):
        y = square(numpy.array([2, 3]))
    numpy.testing.assert_array_equal(y.array, [4, 9])


def test_apply_twice_keeps_both_graphs_correct():
    x = Variable(numpy.array([1.0, 2.0]))
    f = Square()
    (y1,) = f.apply((x,))
    # applied again while y1 is alive: a copy of the node runs, y1's graph is intact
    (y2,) = f.apply((x * 3,))
    assert y1.creator_node is f and y2.creator_node is not f
    assert isinstance(y2.creator_node, Square)
    F.sum(y1 + y2).backward()
    # d/dx (x^2 + 9x^2) = 20x
    numpy.testing.assert_array_equal(x.grad, [20.0, 40.0])
    # once the outputs of the first application are gone, the node itself runs again
    del y1, y2
    x.cleargrad()
    (y3,) = f.apply((x,))
    assert y3.creator_node is f
    y3.grad = numpy.ones(2)
    y3.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0, 4.0])


def test_reapplied_node_keeps_the_state_of_its_first_forward():
    class Mask(FunctionNode):
        mask = None

        def forward(self, inputs):
            if self.mask is None:
                self.mask = numpy.random.rand(*inputs[0].shape) > 0.5
            return inputs[0] * self.mask,

        def backward(self, indexes, grad_outputs):
            return grad_outputs[0] * self.mask,

    x = Variable(numpy.ones(50))
    f = Mask()
    (y1,) = f.apply((x,))
    (y2,) = f.apply((x,))
    numpy.testing.assert_array_equal(y1.array, y2.array)


def test_graph_is_built_for_arrays_while_backprop_is_enabled():
    # as in v7: the output of a function on plain arrays has its creator (e.g. to read a
    # dropout mask), but needs no gradient
    y = square(numpy.ones(2))
    assert isinstance(y.creator, Square) and not y.requires_grad
    with chainer.no_backprop_mode():
        assert square(numpy.ones(2)).creator is None


def test_forward_must_return_tuple():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0]

    with pytest.raises(TypeError, match='tuple'):
        Bad().apply((numpy.ones(1),))


def test_bad_input_type():
    with pytest.raises(TypeError, match='Variables or arrays'):
        square([1.0, 2.0])


def test_retained_outputs_and_output_data():
    class Exp(FunctionNode):
        def forward(self, inputs):
            self.retain_outputs((0,))
            return numpy.exp(inputs[0]),

        def backward(self, indexes, gy):
            y, = self.get_retained_outputs()
            return gy[0] * y,

    x = Variable(numpy.array([0.0, 1.0]))
    y = Exp().apply((x,))[0]
    numpy.testing.assert_allclose(y.creator_node.output_data[0], numpy.exp(x.array))
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, numpy.exp(x.array))


def test_retained_output_recreated_after_output_is_collected():
    class Exp(FunctionNode):
        def forward(self, inputs):
            self.retain_outputs((0,))
            return numpy.exp(inputs[0]),

        def backward(self, indexes, gy):
            y, = self.get_retained_outputs()
            return gy[0] * y,

    x = Variable(numpy.array([1.0]))
    z = F.sum(Exp().apply((x,))[0] * 2)
    z.backward()
    numpy.testing.assert_allclose(x.grad, 2 * numpy.e)


def test_higher_order_gradients_of_composed_function():
    x = Variable(numpy.array([0.3, -0.7, 1.2]))
    y = F.sum(F.tanh(x) * x * x)
    gx, = chainer.grad([y], [x], enable_double_backprop=True)
    ggx, = chainer.grad([F.sum(gx)], [x], enable_double_backprop=True)
    a = x.array
    t = numpy.tanh(a)
    s = 1 - t * t
    # f = t x^2, f' = s x^2 + 2 t x, f'' = -2 t s x^2 + 4 s x + 2 t
    numpy.testing.assert_allclose(gx.array, s * a * a + 2 * t * a)
    numpy.testing.assert_allclose(ggx.array, -2 * t * s * a * a + 4 * s * a + 2 * t)
    gggx, = chainer.grad([F.sum(ggx)], [x])
    h = 1e-5
    num = []
    for i in range(3):
        d = numpy.zeros(3)
        d[i] = h

        def f2(v):
            tt = numpy.tanh(v)
            ss = 1 - tt * tt
            return (-2 * tt * ss * v * v + 4 * ss * v + 2 * tt).sum()
        num.append((f2(a + d) - f2(a - d)) / (2 * h))
    numpy.testing.assert_allclose(gggx.array, num, rtol=1e-5, atol=1e-6)


def test_backward_enable_double_backprop_keeps_grad_graph():
    x = Variable(numpy.array(2.0))
    y = x * x * x
    y.backward(enable_double_backprop=True)
    gx = x.grad_var
    assert gx.creator is not None
    x.cleargrad()
    gx.backward()
    numpy.testing.assert_allclose(x.grad, 6 * 2.0)


def test_grad_does_not_touch_leaf_grads_and_set_grad():
    x = Variable(numpy.array([1.0, 2.0]))
    w = Variable(numpy.array([3.0, 4.0]))
    y = F.sum(x * w)
    gx, = chainer.grad([y], [x])
    numpy.testing.assert_allclose(gx.array, w.array)
    assert x.grad is None and w.grad is None
    gw, = chainer.grad([y], [w], set_grad=True)
    assert w.grad_var is gw


def test_grad_wrt_intermediate_and_grad_inputs():
    x = Variable(numpy.array([1.0, 2.0]))
    h = x * 3
    y = F.sum(h * h)
    gh, gx = chainer.grad([y], [h, x], grad_inputs=[None, Variable(numpy.ones(2))])
    numpy.testing.assert_allclose(gh.array, 2 * h.array)
    numpy.testing.assert_allclose(gx.array, 6 * h.array + 1)


def test_grad_unreachable_input_is_none():
    x = Variable(numpy.array([1.0]))
    z = Variable(numpy.array([1.0]))
    y = F.sum(x * 2)
    gx, gz = chainer.grad([y], [x, z])
    assert gz is None


def test_chainer_backward_multiple_outputs():
    x = Variable(numpy.array([1.0, 2.0]))
    y1 = x * 2
    y2 = x * x
    chainer.backward([y1, y2], [numpy.ones(2), numpy.ones(2)])
    numpy.testing.assert_allclose(x.grad, 2 + 2 * x.array)


def test_chainer_backward_leaf_outputs_get_their_gradients():
    x = Variable(numpy.array([1.0, 2.0]))
    y = x * 2
    chainer.backward([y, x], [Variable(numpy.ones(2)), Variable(numpy.array([10.0, 20.0]))])
    numpy.testing.assert_allclose(x.grad, [12.0, 22.0])
    assert y.grad is None

    x = Variable(numpy.array([1.0, 2.0]))
    chainer.backward([x], [Variable(numpy.array([3.0, 4.0]))])
    numpy.testing.assert_allclose(x.grad, [3.0, 4.0])


def test_chainer_backward_default_is_own_grad_not_ones():
    x = Variable(numpy.array([1.0, 2.0]))
    x.grad = numpy.array([5.0, 5.0])
    y = x * 3
    y.grad = numpy.array([1.0, 2.0])
    chainer.backward([y, x])  # x keeps its grad once, plus what flows from y
    numpy.testing.assert_allclose(x.grad, [8.0, 11.0])

    x = Variable(numpy.array(3.0))
    y = x * 2
    with pytest.warns(RuntimeWarning, match='no grad'):
        chainer.backward([y])
    assert x.grad is None


def test_old_style_function():
    class Double(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2,

    x = Variable(numpy.array([1.0, 2.0]))
    y = Double()(x)
    assert isinstance(y.creator, Double)
    F.sum(y).backward()
    numpy.testing.assert_allclose(x.grad, [2.0, 2.0])


def test_function_hooks_global_and_local():
    calls = []

    class Hook(chainer.FunctionHook):
        name = 'recorder'

        def forward_preprocess(self, function, in_data):
            calls.append(('f', function.label))

        def backward_preprocess(self, function, in_data, out_grad):
            calls.append(('b', function.label))

    x = Variable(numpy.array([1.0]))
    with Hook():
        y = F.sum(x * 2)
        y.backward()
    assert ('f', '_ * 2.0') in calls
    assert ('b', '_ * 2.0') in calls
    assert not chainer.get_function_hooks()
    calls.clear()
    node = Square()
    node.add_hook(Hook())
    node.apply((x,))
    assert calls == [('f', 'Square')]


def test_debug_mode_detects_nan_and_names_function():
    x = Variable(numpy.array([-1.0]))
    with chainer.using_config('debug', True), numpy.errstate(invalid='ignore'), \
            pytest.raises(RuntimeError, match='NaN is detected on forward computation of log'):
        F.log(x)
    with chainer.using_config('debug', True), numpy.errstate(divide='ignore'):
        # an infinity is not an error, as in v7
        assert numpy.isneginf(F.log(Variable(numpy.array([0.0]))).array).all()
    assert chainer.is_debug() is False
    with chainer.DebugMode(True):
        assert chainer.is_debug()


def test_debug_mode_detects_nan_in_backward():
    class BadGrad(FunctionNode):
        def forward(self, inputs):
            return inputs[0].copy(),

        def backward(self, indexes, gy):
            return Variable(gy[0].array * numpy.nan),

    x = Variable(numpy.array([1.0]))
    with chainer.using_config('debug', True):
        y = BadGrad().apply((x,))[0]
        with pytest.raises(RuntimeError,
                           match='NaN is detected on backward computation of BadGrad'):
            F.sum(y).backward()


def test_graph_building_is_thread_safe():
    errors = []

    def work(seed):
        try:
            rng = numpy.random.RandomState(seed)
            a = rng.rand(5)
            x = Variable(a)
            for _ in range(50):
                x.cleargrad()
                F.sum(x * x).backward()
                numpy.testing.assert_allclose(x.grad, 2 * a)
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors


@pytest.mark.parametrize('double', [False, True])
def test_lazy_grad_sum_gives_the_same_gradients(double):
    def run(lazy):
        x = Variable(numpy.array([0.5, -1.5, 2.0]))
        with chainer.using_config('lazy_grad_sum', lazy):
            h = x * 2
            y = F.sum(h * h + h * 3 + F.tanh(h) + x)
            y.backward(enable_double_backprop=double, retain_grad=True)
        return x.grad, h.grad

    (gx, gh), (lx, lh) = run(False), run(True)
    numpy.testing.assert_allclose(lx, gx)
    numpy.testing.assert_allclose(lh, gh)


def test_variable_comparison_raises():
    a = Variable(numpy.ones(2))
    with pytest.raises(TypeError, match='compare their arrays'):
        a < a
    with pytest.raises(TypeError):
        a == 1.0
    assert a in [a]
    assert len({a, a}) == 1


def test_function_node_call_and_layout_api():
    with pytest.raises(RuntimeError, match=r'\.apply'):
        Square()(numpy.ones(1))
    x = Variable(numpy.ones(2))
    assert x.layout is None and x.as_layout(None) is x and x.raw_array is x.array
    with pytest.raises(ValueError):
        x.as_layout('NHWC')
    y = square(x)
    assert y.creator_node.input_layouts == (None,)
    assert Square().forward_chainerx(()) is chainer.Fallback


def test_static_graph_decorators_keep_define_by_run():
    @chainer.static_graph
    def f(x):
        return x * 2

    @chainer.static_graph(verbosity_level=1)
    def g(x):
        return x * 3

    x = Variable(numpy.ones(2))
    numpy.testing.assert_array_equal(f(x).array, [2, 2])
    numpy.testing.assert_array_equal(g(x).array, [3, 3])
    assert chainer.get_dtype(chainer.mixed16) == numpy.float16
    # v7's module paths of the decorators
    from chainer.graph_optimizations.static_graph import static_graph
    from chainer.graph_optimizations.static_graph_utilities import static_code
    assert static_graph is chainer.static_graph and static_code is chainer.static_code


def test_grad_and_backward_argument_errors():
    x = Variable(numpy.array([1.0, 2.0]))
    y = x * 2
    with pytest.raises(TypeError, match='outputs'):
        chainer.grad(y, [x])
    with pytest.raises(TypeError, match='inputs'):
        chainer.grad([y], x)
    with pytest.raises(ValueError, match='one entry per output'):
        chainer.grad([y], [x], grad_outputs=[None, None])
    gx, = chainer.grad([y], [x])  # ones of y's shape, as in v7
    numpy.testing.assert_allclose(gx.array, [2.0, 2.0])
    with pytest.raises(TypeError, match='unexpected keyword'):
        chainer.backward([y], retain_grad=True)
    gx, = chainer.grad([F.sum(y)], [x], loss_scale=4.0)
    numpy.testing.assert_allclose(gx.array, [8.0, 8.0])


def test_apply_takes_a_tuple_not_a_variable_or_array():
    x = Variable(numpy.ones(2))
    with pytest.raises(TypeError, match=r'apply\(\(x,\)\)'):
        Square().apply(x)
    with pytest.raises(TypeError, match='single ndarray'):
        Square().apply(numpy.ones(2))
    y, = Square().apply([x])
    numpy.testing.assert_array_equal(y.array, [1.0, 1.0])


def test_old_style_function_node_is_lazy_and_reuse_keeps_graphs_and_hooks():
    class Triple(chainer.Function):
        def forward(self, inputs):
            return inputs[0] * 3,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 3,

    f = Triple()
    assert isinstance(f.node, chainer.function.FunctionAdapter)
    hook = chainer.function_hooks.TimerHook()
    f.add_hook(hook, 'timer')
    a, b = Variable(numpy.ones(2)), Variable(numpy.ones(3))
    ya, yb = f(a), f(b)
    assert ya.creator_node is not yb.creator_node
    assert 'timer' in f.local_function_hooks
    assert len(hook.call_history) == 2
    F.sum(ya).backward()
    F.sum(yb).backward()
    numpy.testing.assert_array_equal(a.grad, [3.0, 3.0])
    numpy.testing.assert_array_equal(b.grad, [3.0, 3.0, 3.0])


def test_output_rank_is_max_input_rank_plus_one():
    a, b = Variable(numpy.ones(2)), Variable(numpy.ones(2))
    a.node._rank = 1
    b.node.rank = 3
    y = F.identity(a + b)
    assert y.rank == 5 and y.node.rank == y.node._rank == 5


def test_bare_function_node_checks_an_instance_check_type_forward():
    seen = []
    f = FunctionNode()
    f.check_type_forward = lambda in_types: seen.append(len(in_types))
    f.forward_cpu = lambda inputs: (inputs[0] * 2,)
    y, = f.apply((numpy.ones(2, numpy.float32),))
    assert seen == [1]
    numpy.testing.assert_array_equal(y.array, [2.0, 2.0])


def test_reapplied_node_still_checks_types():
    f = Square()
    y = f.apply((Variable(numpy.ones(1, numpy.float32)),))  # noqa: F841 - keeps the graph
    with pytest.raises(type_check.InvalidType):
        f.apply((Variable(numpy.ones(1, numpy.int32)),))


def test_forward_output_must_be_arrays():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return object(),

    with pytest.raises(TypeError, match='forward output must be a tuple of ndarrays'):
        Bad().apply((Variable(numpy.ones(2)),))


def _returning(grads):
    class Fixed(FunctionNode):
        def forward(self, inputs):
            return numpy.array(1, numpy.float32),

        def backward(self, indexes, grad_outputs):
            return grads

    return Fixed()


@pytest.mark.parametrize('grads,error,match', [
    ((Variable(numpy.ones(1, numpy.float32)),) * 2, ValueError, 'number of gradients'),
    ((), ValueError, 'number of gradients'),
    ((numpy.ones(1, numpy.float32),), ValueError, 'type of gradients'),
    ((Variable(numpy.ones(2, numpy.float32)),), ValueError, 'shape of gradients'),
    ((Variable(numpy.ones(1, numpy.int64)),), ValueError, 'dtype of gradients'),
    ((Variable(numpy.full(1, numpy.nan, numpy.float32)),), RuntimeError, 'NaN'),
])
def test_debug_mode_checks_backward_results(grads, error, match):
    x = Variable(numpy.ones(1, numpy.float32))
    y, = _returning(grads).apply((x,))
    with chainer.using_config('debug', True), pytest.raises(error, match=match):
        y.backward()


def test_backward_returning_arrays_is_accepted_outside_debug_mode():
    x = Variable(numpy.ones(1, numpy.float32))
    y, = _returning((numpy.full(1, 2, numpy.float32),)).apply((x,))
    y.backward()
    numpy.testing.assert_array_equal(x.grad, [2.0])


def test_grad_inputs_flow_on_to_inputs_behind_them():
    # v2 = 2 v1, y = 2 v2: an initial gradient of v2 also reaches v1
    v0 = Variable(numpy.array(0.5, numpy.float32))
    v1 = v0 * 3
    v2 = v1 * 2
    y = v2 * 2
    g1, g2 = chainer.grad([y], [v1, v2], [Variable(numpy.array(10.0, numpy.float32))],
                          [Variable(numpy.array(1000.0, numpy.float32)),
                           Variable(numpy.array(100.0, numpy.float32))])
    numpy.testing.assert_allclose(g2.array, 100 + 2 * 10)
    numpy.testing.assert_allclose(g1.array, 1000 + 2 * 120)
    assert v0.grad is None and v1.grad is None


def test_grad_retain_grad_stores_every_computed_gradient():
    x = Variable(numpy.array(1.0))
    h = x * 3
    y = h * 2
    y.grad = numpy.array(-1.0)
    gx, = chainer.grad([y], [x], [Variable(numpy.array(1.0))], retain_grad=True)
    numpy.testing.assert_allclose(gx.array, 6.0)
    numpy.testing.assert_allclose(h.grad, 2.0)
    numpy.testing.assert_allclose(y.grad, 1.0)
    numpy.testing.assert_allclose(x.grad, 6.0)


def test_grad_argument_types_and_lengths():
    x = Variable(numpy.array(3.0))
    y = F.identity(x)
    g = Variable(numpy.array(1.0))
    with pytest.raises(TypeError, match='grad_outputs'):
        chainer.grad([y], [x], g)
    with pytest.raises(TypeError, match='grad_inputs'):
        chainer.grad([y], [x], [g], g)
    with pytest.raises(ValueError, match='grad_outputs'):
        chainer.grad([y], [x], [], [None])
    with pytest.raises(ValueError, match='grad_inputs'):
        chainer.grad([y], [x], [None], [None, None])


def test_none_inputs_and_outputs():
    class Func(FunctionNode):
        def forward(self, inputs):
            a, b, c = inputs
            assert a is None and c is None
            self.retain_inputs((1, 2))
            self.retain_outputs((1, 2))
            return None, b * 3, None

        def backward(self, indexes, grad_outputs):
            assert indexes == (1,)
            b, c = self.get_retained_inputs()
            assert c is None and isinstance(b, Variable)
            y1, y2 = self.get_retained_outputs()
            assert y2 is None
            numpy.testing.assert_array_equal(y1.array, b.array * 3)
            gy0, gy1, gy2 = grad_outputs
            assert gy0 is None and gy2 is None
            return None, gy1 * 3, None

    x = Variable(numpy.array([2.0, 3.0], numpy.float32))
    y0, y1, y2 = Func().apply((None, x, None))
    assert y0.array is None and y2.array is None
    y1.grad = numpy.ones(2, numpy.float32)
    y1.backward()
    numpy.testing.assert_array_equal(x.grad, [3.0, 3.0])


def test_debug_mode_backward_errors_show_where_the_function_was_applied():
    class Bad(FunctionNode):
        def forward(self, inputs):
            return inputs[0].copy(),

        def backward(self, indexes, grad_outputs):
            raise FloatingPointError('divide by zero')

    x = Variable(numpy.array(1.0))
    with chainer.using_config('debug', True):
        y, = Bad().apply((x,))  # this line is reported
        line = y.creator_node.stack[-2].lineno  # [-1] is apply itself
        with pytest.raises(FloatingPointError, match=rf'divide by zero(.|\n)*Stacktrace'
                                                     rf'(.|\n)*line {line}'):
            y.backward()
    y, = Bad().apply((x,))
    with pytest.raises(FloatingPointError) as e:
        y.backward()
    assert 'Stacktrace' not in str(e.value)


def test_timer_hook_on_a_node_applied_again():
    f = F.math.exponential.Exp()
    hook = chainer.function_hooks.TimerHook()
    f.add_hook(hook)
    x = numpy.ones((2, 3), numpy.float32)
    f.apply((Variable(x),))
    f.apply((Variable(x),))  # the first outputs are gone
    assert len(hook.call_history) == 2 and len(hook.summary()) == 1


def test_default_backward_gives_no_gradient():
    # as v7: a node without backward is not differentiable; backprop through it
    # gives its inputs no gradient instead of failing
    class Forward(chainer.FunctionNode):
        def forward(self, inputs):
            return inputs[0] * 2,

    x = chainer.Variable(numpy.array([1.0, 2.0], numpy.float32))
    w = chainer.Variable(numpy.array([3.0, 4.0], numpy.float32))
    y, = Forward().apply((x,))
    loss = chainer.functions.sum(y * w)
    loss.backward()
    assert x.grad is None
    numpy.testing.assert_array_equal(w.grad, [2.0, 4.0])


def test_theano_function_module_exists_and_needs_callables():
    from chainer.functions.theano import theano_function

    with pytest.raises(TypeError, match='callable'):
        theano_function.TheanoFunction(None, None)
