"""GPU updates match CPU updates (need CuPy and a CUDA device: ``nox -s gpu``)."""

import numpy
import pytest
from _optim_models import TwoParams, grads_for

from chainer import optimizer_hooks, optimizers

pytestmark = pytest.mark.gpu
cupy = pytest.importorskip('cupy')


@pytest.mark.parametrize('make', [
    lambda: optimizers.SGD(0.1),
    lambda: optimizers.MomentumSGD(0.05, 0.8),
    lambda: optimizers.Adam(0.01),
    lambda: optimizers.Adam(0.01, weight_decay_rate=0.1),
    lambda: optimizers.AMSGrad(0.01),
    lambda: optimizers.AdaBound(0.01),
])
def test_gpu_matches_cpu(make):
    cpu = TwoParams()
    gpu = TwoParams().to_device('@cupy:0')
    o_cpu, o_gpu = make().setup(cpu), make().setup(gpu)
    o_gpu.add_hook(optimizer_hooks.WeightDecay(0.01))
    o_cpu.add_hook(optimizer_hooks.WeightDecay(0.01))
    for step in range(4):
        grads = grads_for(cpu, step)
        for name, p in cpu.namedparams(include_uninit=False):
            p.grad = grads[name].copy()
        for name, p in gpu.namedparams(include_uninit=False):
            p.grad = cupy.asarray(grads[name])
        o_cpu.update()
        o_gpu.update()
    for (_, pc), (_, pg) in zip(cpu.namedparams(False), gpu.namedparams(False), strict=True):
        assert isinstance(pg.array, cupy.ndarray)
        numpy.testing.assert_allclose(cupy.asnumpy(pg.array), pc.array, rtol=1e-5, atol=1e-6)


def test_state_follows_parameter_to_gpu():
    link = TwoParams()
    opt = optimizers.MomentumSGD().setup(link)
    link.w.grad = numpy.ones((3, 2), 'f')
    opt.update()
    link.to_device('@cupy:0')
    link.w.grad = cupy.ones((3, 2), 'f')
    opt.update()
    assert isinstance(link.w.update_rule.state['v'], cupy.ndarray)


def test_gradient_clipping_on_gpu():
    link = TwoParams().to_device('@cupy:0')
    opt = optimizers.SGD(1.0).setup(link)
    opt.add_hook(optimizer_hooks.GradientClipping(1.0))
    w0 = cupy.asnumpy(link.w.array)
    link.w.grad = cupy.full((3, 2), 2.0, 'f')
    link.b.grad = cupy.zeros(2, 'f')
    opt.update()
    numpy.testing.assert_allclose(cupy.asnumpy(link.w.array), w0 - 2.0 / numpy.sqrt(24.0),
                                  rtol=1e-5)
