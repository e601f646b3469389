"""The compiled update kernels (Numba) give the NumPy path's numbers bit for bit."""

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import _fused_update

numba = pytest.importorskip('numba', reason='the compiled kernels need Numba (the jit extra)')

SIZES = [0, 1, 7, 1000, 2 * _fused_update.CHUNK + 5]


def _link(dtype, sizes, seed=0, contiguous=True):
    rng = numpy.random.default_rng(seed)
    link = chainer.Link()
    with link.init_scope():
        for i, n in enumerate(sizes):
            if contiguous:
                a = rng.standard_normal(n)
            else:  # every other element of a longer array
                a = rng.standard_normal(2 * n)[::2]
            setattr(link, f'p{i}', chainer.Parameter(a.astype(dtype)))
        link.scalar = chainer.Parameter(numpy.asarray(0.5, dtype))
    return link


def _train(make_opt, mode, dtype, sizes, steps=3, contiguous=True, per_param=False):
    link = _link(dtype, sizes, contiguous=contiguous)
    opt = make_opt()
    opt.setup(link)
    if per_param:  # a hook of its own sends each parameter down the per-parameter path
        for p in link.params():
            p.update_rule.add_hook(lambda rule, param: None)
    rng = numpy.random.default_rng(1)
    with chainer.using_config('use_numba', mode):
        for _ in range(steps):
            for p in link.params():
                p.grad = rng.standard_normal(p.shape).astype(dtype)
            opt.update()
    return link, opt


OPTIMIZERS = {
    'adam': lambda: optimizers.Adam(alpha=0.01),
    'adam_decay_eta': lambda: optimizers.Adam(alpha=0.01, weight_decay_rate=0.1, eta=0.5),
    'adamw': lambda: optimizers.AdamW(alpha=0.01, weight_decay_rate=0.05),
    'amsgrad': lambda: optimizers.Adam(alpha=0.01, amsgrad=True),  # NumPy path in both
    'momentum_sgd': lambda: optimizers.MomentumSGD(lr=0.05),
}


def _assert_same(a, b):
    for (name, pa), (_, pb) in zip(sorted(a[0].namedparams()), sorted(b[0].namedparams())):
        assert pa.array.tobytes() == pb.array.tobytes(), name
        for key, value in pa.update_rule.state.items():
            assert value.tobytes() == pb.update_rule.state[key].tobytes(), (name, key)


@pytest.mark.parametrize('name', sorted(OPTIMIZERS))
@pytest.mark.parametrize('dtype', [numpy.float32, numpy.float64, numpy.float16])
def test_fused_update_is_bit_identical(name, dtype):
    make = OPTIMIZERS[name]
    _assert_same(_train(make, 'never', dtype, SIZES), _train(make, 'always', dtype, SIZES))


@pytest.mark.parametrize('name', ['adam', 'momentum_sgd'])
@pytest.mark.parametrize('contiguous', [True, False])
def test_per_parameter_path_is_bit_identical(name, contiguous):
    make = OPTIMIZERS[name]
    sizes = [3, 1000, 2 * _fused_update.CHUNK + 1]
    _assert_same(_train(make, 'never', numpy.float32, sizes, contiguous=contiguous,
                        per_param=True),
                 _train(make, 'always', numpy.float32, sizes, contiguous=contiguous,
                        per_param=True))


def test_the_kernel_runs_only_when_enabled(monkeypatch):
    from chainer.optimizers import _jit_kernels
    calls = []
    real = _jit_kernels.adam_step
    monkeypatch.setattr(_jit_kernels, 'adam_step', lambda *a: calls.append(1) or real(*a))
    _train(OPTIMIZERS['adam'], 'never', numpy.float32, [100], steps=1)
    assert not calls
    _train(OPTIMIZERS['adam'], 'auto', numpy.float32, [100], steps=1)
    assert calls
