"""chainer._cudnn's dispatch, plan cache and settings, on CPU with a fake cuDNN frontend
and a fake CuPy whose arrays are NumPy arrays (the fake "cuDNN" computes with the
im2col path); the real thing is tested on a GPU in tests/functions."""

import types

import numpy
import pytest
from cudnn_fake import FakeFrontendBase, FakeTensorBase

import chainer
from chainer import _cudnn
from chainer.backends import cuda
from chainer.functions.connection import _conv_core

_ARRAYS = {}


class FakeArray:
    def __init__(self, array):
        self.a = numpy.ascontiguousarray(array)
        self.data = types.SimpleNamespace(ptr=16 * (len(_ARRAYS) + 1), device_id=0)
        _ARRAYS[self.data.ptr] = self

    shape = property(lambda self: self.a.shape)
    dtype = property(lambda self: self.a.dtype)
    ndim = property(lambda self: self.a.ndim)
    flags = property(lambda self: self.a.flags)

    def copy(self):
        return FakeArray(self.a.copy())


class FakeEvent:
    def record(self):
        pass

    def synchronize(self):
        pass


def fake_cupy(times):
    return types.SimpleNamespace(
        ndarray=FakeArray,
        empty=lambda shape, dtype: FakeArray(numpy.zeros(shape, dtype)),
        cuda=types.SimpleNamespace(
            runtime=types.SimpleNamespace(getDevice=lambda: 0),
            get_current_stream=lambda: types.SimpleNamespace(ptr=7),
            Event=FakeEvent,
            get_elapsed_time=lambda start, stop: times.pop(0)))


class FakeTensor(FakeTensorBase):
    def __init__(self, dim=None, op=None, inputs=(), geometry=None):
        self.dim, self.op, self.inputs, self.geometry = dim, op, inputs, geometry


class FakeGraph:
    def __init__(self, fe, **kw):
        self.fe = fe
        self.deselected = []
        self.executed = []
        fe.graphs.append(self)

    def tensor(self, name, dim, stride, data_type):
        return FakeTensor(dim)

    def _op(self, op, a, b, padding, stride, dilation, compute_data_type):
        self.out = FakeTensor(op=op, inputs=(a, b), geometry=(stride, padding, dilation))
        return self.out

    def conv_fprop(self, image, weight, **kw):
        return self._op('fprop', image, weight, **kw)

    def conv_dgrad(self, loss, filter, **kw):
        return self._op('dgrad', loss, filter, **kw)

    def conv_wgrad(self, image, loss, **kw):
        return self._op('wgrad', image, loss, **kw)

    def validate(self):
        pass

    def build_operation_graph(self):
        pass

    def create_execution_plans(self, modes):
        pass

    def deselect_numeric_notes(self, notes):
        self.deselected.extend(notes)

    def deselect_workspace_greater_than(self, size):
        self.workspace_limit = size

    def check_support(self):
        if self.fe.unsupported:
            raise RuntimeError('not supported')

    def build_plans(self):
        pass

    def get_workspace_size(self):
        return 0

    def get_execution_plan_count(self):
        return 3

    def build_plan_at_index(self, index):
        pass

    def get_workspace_size_plan_at_index(self, index):
        return 32

    def execute(self, pack, workspace, handle=None):
        self.execute_plan_at_index(pack, workspace, None, handle)

    def execute_plan_at_index(self, pack, workspace, index, handle=None):
        self.executed.append(index)
        a_t, b_t = self.out.inputs
        a, b, y = (_ARRAYS[pack[t]].a.reshape(t.dim) for t in (a_t, b_t, self.out))
        stride, pad, dilate = (tuple(v) for v in self.out.geometry)
        if self.out.op == 'fprop':
            groups = a.shape[1] // b.shape[1]
            r = _conv_core.forward(a, b, stride, pad, dilate, groups, y.shape[2:], y.dtype)
        elif self.out.op == 'dgrad':
            groups = y.shape[1] // b.shape[1]
            r = _conv_core.backward_data(a, b, stride, pad, dilate, groups, y.shape[2:],
                                         y.dtype)
        else:
            groups = a.shape[1] // y.shape[1]
            r = _conv_core.backward_filter(a, b, y.shape[2:], stride, pad, dilate, groups,
                                           y.dtype)
        y[...] = r


class FakeFrontend(FakeFrontendBase):
    graph_class = FakeGraph


@pytest.fixture
def fe(monkeypatch):
    frontend = FakeFrontend()
    times = [3.0, 1.0, 2.0]
    monkeypatch.setattr(cuda, 'cupy', fake_cupy(times))
    monkeypatch.setattr(cuda, 'ndarray', FakeArray)
    monkeypatch.setattr(_cudnn, '_frontend', frontend)
    monkeypatch.setattr(_cudnn, '_plans', type(_cudnn._plans)())
    monkeypatch.setattr(_cudnn, '_local', types.SimpleNamespace())
    monkeypatch.setattr(_cudnn, 'AUTO_MIN_MACS', 0)  # the small convolutions here count
    return frontend


def _data(*shapes, dtype='f'):
    rng = numpy.random.default_rng(0)
    return [rng.standard_normal(s).astype(dtype) for s in shapes]


@pytest.mark.parametrize('nd', [1, 2, 3])
def test_the_three_maps_match_im2col(fe, nd):
    x, W = _data((2, 4) + (6,) * nd, (6, 2) + (3,) * nd)
    s, p, d = (2,) * nd, (1,) * nd, (1,) * nd
    y = _conv_core.forward(x, W, s, p, d, 2, (3,) * nd, x.dtype)
    got = _cudnn.run('fprop', FakeArray(x), FakeArray(W), y.shape, s, p, d)
    numpy.testing.assert_allclose(got.a, y, rtol=1e-6)
    gy, = _data(y.shape)
    gx = _conv_core.backward_data(gy, W, s, p, d, 2, x.shape[2:], x.dtype)
    got = _cudnn.run('dgrad', FakeArray(gy), FakeArray(W), x.shape, s, p, d)
    numpy.testing.assert_allclose(got.a, gx, rtol=1e-6)
    gW = _conv_core.backward_filter(x, gy, W.shape[2:], s, p, d, 2, x.dtype)
    got = _cudnn.run('wgrad', FakeArray(x), FakeArray(gy), W.shape, s, p, d)
    numpy.testing.assert_allclose(got.a, gW, rtol=1e-5)
    dims = fe.graphs[0].out.inputs[0].dim
    assert len(dims) == max(nd, 2) + 2  # a 1-d convolution runs as a 2-d one


def test_plans_are_built_once_per_shape(fe):
    x, W = _data((2, 3, 5, 5), (4, 3, 3, 3))
    for _ in range(3):
        _cudnn.run('fprop', FakeArray(x), FakeArray(W), (2, 4, 5, 5), (1, 1), (1, 1), (1, 1))
    assert len(fe.graphs) == 1 and fe.graphs[0].executed == [None] * 3
    x2, = _data((3, 3, 5, 5))
    _cudnn.run('fprop', FakeArray(x2), FakeArray(W), (3, 4, 5, 5), (1, 1), (1, 1), (1, 1))
    assert len(fe.graphs) == 2


def test_least_recently_used_plan_is_dropped(fe, monkeypatch):
    monkeypatch.setattr(_cudnn, 'PLANS_KEPT', 2)
    W, = _data((4, 3, 1, 1))
    for n in (1, 2, 1, 3, 2):
        x, = _data((n, 3, 4, 4))
        _cudnn.run('fprop', FakeArray(x), FakeArray(W), (n, 4, 4, 4), (1, 1), (0, 0), (1, 1))
    # 1, 2 built; 1 reused; 3 built and drops 2; 2 rebuilt
    assert len(fe.graphs) == 4
    assert [k[1][0][0] for k in _cudnn._plans] == [3, 2]


def test_unsupported_call_returns_none_once(fe):
    fe.unsupported = True
    x, W = _data((1, 2, 4, 4), (2, 2, 3, 3))
    for _ in range(2):
        assert _cudnn.run('fprop', FakeArray(x), FakeArray(W), (1, 2, 2, 2), (1, 1), (0, 0),
                          (1, 1)) is None
    assert len(fe.graphs) == 1


def test_output_size_cudnn_does_not_compute_returns_none(fe):
    x, W = _data((1, 2, 6, 6), (3, 2, 3, 3))
    # cover_all: (6 - 3) / 2 rounded up + 1 = 3 rows, where cuDNN computes 2
    assert _cudnn.run('fprop', FakeArray(x), FakeArray(W), (1, 3, 3, 3), (2, 2), (0, 0),
                      (1, 1)) is None
    assert fe.graphs == []


@pytest.mark.parametrize('dtype,config,notes', [
    ('f', {}, ['tc']),
    ('e', {}, []),
    ('f', {'use_cudnn_tensor_core': 'always'}, []),
    ('e', {'use_cudnn_tensor_core': 'never'}, ['tc']),
    ('d', {'cudnn_deterministic': True}, ['nondet', 'tc']),
])
def test_settings_choose_the_plans(fe, dtype, config, notes):
    x, W = _data((1, 2, 4, 4), (2, 2, 3, 3), dtype=dtype)
    with chainer.using_config('use_cudnn', 'auto'):
        for key, value in config.items():
            setattr(chainer.config, key, value)
        try:
            _cudnn.run('fprop', FakeArray(x), FakeArray(W), (1, 2, 2, 2), (1, 1), (0, 0),
                       (1, 1))
        finally:
            for key in config:
                delattr(chainer.config, key)
    assert fe.graphs[0].deselected == notes
    assert fe.graphs[0].workspace_limit == 0  # no plan that makes execute block the host


def test_autotune_keeps_the_fastest_plan(fe):
    x, W = _data((1, 2, 4, 4), (2, 2, 3, 3))
    with chainer.using_config('autotune', True):
        y = _cudnn.run('fprop', FakeArray(x), FakeArray(W), (1, 2, 2, 2), (1, 1), (0, 0),
                       (1, 1))
        _cudnn.run('fprop', FakeArray(x), FakeArray(W), (1, 2, 2, 2), (1, 1), (0, 0), (1, 1))
    # three candidates timed (3, 1, 2 ms), then plan 1 runs for each call
    assert fe.graphs[0].executed == [0, 1, 2, 1, 1]
    numpy.testing.assert_allclose(
        y.a, _conv_core.forward(x, W, (1, 1), (0, 0), (1, 1), 1, (2, 2), x.dtype), rtol=1e-6)


def test_enabled_follows_use_cudnn_and_dtypes(fe):
    x, W = FakeArray(numpy.ones((1, 2, 4, 4), 'f')), FakeArray(numpy.ones((2, 2, 3, 3), 'f'))
    assert _cudnn.enabled(x, W)
    with chainer.using_config('use_cudnn', 'never'):
        assert not _cudnn.enabled(x, W)
    assert not _cudnn.enabled(x, FakeArray(numpy.ones((2, 2, 3, 3), 'd')))
    assert not _cudnn.enabled(numpy.ones((1, 2, 4, 4), 'f'), W)
    flat = FakeArray(numpy.ones((2, 4), 'f'))
    assert not _cudnn.enabled(flat, flat)


def test_without_the_frontend_nothing_is_enabled(monkeypatch):
    monkeypatch.setattr(_cudnn, '_frontend', False)
    assert _cudnn.frontend() is None


def test_auto_leaves_small_convolutions_to_im2col(fe, monkeypatch):
    monkeypatch.setattr(_cudnn, 'AUTO_MIN_MACS', 2 * 2 * 2 * 2 * 2 * 9)
    x, W = _data((1, 2, 4, 4), (2, 2, 3, 3))
    args = (FakeArray(x), FakeArray(W), (1, 2, 2, 2), (1, 1), (0, 0), (1, 1))
    assert _cudnn.run('fprop', *args) is None  # 8 outputs x 18 = 144 multiply-adds
    with chainer.using_config('use_cudnn', 'always'):
        assert _cudnn.run('fprop', *args) is not None
    x2, = _data((2, 2, 4, 4))
    assert _cudnn.run('fprop', FakeArray(x2), FakeArray(W), (2, 2, 2, 2), (1, 1), (0, 0),
                      (1, 1)) is not None  # 288: at the threshold
