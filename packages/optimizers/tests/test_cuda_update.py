"""The multi-tensor GPU update: its chunk table and kernel source (on CPU), and its
results against the per-parameter kernels and the CPU update (on a GPU)."""

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import _cuda_update


def test_host_table_cuts_arrays_into_chunks():
    c = _cuda_update.CHUNK
    sizes = [1, c, c + 3, 2 * c]
    host, n = _cuda_update.host_table(sizes, list(range(100, 108)))
    assert n == 1 + 1 + 2 + 2
    owner, start, end = host[:n], host[n:2 * n], host[2 * n:3 * n]
    numpy.testing.assert_array_equal(owner, [0, 1, 2, 2, 3, 3])
    numpy.testing.assert_array_equal(start, [0, 0, 0, c, 0, c])
    numpy.testing.assert_array_equal(end, [1, c, c, c + 3, c, 2 * c])
    numpy.testing.assert_array_equal(host[3 * n:], range(100, 108))
    assert host.dtype == numpy.int64


def test_source_names_states_and_scalars():
    step = optimizers.adam.AdamRule._cuda_step
    src = _cuda_update._source(step, 'float', ('m', 'v'))
    assert 'typedef float T;' in src
    assert 'chainer_adam_multi(' in src
    assert 'T& m = m_[e];' in src and 'T& v = v_[e];' in src
    assert 'ptrs[3 * nt + j]' in src  # the second state
    for name in step.scalars:
        assert f'const T {name}' in src


def test_rules_with_cuda_steps():
    assert optimizers.adam.AdamRule._cuda_step is not None
    assert optimizers.momentum_sgd.MomentumSGDRule._cuda_step is not None
    assert optimizers.sgd.SGDRule._cuda_step is not None
    rule = optimizers.Adam(amsgrad=True).create_update_rule()
    assert not rule._cuda_step_ok(numpy.dtype('f'))
    assert optimizers.Adam().create_update_rule()._cuda_step_ok(numpy.dtype('d'))
    assert not optimizers.Adam().create_update_rule()._cuda_step_ok(numpy.dtype('e'))


# -- on a GPU ------------------------------------------------------------------------

SIZES = [(3, 5), (1,), (7,), (_cuda_update.CHUNK + 5,), (2, _cuda_update.CHUNK), (0,), ()]


class _Many(chainer.Link):
    def __init__(self, dtype):
        super().__init__()
        rng = numpy.random.default_rng(1)
        with self.init_scope():
            for i, shape in enumerate(SIZES):
                setattr(self, f'p{i}', chainer.Parameter(rng.standard_normal(shape).astype(dtype)))


def _grads(link, step, xp):
    rng = numpy.random.default_rng(step)
    out = {}
    for name, p in sorted(link.namedparams()):
        out[name] = xp.asarray(rng.standard_normal(p.shape).astype(p.dtype))
    return out


@pytest.mark.gpu
@pytest.mark.parametrize('dtype', ['f', 'd'])
@pytest.mark.parametrize('make', [
    lambda: optimizers.SGD(0.1),
    lambda: optimizers.MomentumSGD(0.05, 0.8),
    lambda: optimizers.Adam(0.01),
    lambda: optimizers.AdamW(0.01, weight_decay_rate=0.1),
])
def test_multi_tensor_matches_per_parameter_and_cpu(make, dtype, monkeypatch):
    cupy = pytest.importorskip('cupy')
    launched = []
    real = _cuda_update.update_group

    def spy(cache, key, members):
        launched.append(len(members))
        real(cache, key, members)

    monkeypatch.setattr(_cuda_update, 'update_group', spy)
    cpu = _Many(dtype)
    multi = _Many(dtype).to_device('@cupy:0')
    single = _Many(dtype).to_device('@cupy:0')
    o_cpu, o_multi, o_single = make().setup(cpu), make().setup(multi), make().setup(single)
    for p in single.params():  # a hook of its own keeps each parameter on its own kernel
        p.update_rule.add_hook(lambda rule, param: None)
    for step in range(3):
        for link, xp in ((cpu, numpy), (multi, cupy), (single, cupy)):
            grads = _grads(link, step, xp)
            for name, p in link.namedparams():
                p.grad = grads[name].copy()  # new arrays (new addresses) every step
        o_cpu.update()
        o_multi.update()
        o_single.update()
    assert launched == [len(SIZES)] * 3
    rtol = 1e-5 if dtype == 'f' else 1e-12
    for (name, pm), (_, ps), (_, pc) in zip(sorted(multi.namedparams()),
                                            sorted(single.namedparams()),
                                            sorted(cpu.namedparams()), strict=True):
        assert isinstance(pm.array, cupy.ndarray)
        numpy.testing.assert_allclose(cupy.asnumpy(pm.array), cupy.asnumpy(ps.array),
                                      rtol=rtol, atol=rtol, err_msg=name)
        numpy.testing.assert_allclose(cupy.asnumpy(pm.array), pc.array, rtol=rtol * 10,
                                      atol=rtol * 10, err_msg=name)
        for key, value in pm.update_rule.state.items():
            numpy.testing.assert_allclose(cupy.asnumpy(value),
                                          cpu_state(cpu, name, key), rtol=rtol * 10,
                                          atol=rtol * 10)


def cpu_state(link, name, key):
    return dict(link.namedparams())[name].update_rule.state[key]


@pytest.mark.gpu
def test_non_contiguous_gradient_takes_the_per_parameter_kernel():
    cupy = pytest.importorskip('cupy')
    link = _Many('f').to_device('@cupy:0')
    opt = optimizers.MomentumSGD(0.1).setup(link)
    grads = {}
    for name, p in link.namedparams():
        g = cupy.ones(p.shape[::-1], 'f').T if p.ndim == 2 else cupy.ones(p.shape, 'f')
        p.grad = g
        grads[name] = cupy.asnumpy(p.array) - 0.1 * cupy.asnumpy(g)
    opt.update()
    for name, p in link.namedparams():
        numpy.testing.assert_allclose(cupy.asnumpy(p.array), grads[name], rtol=1e-6)
