"""chainer.static_graph: the first call per signature traces, later calls replay.

The chains here are minimal stand-ins of chainer.Chain (links live in another
distribution): what the decorator reads of a chain is ``namedlinks`` and ``params()``.
Each test runs a decorated forward and the same forward undecorated (define-by-run) on
copies of the same parameters and compares outputs and gradients over several steps,
with a plain SGD or momentum update of the parameters between them.
"""

import numpy
import pytest

import chainer
import chainer.functions as F
from chainer import Parameter, Variable
from chainer.graph_optimizations import _replay
from chainer.graph_optimizations.static_graph import static_graph
from chainer.graph_optimizations.static_graph_utilities import static_code


class Chain:
    """A chain's surface as static_graph sees it: named parameters, ``params()``."""

    def __init__(self, **arrays):
        self._names = sorted(arrays)
        for name in self._names:
            setattr(self, name, Parameter(arrays[name].copy()))

    def namedlinks(self):
        yield '/', self

    def params(self):
        for name in self._names:
            yield getattr(self, name)

    def __call__(self, *args, **kwargs):
        return self.forward(*args, **kwargs)


def twin(cls, seed=0):
    """A static chain of ``cls`` and an eager one with equal parameters."""
    static, eager = cls(seed), cls(seed)
    eager.forward = eager.dynamic
    return static, eager


def cleargrads(chain):
    for p in chain.params():
        p.grad = None


def sgd(chain, lr=0.1):
    for p in chain.params():
        p.array -= lr * p.grad


def momentum(chain, state, lr=0.05, mu=0.9):
    for name, p in zip(chain._names, chain.params()):
        v = state.get(name, 0) * mu - lr * p.grad
        state[name] = v
        p.array += v


def assert_same_grads(static, eager, exact=True):
    for name, p, q in zip(static._names, static.params(), eager.params()):
        assert (p.grad is None) == (q.grad is None), name
        if p.grad is None:
            continue
        if exact:
            numpy.testing.assert_array_equal(p.grad, q.grad, err_msg=name)
        else:
            numpy.testing.assert_allclose(p.grad, q.grad, rtol=1e-5, atol=1e-6, err_msg=name)


def rng(seed):
    return numpy.random.RandomState(seed)


class Stack(Chain):
    """The benchmark's overhead chain: linear + relu, several times (small here)."""

    def __init__(self, seed, depth=6, width=8):
        r = rng(seed)
        arrays = {}
        for i in range(depth):
            arrays[f'W{i}'] = r.randn(width, width).astype(numpy.float32) * 0.5
            arrays[f'b{i}'] = r.randn(width).astype(numpy.float32) * 0.1
        self.depth = depth
        super().__init__(**arrays)

    def dynamic(self, x):
        for i in range(self.depth):
            x = F.relu(F.linear(x, getattr(self, f'W{i}'), getattr(self, f'b{i}')))
        return x

    forward = static_graph(dynamic)


class Loss(Stack):
    """The stack with its loss inside the static forward."""

    def dynamic(self, x, t):
        return F.softmax_cross_entropy(Stack.dynamic(self, x), t)

    forward = static_graph(dynamic)


class CNN(Chain):
    """Convolution, max pooling, reshape and linear layers."""

    def __init__(self, seed):
        r = rng(seed)
        super().__init__(
            c=r.randn(4, 3, 3, 3).astype(numpy.float32) * 0.3,
            cb=r.randn(4).astype(numpy.float32) * 0.1,
            W=r.randn(5, 4 * 4 * 4).astype(numpy.float32) * 0.2,
            b=r.randn(5).astype(numpy.float32) * 0.1)

    def dynamic(self, x, t):
        h = F.max_pooling_2d(F.relu(F.convolution_2d(x, self.c, self.cb, pad=1)), 2)
        h = F.reshape(h, (h.shape[0], -1))
        return F.softmax_cross_entropy(F.linear(h, self.W, self.b), t)

    forward = static_graph(dynamic)


def labels(seed, n, classes):
    return rng(seed).randint(0, classes, n).astype(numpy.int32)


def test_stack_replays_with_the_results_of_define_by_run():
    static, eager = twin(Stack)
    for step in range(4):
        x = rng(10 + step).randn(5, 8).astype(numpy.float32)
        y, z = static(x), eager(x)
        numpy.testing.assert_array_equal(y.array, z.array)
        if step:
            assert type(y.creator_node) is _replay.Replay  # one node for the chain
        cleargrads(static)
        cleargrads(eager)
        F.sum(y * y).backward()
        F.sum(z * z).backward()
        assert_same_grads(static, eager)
        sgd(static)
        sgd(eager)
    assert static.static_schedule.functions == ('LinearFunction', 'ReLU') * 6
    assert all(step.array_backward for step in static.static_schedule.trace.steps)
    assert len(static.schedule_manager.schedules) == 1


def test_loss_inside_the_forward_and_momentum_updates():
    static, eager = twin(Loss)
    state_s, state_e = {}, {}
    t = labels(0, 5, 8)
    for step in range(4):
        x = rng(20 + step).randn(5, 8).astype(numpy.float32)
        loss_s, loss_e = static(x, t), eager(x, t)
        numpy.testing.assert_array_equal(loss_s.array, loss_e.array)
        cleargrads(static)
        cleargrads(eager)
        loss_s.backward()
        loss_e.backward()
        assert_same_grads(static, eager)
        momentum(static, state_s)
        momentum(eager, state_e)


def test_cnn_replays_convolution_pooling_and_reshape():
    static, eager = twin(CNN)
    state_s, state_e = {}, {}
    t = labels(1, 2, 5)
    for step in range(3):
        x = rng(30 + step).randn(2, 3, 8, 8).astype(numpy.float32)
        loss_s, loss_e = static(x, t), eager(x, t)
        numpy.testing.assert_allclose(loss_s.array, loss_e.array, rtol=1e-6)
        cleargrads(static)
        cleargrads(eager)
        loss_s.backward()
        loss_e.backward()
        assert_same_grads(static, eager, exact=False)
        momentum(static, state_s)
        momentum(eager, state_e)
    assert static.static_schedule.functions == (
        'Convolution2DFunction', 'ReLU', 'MaxPoolingND', 'Reshape', 'LinearFunction',
        'SoftmaxCrossEntropy')
    # each of these has an array-level backward: no Variable is made in the replay
    assert all(step.array_backward for step in static.static_schedule.trace.steps)


def test_input_variable_gets_its_gradient():
    static, eager = twin(Stack)
    for _ in range(2):
        data = rng(3).randn(4, 8).astype(numpy.float32)
        x, x2 = Variable(data), Variable(data.copy())
        F.sum(static(x)).backward()
        F.sum(eager(x2)).backward()
        numpy.testing.assert_array_equal(x.grad, x2.grad)


def test_a_new_shape_config_or_parameter_records_again():
    static, _ = twin(Stack)
    x = numpy.ones((3, 8), numpy.float32)
    static(x)
    first = static.static_schedule
    static(x)
    assert static.static_schedule is first
    static(numpy.ones((2, 8), numpy.float32))
    assert static.static_schedule is not first
    with chainer.using_config('train', False):
        static(x)
    with chainer.no_backprop_mode():
        y = static(x)
        y = static(x)  # replayed without a graph
    assert y.creator_node is None
    assert len(static.schedule_manager.schedules) == 4
    # a replaced parameter: recorded again, and the replay reads the new one
    static.W0 = Parameter(numpy.zeros((8, 8), numpy.float32))
    y = static(x)
    assert static.static_schedule is not first
    numpy.testing.assert_array_equal(y.array, static.dynamic(x).array)
    assert type(static(x).creator_node) is _replay.Replay
    # a parameter of another shape: recorded again
    static.W5.array = numpy.ones((4, 8), numpy.float32)
    static.b5.array = numpy.ones(4, numpy.float32)
    assert static(x).shape == (3, 4)


def test_calls_in_flight_keep_their_own_state():
    static, eager = twin(Stack)
    x1 = rng(1).randn(2, 8).astype(numpy.float32)
    x2 = rng(2).randn(2, 8).astype(numpy.float32)
    static(x1)  # record
    y1, y2 = static(x1), static(x2)
    z1, z2 = eager(x1), eager(x2)
    F.sum(y1 * 2 + y2).backward()
    F.sum(z1 * 2 + z2).backward()
    assert_same_grads(static, eager)


def test_function_without_array_backward_runs_its_variable_backward():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 4).astype(numpy.float32))

        def dynamic(self, x):
            h = F.tanh(F.linear(x, self.W))  # tanh: no array-level backward
            return F.sigmoid(h) * h + F.exp(h)

        forward = static_graph(dynamic)

    static, eager = twin(Net)
    x = rng(5).randn(2, 4).astype(numpy.float32)
    for _ in range(3):
        y, z = static(x), eager(x)
        numpy.testing.assert_array_equal(y.array, z.array)
        cleargrads(static)
        cleargrads(eager)
        F.sum(y).backward()
        F.sum(z).backward()
        assert_same_grads(static, eager, exact=False)


def test_shared_values_accumulate_gradients():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(4, 4).astype(numpy.float32))

        def dynamic(self, x):
            h = F.linear(x, self.W)
            return F.linear(h, self.W) + h * 2 - F.sum(h, axis=0) - 1.5

        forward = static_graph(dynamic)

    static, eager = twin(Net)
    x = rng(6).randn(3, 4).astype(numpy.float32)
    for _ in range(2):
        y, z = static(x), eager(x)
        cleargrads(static)
        cleargrads(eager)
        F.sum(y * y).backward()
        F.sum(z * z).backward()
        assert_same_grads(static, eager, exact=False)


def test_several_outputs_in_nested_tuples_and_arrays():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(4, 4).astype(numpy.float32))

        def dynamic(self, xs):
            a, b = xs
            h = F.linear(a, self.W)
            return [h, (F.relu(h) + b, (h * b).array)]

        forward = static_graph(dynamic)

    static, eager = twin(Net)
    a = rng(7).randn(2, 4).astype(numpy.float32)
    b = rng(8).randn(2, 4).astype(numpy.float32)
    for _ in range(2):
        out, ref = static((a, b)), eager((a, b))
        assert type(out) is list and type(out[1]) is tuple
        numpy.testing.assert_array_equal(out[0].array, ref[0].array)
        numpy.testing.assert_array_equal(out[1][0].array, ref[1][0].array)
        assert isinstance(out[1][1], numpy.ndarray)
        numpy.testing.assert_array_equal(out[1][1], ref[1][1])
        cleargrads(static)
        cleargrads(eager)
        F.sum(out[1][0]).backward()
        F.sum(ref[1][0]).backward()
        assert_same_grads(static, eager)


def test_arrays_made_inside_are_constants_of_the_recording():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(4, 4).astype(numpy.float32))
            self.offset = numpy.ones(4, numpy.float32)

        def dynamic(self, x):
            return F.linear(x, self.W) + self.offset

        forward = static_graph(dynamic)

    static, _ = twin(Net)
    x = numpy.ones((2, 4), numpy.float32)
    static(x)
    static.offset[...] = 2  # changed in place: the replay reads the same array
    numpy.testing.assert_array_equal(static(x).array, static.dynamic(x).array)
    static.offset = numpy.zeros(4, numpy.float32)  # rebound: the recording keeps its own
    numpy.testing.assert_array_equal(static(x).array, (x @ static.W.array.T) + 2)


def test_a_parameter_outside_the_chain_is_an_input_of_the_replay():
    shared = Parameter(rng(9).randn(4, 4).astype(numpy.float32))

    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(4, 4).astype(numpy.float32))

        @static_graph
        def forward(self, x):
            return F.linear(F.linear(x, self.W), shared)

    net = Net(0)
    x = numpy.ones((2, 4), numpy.float32)
    for _ in range(2):
        shared.grad = None
        F.sum(net(x)).backward()
        expected = numpy.ones((4, 2), numpy.float32) @ (x @ net.W.array.T)
        numpy.testing.assert_allclose(shared.grad, expected, rtol=1e-6)
        shared.array *= 2  # read anew on every replay
        numpy.testing.assert_allclose(
            net(x).array, x @ net.W.array.T @ shared.array.T, rtol=1e-6)


def test_dropout_draws_a_new_mask_on_every_replay():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=numpy.eye(64, dtype=numpy.float32))

        @static_graph
        def forward(self, x):
            return F.dropout(F.linear(x, self.W), 0.5)

    net = Net(0)
    x = numpy.ones((4, 64), numpy.float32)
    masks = []
    for _ in range(3):
        y = net(x)
        net.W.grad = None
        F.sum(y).backward()
        # the gradient of W's diagonal is the sum of the mask over the batch
        numpy.testing.assert_allclose(numpy.diag(net.W.grad), y.array.sum(axis=0))
        masks.append(y.array)
    assert not numpy.array_equal(masks[1], masks[2])


def test_old_style_function_is_replayed():
    class Twice(chainer.Function):
        def forward(self, inputs):
            self.seen = inputs[0].shape
            return inputs[0] * 2,

        def backward(self, inputs, grad_outputs):
            return grad_outputs[0] * 2,

    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))

        @static_graph
        def forward(self, x):
            return Twice()(F.linear(x, self.W))

    net = Net(0)
    x = numpy.ones((2, 3), numpy.float32)
    for _ in range(2):
        net.W.grad = None
        F.sum(net(x)).backward()
        numpy.testing.assert_allclose(net.W.grad, numpy.full((3, 3), 4, numpy.float32))


def test_variable_with_an_outside_graph_is_refused():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))
            self.state = None

        @static_graph
        def forward(self, x):
            return F.linear(x, self.W) + self.state

    net = Net(0)
    net.state = F.relu(Variable(numpy.ones((2, 3), numpy.float32)))
    with pytest.raises(ValueError, match='computed outside the static forward'):
        net(numpy.ones((2, 3), numpy.float32))


def test_output_not_computed_inside_is_refused():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))

        @static_graph
        def forward(self, x):
            return x

    with pytest.raises(ValueError, match='computed by chainer functions inside it'):
        Net(0)(Variable(numpy.ones((2, 3), numpy.float32)))


def test_unhashable_argument_is_refused():
    chain = Stack(0)
    with pytest.raises(TypeError, match='hashable'):
        chain.forward(numpy.ones((2, 8), numpy.float32), {'a': 1})


def test_hashable_arguments_select_the_recording():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))

        @static_graph
        def forward(self, x, scale=1.0, act=None):
            h = F.linear(x, self.W) * scale
            return h if act is None else act(h)

    net = Net(0)
    x = numpy.ones((2, 3), numpy.float32)
    for scale in (1.0, 3.0, 1.0, 3.0):
        numpy.testing.assert_allclose(net(x, scale).array, x @ net.W.array.T * scale)
    numpy.testing.assert_allclose(net(x, act=F.relu).array,
                                  numpy.maximum(x @ net.W.array.T, 0))
    assert len(net.schedule_manager.schedules) == 3


def test_double_backprop_through_a_replay_raises():
    static, _ = twin(Stack)
    x = Variable(numpy.ones((2, 8), numpy.float32))
    static(x)
    y = static(x)
    with pytest.raises(RuntimeError, match='enable_double_backprop=True'):
        chainer.grad([F.sum(y)], [x], enable_double_backprop=True)


def test_enable_double_backprop_option_keeps_define_by_run():
    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))

        @static_graph(enable_double_backprop=True)
        def forward(self, x):
            return F.sum(F.linear(x, self.W) ** 2)

    net = Net(0)
    x = Variable(numpy.ones((2, 3), numpy.float32))
    for _ in range(2):
        y = net(x)
        assert type(y.creator_node) is not _replay.Replay
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        ggx, = chainer.grad([F.sum(gx)], [x])
        assert ggx.shape == (2, 3)


def test_static_code_keeps_the_forward_define_by_run():
    calls = []

    @static_code
    def count(n):
        calls.append(n)

    class Net(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(3, 3).astype(numpy.float32))

        @static_graph
        def forward(self, x):
            count(1)
            return F.linear(x, self.W)

    net = Net(0)
    x = numpy.ones((2, 3), numpy.float32)
    for _ in range(3):
        assert type(net(x).creator_node) is not _replay.Replay
    assert calls == [1, 1, 1]
    assert 'static_code' in net.static_schedule.reason
    count(2)  # outside a static forward: just runs
    assert calls[-1] == 2


def test_debug_mode_and_function_hooks_run_define_by_run():
    static, _ = twin(Stack)
    x = numpy.ones((2, 8), numpy.float32)
    static(x)
    with chainer.using_config('debug', True):
        assert type(static(x).creator_node) is not _replay.Replay
    hook = chainer.function_hooks.TimerHook()
    with hook:
        static(x)
    assert len(hook.call_history) == 12  # every function, seen by the hook
    assert type(static(x).creator_node) is _replay.Replay


def test_nested_static_chain_runs_inside_the_outer_recording():
    inner = Stack(0, depth=2)

    class Outer(Chain):
        def __init__(self, seed):
            super().__init__(W=rng(seed).randn(8, 8).astype(numpy.float32))

        def params(self):
            yield from super().params()
            yield from inner.params()

        @static_graph
        def forward(self, x):
            return inner(F.linear(x, self.W))

    outer = Outer(0)
    x = numpy.ones((2, 8), numpy.float32)
    outer(x)
    assert outer.static_schedule.functions == ('LinearFunction',) + ('LinearFunction',
                                                                      'ReLU') * 2
    assert not hasattr(inner, 'schedule_manager')
    numpy.testing.assert_array_equal(outer(x).array,
                                     inner.dynamic(F.linear(x, outer.W)).array)


def test_use_static_graph_off_calls_the_method():
    static, _ = twin(Stack)
    with chainer.using_config('use_static_graph', False):
        static(numpy.ones((2, 8), numpy.float32))
    assert not hasattr(static, 'schedule_manager')


@pytest.mark.gpu
@pytest.mark.parametrize('cls, shape, classes', [
    (Stack, (5, 8), None), (Loss, (5, 8), 8), (CNN, (2, 3, 8, 8), 5)])
def test_replay_on_gpu(cls, shape, classes):
    cupy = pytest.importorskip('cupy')
    static, eager = twin(cls)
    for chain in (static, eager):
        for p in chain.params():
            p.array = cupy.asarray(p.array)
    args = () if classes is None else (cupy.asarray(labels(0, shape[0], classes)),)
    for step in range(3):
        x = cupy.asarray(rng(40 + step).randn(*shape).astype(numpy.float32))
        y, z = static(x, *args), eager(x, *args)
        if step:
            assert type(y.creator_node) is _replay.Replay
        numpy.testing.assert_allclose(cupy.asnumpy(y.array), cupy.asnumpy(z.array),
                                      rtol=1e-5, atol=1e-6)
        for chain, out in ((static, y), (eager, z)):
            cleargrads(chain)
            F.sum(out * out).backward()
        for p, q in zip(static.params(), eager.params()):
            numpy.testing.assert_allclose(cupy.asnumpy(p.grad), cupy.asnumpy(q.grad),
                                          rtol=1e-5, atol=1e-6)
        sgd(static)
        sgd(eager)
