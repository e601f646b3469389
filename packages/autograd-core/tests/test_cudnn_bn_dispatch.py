"""Batch normalization through chainer._cudnn_bn, on CPU: a fake cuDNN frontend whose
graphs compute with NumPy at the addresses they are given, and NumPy arrays posing as
CuPy ones, checked against the NumPy path of F.batch_normalization and
F.fixed_batch_normalization. The real thing is tested on a GPU in
tests/functions/test_cudnn_batch_normalization_gpu.py."""

import ctypes
import types

import numpy
import pytest
from cudnn_fake import FakeFrontendBase, FakeTensorBase

import chainer
import chainer.functions as F
from chainer import _cudnn, _cudnn_bn
from chainer.backends import cuda
from chainer.functions.normalization import batch_normalization as bn_module


class GpuLike(numpy.ndarray):
    """A NumPy array taken for a CuPy one: ``data.ptr`` is the address of its memory."""

    @property
    def data(self):
        return types.SimpleNamespace(ptr=self.__array_interface__['data'][0], device_id=0)


def gpu(a):
    return numpy.array(a).view(GpuLike)


class _Elsewhere:
    """What the fake CuPy calls its arrays: no array is one, so that the functions take
    the arrays for NumPy ones (their devices are the CPU) and only chainer._cudnn_bn,
    through ``cuda.ndarray``, sees GpuLike arrays as CuPy ones."""


class FakeCupy:
    ndarray = _Elsewhere
    cuda = types.SimpleNamespace(
        runtime=types.SimpleNamespace(getDevice=lambda: 0),
        get_current_stream=lambda: types.SimpleNamespace(ptr=7))

    @staticmethod
    def empty(shape, dtype):
        return numpy.empty(shape, dtype).view(GpuLike)

    def __getattr__(self, name):
        return getattr(numpy, name)


_DTYPES = {'half': numpy.float16, 'float': numpy.float32, 'double': numpy.float64}


class FakeTensor(FakeTensorBase):
    def __init__(self, name, dim=None, stride=None, data_type=None, by_value=False):
        self.name, self.dim, self.stride, self.data_type = name, dim, stride, data_type
        self.by_value = by_value

    def at(self, address):
        """The array at ``address`` as this tensor describes it (a view: writable)."""
        assert self.stride == _cudnn.packed(self.dim), 'cuDNN is given C-contiguous arrays'
        dtype = numpy.dtype(_DTYPES[self.data_type])
        n = int(numpy.prod(self.dim))
        buffer = (ctypes.c_char * (n * dtype.itemsize)).from_address(address)
        return numpy.frombuffer(buffer, dtype).reshape(self.dim)


class FakeGraph:
    """A cuDNN graph that computes batch normalization with NumPy (in float64)."""

    def __init__(self, fe, io_data_type, intermediate_data_type, compute_data_type, handle):
        assert (intermediate_data_type, compute_data_type) == ('float', 'float')
        self.fe, self.io = fe, io_data_type
        self.deselected = []
        self.workspace_limit = None
        self.executed = 0
        fe.graphs.append(self)

    def tensor(self, name, dim, stride, data_type, is_pass_by_value=False):
        return FakeTensor(name, dim, stride, data_type, is_pass_by_value)

    def _node(self, op, inputs, n_out):
        self.op, self.inputs = op, inputs
        self.outputs = [FakeTensor(f'{op}:{i}') for i in range(n_out)]
        return self.outputs

    def batchnorm(self, input, scale, bias, in_running_mean, in_running_var, epsilon,
                  momentum, name=''):
        assert (in_running_mean, in_running_var, momentum) == (None, None, None)
        assert epsilon.by_value and epsilon.dim == [1] * len(input.dim)
        return self._node('batchnorm', (input, scale, bias, epsilon), 3) + [None, None]

    def batchnorm_inference(self, input, mean, inv_variance, scale, bias, name=''):
        return self._node('inference', (input, mean, inv_variance, scale, bias), 1)[0]

    def batchnorm_backward(self, grad, input, scale, mean, inv_variance, name=''):
        return self._node('backward', (grad, input, scale, mean, inv_variance), 3)

    def validate(self):
        pass

    def build_operation_graph(self):
        pass

    def create_execution_plans(self, modes):
        assert modes == ['A', 'FALLBACK']

    def deselect_numeric_notes(self, notes):
        self.deselected.extend(notes)

    def deselect_workspace_greater_than(self, size):
        self.workspace_limit = size

    def check_support(self):
        if self.fe.unsupported or (self.fe.workspace and self.workspace_limit == 0):
            raise RuntimeError('not supported')

    def build_plans(self):
        pass

    def get_workspace_size(self):
        return self.fe.workspace

    def execute(self, pack, workspace, handle=None):
        assert handle == 'handle' and (workspace != 0) == (self.fe.workspace > 0)
        self.executed += 1
        tensors = list(self.inputs) + self.outputs
        assert list(pack) == tensors  # every tensor bound, in the plan's order
        arrays = [t.at(pack[t]) for t in tensors]
        inputs = [a.astype(numpy.float64) for a in arrays[:len(self.inputs)]]
        outputs = arrays[len(self.inputs):]
        axes = (0,) + tuple(range(2, len(self.inputs[0].dim)))
        if self.op == 'batchnorm':
            x, scale, bias, eps = inputs
            mean = x.mean(axis=axes, keepdims=True)
            inv = 1 / numpy.sqrt(x.var(axis=axes, keepdims=True) + eps.item())
            results = (scale * (x - mean) * inv + bias, mean, inv)
        elif self.op == 'inference':
            x, mean, inv, scale, bias = inputs
            results = (scale * (x - mean) * inv + bias,)
        else:
            gy, x, scale, mean, inv = inputs
            x_hat = (x - mean) * inv
            gbias = gy.sum(axis=axes, keepdims=True)
            gscale = (gy * x_hat).sum(axis=axes, keepdims=True)
            m = x.size // x.shape[1]
            gx = scale * inv / m * (m * gy - gbias - x_hat * gscale)
            results = (gx, gscale, gbias)
        for out, r in zip(outputs, results, strict=True):
            out[...] = r


class FakeFrontend(FakeFrontendBase):
    graph_class = FakeGraph

    def __init__(self):
        super().__init__()
        self.workspace = 0  # bytes every plan needs


@pytest.fixture
def fe(monkeypatch):
    frontend = FakeFrontend()
    monkeypatch.setattr(cuda, 'cupy', FakeCupy())
    monkeypatch.setattr(cuda, 'ndarray', GpuLike)
    monkeypatch.setattr(_cudnn, '_frontend', frontend)
    monkeypatch.setattr(_cudnn, '_plans', type(_cudnn._plans)())
    monkeypatch.setattr(_cudnn, '_local', types.SimpleNamespace())
    with chainer.using_config('use_cudnn', 'always'):
        yield frontend


def _data(shape, dtype='f', seed=0):
    rng = numpy.random.default_rng(seed)
    c = shape[1]
    x = (rng.standard_normal(shape) * 2 + 1).astype(dtype)
    gamma = rng.uniform(0.5, 1.5, c).astype(dtype)
    beta = rng.standard_normal(c).astype(dtype)
    return x, gamma, beta


def _train(x, gamma, beta, eps, mean, var, gy):
    """y, the running statistics after one step, the batch's statistics and the
    gradients of batch normalization on the given arrays (NumPy or GpuLike)."""
    node = bn_module.BatchNormalization(eps, mean, var, 0.8)
    xv, gv, bv = (chainer.Variable(a) for a in (x, gamma, beta))
    y, = node.apply((xv, gv, bv))
    y.grad = gy
    y.backward()
    return [numpy.asarray(a) for a in (y.array, mean, var, node.mean, node.inv_std,
                                       xv.grad, gv.grad, bv.grad)]


@pytest.mark.parametrize('shape', [(5, 3), (4, 3, 5), (2, 3, 4, 5), (2, 3, 2, 3, 4),
                                   (1, 4, 1, 1)])
@pytest.mark.parametrize('dtype,eps', [('f', 2e-5), ('f', 1e-2), ('e', 2e-5)])
@pytest.mark.filterwarnings('ignore:A batch with no more than one sample')
def test_training_matches_the_numpy_path(fe, shape, dtype, eps):
    x, gamma, beta = _data(shape, dtype)
    gy = numpy.random.default_rng(1).standard_normal(shape).astype(dtype)
    mean, var = numpy.linspace(-1, 1, shape[1]), numpy.linspace(0.5, 2, shape[1])
    with chainer.using_config('use_cudnn', 'never'):
        want = _train(x, gamma, beta, eps, mean.copy(), var.copy(), gy)
    got = _train(gpu(x), gpu(gamma), gpu(beta), eps, gpu(mean), gpu(var), gpu(gy))
    assert [g.op for g in fe.graphs] == ['batchnorm', 'backward']
    assert [g.executed for g in fe.graphs] == [1, 1]
    tol = {'f': 1e-5, 'e': 2e-3}[dtype]
    for w, g in zip(want, got, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        numpy.testing.assert_allclose(g, w, rtol=tol, atol=tol)


def test_running_statistics_use_the_unbiased_variance(fe):
    # 2 x 2 values per channel: the unbiased variance is 4/3 of the biased one
    x = gpu(numpy.array([[[1., 3.], [0., 0.]], [[5., 7.], [2., 2.]]], 'f')
            .reshape(2, 2, 2, 1))
    gamma, beta = gpu(numpy.ones(2, 'f')), gpu(numpy.zeros(2, 'f'))
    mean, var = gpu(numpy.zeros(2, 'f')), gpu(numpy.ones(2, 'f'))
    F.batch_normalization(x, gamma, beta, eps=1e-5, running_mean=mean, running_var=var,
                          decay=0.5)
    values = numpy.asarray(x).transpose(1, 0, 2, 3).reshape(2, -1)
    batch_mean, biased = values.mean(axis=1), values.var(axis=1)
    numpy.testing.assert_allclose(mean, 0.5 * batch_mean, rtol=1e-6)
    numpy.testing.assert_allclose(var, 0.5 + 0.5 * biased * 4 / 3, rtol=1e-5)


def test_without_running_statistics(fe):
    x, gamma, beta = _data((3, 2, 4))
    y = F.batch_normalization(gpu(x), gpu(gamma), gpu(beta))
    want = F.batch_normalization(x, gamma, beta)
    numpy.testing.assert_allclose(numpy.asarray(y.array), want.array, rtol=1e-5, atol=1e-5)
    assert [g.executed for g in fe.graphs] == [1]


@pytest.mark.parametrize('shape', [(6, 4), (2, 4, 3, 3), (2, 4, 2, 2, 2)])
@pytest.mark.parametrize('dtype', ['f', 'e'])
def test_fixed_statistics_match_the_numpy_path(fe, shape, dtype):
    x, gamma, beta = _data(shape, dtype)
    mean = numpy.linspace(-1, 1, shape[1]).astype(dtype)
    var = numpy.linspace(0.5, 2, shape[1]).astype(dtype)
    want = F.fixed_batch_normalization(x, gamma, beta, mean, var, eps=1e-3).array
    got = F.fixed_batch_normalization(*(gpu(a) for a in (x, gamma, beta, mean, var)),
                                      eps=1e-3).array
    assert [g.op for g in fe.graphs] == ['inference']
    assert got.dtype == want.dtype
    tol = {'f': 1e-5, 'e': 2e-3}[dtype]
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=tol, atol=tol)


def test_plans_are_built_once_per_shape_and_dtype(fe):
    x, gamma, beta = _data((2, 3, 4, 4))
    for _ in range(3):
        F.batch_normalization(gpu(x), gpu(gamma), gpu(beta))
    assert len(fe.graphs) == 1 and fe.graphs[0].executed == 3
    F.batch_normalization(gpu(x[:1]), gpu(gamma), gpu(beta))
    F.batch_normalization(gpu(x.astype('e')), gpu(gamma), gpu(beta))
    F.batch_normalization(gpu(x), gpu(gamma), gpu(beta))
    assert len(fe.graphs) == 3
    # 2 and 3 axes are the 4-axis shapes with unit axes: plans of their own
    F.batch_normalization(gpu(x.reshape(2, 3, 16)), gpu(gamma), gpu(beta))
    assert len(fe.graphs) == 4 and fe.graphs[-1].inputs[0].dim == [2, 3, 16, 1]
    assert {k[0] for k in _cudnn._plans} == {'bn_forward'}


def test_declined_call_returns_none_and_is_asked_once(fe):
    fe.unsupported = True
    x, gamma, beta = (gpu(a) for a in _data((2, 3, 4, 4)))
    for _ in range(2):
        assert _cudnn_bn.forward(x, gamma, beta, 2e-5) is None
        assert _cudnn_bn.backward(x, gamma, x, gamma, gamma) is None
        assert _cudnn_bn.inference(x, gamma, beta, gamma, gamma) is None
    # each asked without a workspace, then with one
    assert [g.workspace_limit for g in fe.graphs] == [0, None] * 3
    assert list(_cudnn._plans.values()) == [None] * 3


def test_plans_with_a_workspace_only_where_there_is_no_other(fe):
    x, gamma, beta = _data((2, 3, 4, 4))
    want = F.batch_normalization(x, gamma, beta).array
    fe.workspace = 64
    got = F.batch_normalization(gpu(x), gpu(gamma), gpu(beta)).array
    got = F.batch_normalization(gpu(x), gpu(gamma), gpu(beta)).array
    assert [(g.workspace_limit, g.executed) for g in fe.graphs] == [(0, 0), (None, 2)]
    numpy.testing.assert_allclose(numpy.asarray(got), want, rtol=1e-5, atol=1e-5)


def test_gradient_of_another_dtype_is_declined(fe):
    x, gamma, _ = (gpu(a) for a in _data((2, 3, 4, 4)))
    assert _cudnn_bn.backward(x, gamma, gpu(numpy.asarray(x).astype('e')), gamma,
                              gamma) is None
    assert fe.graphs == []


@pytest.mark.parametrize('config,notes', [({}, []), ({'cudnn_deterministic': True},
                                                     ['nondet'])])
def test_settings_choose_the_plans(fe, config, notes):
    x, gamma, beta = (gpu(a) for a in _data((2, 3, 4, 4)))
    with chainer.using_config('cudnn_deterministic', config.get('cudnn_deterministic',
                                                                False)):
        _cudnn_bn.forward(x, gamma, beta, 2e-5)
    graph, = fe.graphs
    assert graph.deselected == notes  # tensor cores are not a BN setting
    assert graph.workspace_limit == 0


def test_fast_batch_normalization_is_accepted_without_effect(fe):
    x, gamma, beta = _data((2, 3, 4, 4))
    want = F.batch_normalization(gpu(x), gpu(gamma), gpu(beta)).array
    with chainer.using_config('cudnn_fast_batch_normalization', True):
        got = F.batch_normalization(gpu(x), gpu(gamma), gpu(beta)).array
    assert len(fe.graphs) == 1 and fe.graphs[0].executed == 2
    numpy.testing.assert_array_equal(numpy.asarray(got), numpy.asarray(want))


def _usable(shape=(2, 3, 4, 4), dtype='f', gamma_shape=(3,), aggr=None):
    x = gpu(numpy.zeros(shape, dtype))
    gamma = gpu(numpy.zeros(gamma_shape, 'f'))
    if aggr is None:
        aggr, _ = bn_module.compute_axes(x.ndim, gamma.ndim, None)
    return _cudnn_bn.usable(x, gamma, aggr)


def test_usable_takes_the_common_case_only(fe):
    assert _usable()
    assert _usable((4, 3)) and _usable((4, 3, 2)) and _usable((2, 3, 2, 2, 2))
    assert _usable(dtype='e')
    assert not _usable(dtype='d')  # float64: the CuPy path
    assert not _usable((2, 3, 2, 2, 2, 2))
    assert not _usable((0, 3, 4, 4))
    assert not _usable(gamma_shape=(3, 4))  # parameters over more than the channels
    assert not _usable(aggr=(0, 2))  # statistics over some axes only
    assert not _usable(aggr=(0, 1, 3))
    assert not _cudnn_bn.usable(numpy.zeros((2, 3, 4, 4), 'f'), gpu(numpy.zeros(3, 'f')),
                                (0, 2, 3))
    with chainer.using_config('use_cudnn', 'never'):
        assert not _usable()


def test_auto_takes_cudnn_for_large_inputs_only(fe, monkeypatch):
    monkeypatch.setattr(_cudnn_bn, 'AUTO_MIN_ELEMENTS', 2 * 3 * 4 * 4)
    with chainer.using_config('use_cudnn', 'auto'):
        assert _usable((2, 3, 4, 4))
        assert not _usable((1, 3, 4, 4))
    assert _usable((1, 3, 4, 4))  # 'always'
    assert _cudnn_bn.AUTO_MIN_ELEMENTS == 96
    monkeypatch.undo()
    assert _cudnn_bn.AUTO_MIN_ELEMENTS == 1 << 24


def test_without_the_frontend_nothing_is_usable(fe, monkeypatch):
    monkeypatch.setattr(_cudnn, '_frontend', False)
    assert not _usable()


def test_declined_calls_take_the_numpy_path(monkeypatch):
    # usable() says yes but cuDNN declines: the same results as without cuDNN
    calls = []

    def declined(name):
        def run(*args):
            calls.append(name)
            return None
        return run

    x, gamma, beta = _data((3, 2, 4))
    gy = numpy.ones_like(x)
    want = _train(x, gamma, beta, 2e-5, numpy.zeros(2), numpy.ones(2), gy)
    want_fixed = F.fixed_batch_normalization(x, gamma, beta, beta, gamma).array
    monkeypatch.setattr(_cudnn_bn, 'usable', lambda *args: True)
    for name in ('forward', 'backward', 'inference'):
        monkeypatch.setattr(_cudnn_bn, name, declined(name))
    got = _train(x, gamma, beta, 2e-5, numpy.zeros(2), numpy.ones(2), gy)
    got_fixed = F.fixed_batch_normalization(x, gamma, beta, beta, gamma).array
    assert calls == ['forward', 'backward', 'inference']
    for w, g in zip(want + [want_fixed], got + [got_fixed], strict=True):
        numpy.testing.assert_array_equal(g, w)


def test_double_backprop_keeps_the_composed_path(monkeypatch):
    calls = []
    monkeypatch.setattr(_cudnn_bn, 'usable', lambda *args: True)
    monkeypatch.setattr(_cudnn_bn, 'forward', lambda *args: None)
    monkeypatch.setattr(_cudnn_bn, 'backward', lambda *args: calls.append(args))
    x, gamma, beta = (chainer.Variable(a) for a in _data((3, 2, 4)))
    y = F.batch_normalization(x, gamma, beta)
    gx, = chainer.grad([F.sum(y * y)], [x], enable_double_backprop=True)
    assert calls == [] and gx.creator is not None


def test_batch_variance_inverts_the_saved_statistic():
    var = numpy.array([0., 1e-7, 0.25, 4., 1e4], 'f')
    eps = 2e-5
    inv_std = (1 / numpy.sqrt(var.astype('d') + eps)).astype('f')
    got = _cudnn_bn.batch_variance(inv_std, eps)
    assert got.dtype == numpy.float32 and (got >= 0).all()
    numpy.testing.assert_allclose(got, var, rtol=1e-5, atol=1e-9)
