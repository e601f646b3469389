"""Every optimizer against a hand-written NumPy reference of its update, on float16/32/64.

Each reference writes the documented update with plain NumPy expressions; the
optimizer runs several steps on fixed gradients over parameters of several sizes
(one packed with others, one too large to pack and one larger than a chunk, so that
the packed, in-place and chunked kernels all run).
"""

import math

import numpy
import pytest

import chainer
from chainer import optimizers
from chainer.optimizers import _fused_update

SHAPES = ((3, 4), (5,), (), (2, 0), (_fused_update.PACK_BELOW + 3,), (_fused_update.CHUNK + 37,))
STEPS = 4


def _sgd(hp, p, g, st, t):
    return p - hp['lr'] * g


def _momentum_sgd(hp, p, g, st, t):
    st['v'] = hp['momentum'] * st['v'] - hp['lr'] * g
    return p + st['v']


def _corrected_momentum_sgd(hp, p, g, st, t):
    st['v'] = hp['momentum'] * st['v'] - g
    return p + hp['lr'] * st['v']


def _nesterov_ag(hp, p, g, st, t):
    mu, lr = hp['momentum'], hp['lr']
    st['v'] = mu * st['v'] - lr * g
    return p + mu * mu * st['v'] - (1 + mu) * lr * g


def _ada_grad(hp, p, g, st, t):
    st['h'] = st['h'] + g * g
    return p - hp['lr'] * g / (numpy.sqrt(st['h']) + hp['eps'])


def _ada_delta(hp, p, g, st, t):
    rho, eps = hp['rho'], hp['eps']
    st['msg'] = rho * st['msg'] + (1 - rho) * g * g
    dx = numpy.sqrt((st['msdx'] + eps) / (st['msg'] + eps)) * g
    st['msdx'] = rho * st['msdx'] + (1 - rho) * dx * dx
    return p - dx


def _rmsprop(hp, p, g, st, t):
    a = hp['alpha']
    st['ms'] = a * st['ms'] + (1 - a) * g * g
    if hp['eps_inside_sqrt']:
        denom = numpy.sqrt(st['ms'] + hp['eps'])
    else:
        denom = numpy.sqrt(st['ms']) + hp['eps']
    return p - hp['lr'] * g / denom


def _rmsprop_graves(hp, p, g, st, t):
    a = hp['alpha']
    st['n'] = a * st['n'] + (1 - a) * g * g
    st['g'] = a * st['g'] + (1 - a) * g
    st['delta'] = hp['momentum'] * st['delta'] - hp['lr'] * g / numpy.sqrt(
        st['n'] - st['g'] * st['g'] + hp['eps'])
    return p + st['delta']


def _smorms3(hp, p, g, st, t):
    r = 1 / (st['mem'] + 1)
    st['g'] = (1 - r) * st['g'] + r * g
    st['g2'] = (1 - r) * st['g2'] + r * g * g
    x = st['g'] * st['g'] / (st['g2'] + hp['eps'])
    p = p - g * numpy.minimum(x, hp['lr']) / (numpy.sqrt(st['g2']) + hp['eps'])
    st['mem'] = 1 + st['mem'] * (1 - x)
    return p


def _adam(hp, p, g, st, t):
    b1, b2 = hp['beta1'], hp['beta2']
    st['m'] = st['m'] + (1 - b1) * (g - st['m'])
    st['v'] = st['v'] + (1 - b2) * (g * g - st['v'])
    vhat = st['v']
    if hp['amsgrad']:
        st['vhat'] = vhat = numpy.maximum(st['vhat'], st['v'])
    alpha_t = hp['alpha'] * math.sqrt(1 - b2 ** t) / (1 - b1 ** t)
    step = alpha_t / (numpy.sqrt(vhat) + hp['eps'])
    if hp['adabound']:
        lower = hp['final_lr'] * (1 - 1 / (hp['gamma'] * t + 1))
        upper = hp['final_lr'] * (1 + 1 / (hp['gamma'] * t))
        step = numpy.clip(step, lower, upper)
    return p - hp['eta'] * (step * st['m'] + hp['weight_decay_rate'] * p)


def _msvag(hp, p, g, st, t):
    beta = hp['beta']
    st['m'] = st['m'] + (1 - beta) * (g - st['m'])
    st['v'] = st['v'] + (1 - beta) * (g * g - st['v'])
    mt = st['m'] / (1 - beta ** t)
    vt = st['v'] / (1 - beta ** t)
    rho = min((1 - beta) * (1 + beta ** t) / ((1 + beta) * (1 - beta ** t)), 0.9999)
    s = (vt - mt * mt) / (1 - rho)
    with numpy.errstate(invalid='ignore', divide='ignore'):
        factor = numpy.clip(mt * mt / (mt * mt + rho * s), 0, 1)
    factor = numpy.where(numpy.isnan(factor), 0, factor)
    return p - hp['eta'] * (hp['lr'] * mt * factor + hp['weight_decay_rate'] * p)


_ADAM = {'alpha': 0.01, 'beta1': 0.9, 'beta2': 0.999, 'eps': 1e-8, 'eta': 1.0,
         'weight_decay_rate': 0.0, 'amsgrad': False, 'adabound': False, 'final_lr': 0.1,
         'gamma': 1e-3}

# name: (constructor kwargs, the full hyperparameters, reference, initial states)
CASES = {
    'SGD': ({'lr': 0.1}, {'lr': 0.1}, _sgd, {}),
    'MomentumSGD': ({'lr': 0.1, 'momentum': 0.8}, {'lr': 0.1, 'momentum': 0.8},
                    _momentum_sgd, {'v': 0}),
    'CorrectedMomentumSGD': ({'lr': 0.1}, {'lr': 0.1, 'momentum': 0.9},
                             _corrected_momentum_sgd, {'v': 0}),
    'NesterovAG': ({'lr': 0.1, 'momentum': 0.7}, {'lr': 0.1, 'momentum': 0.7}, _nesterov_ag,
                   {'v': 0}),
    'AdaGrad': ({'lr': 0.1}, {'lr': 0.1, 'eps': 1e-8}, _ada_grad, {'h': 0}),
    'AdaDelta': ({'rho': 0.9, 'eps': 1e-5}, {'rho': 0.9, 'eps': 1e-5}, _ada_delta,
                 {'msg': 0, 'msdx': 0}),
    'RMSprop': ({'lr': 0.05, 'eps': 1e-4}, {'lr': 0.05, 'alpha': 0.99, 'eps': 1e-4,
                                            'eps_inside_sqrt': False}, _rmsprop, {'ms': 0}),
    'RMSpropGraves': ({'lr': 0.01}, {'lr': 0.01, 'alpha': 0.95, 'momentum': 0.9,
                                     'eps': 1e-4}, _rmsprop_graves,
                      {'n': 0, 'g': 0, 'delta': 0}),
    'SMORMS3': ({'lr': 0.05}, {'lr': 0.05, 'eps': 1e-16}, _smorms3,
                {'mem': 1, 'g': 0, 'g2': 0}),
    'Adam': ({'alpha': 0.01}, _ADAM, _adam, {'m': 0, 'v': 0}),
    'AdamW': ({'alpha': 0.01, 'weight_decay_rate': 0.1, 'eta': 0.5},
              {**_ADAM, 'weight_decay_rate': 0.1, 'eta': 0.5}, _adam, {'m': 0, 'v': 0}),
    'AMSGrad': ({'alpha': 0.01, 'beta2': 0.9}, {**_ADAM, 'beta2': 0.9, 'amsgrad': True}, _adam,
                {'m': 0, 'v': 0, 'vhat': 0}),
    'AdaBound': ({'alpha': 0.01, 'final_lr': 0.05}, {**_ADAM, 'adabound': True,
                                                     'final_lr': 0.05}, _adam,
                 {'m': 0, 'v': 0}),
    'AMSBound': ({'alpha': 0.01, 'gamma': 0.1}, {**_ADAM, 'adabound': True, 'amsgrad': True,
                                                 'gamma': 0.1}, _adam,
                 {'m': 0, 'v': 0, 'vhat': 0}),
    'MSVAG': ({'lr': 0.05, 'beta': 0.8, 'weight_decay_rate': 0.01},
              {'lr': 0.05, 'beta': 0.8, 'eta': 1.0, 'weight_decay_rate': 0.01}, _msvag,
              {'m': 0, 'v': 0}),
}
TOL = {numpy.float16: {'rtol': 2e-2, 'atol': 2e-2}, numpy.float32: {'rtol': 1e-4, 'atol': 1e-5},
       numpy.float64: {'rtol': 1e-10, 'atol': 1e-12}}
# M-SVAG divides the rounding error of ``vt - mt ** 2`` by ``1 - rho`` (1e-4 at the first
# step): its results in low precision follow the float64 reference less closely.
LOOSE = {numpy.float16: {'rtol': 5e-2, 'atol': 5e-2}, numpy.float32: {'rtol': 1e-3, 'atol': 1e-3},
         numpy.float64: {'rtol': 1e-8, 'atol': 1e-10}}


def _make_link(dtype, shapes=SHAPES, seed=0):
    rng = numpy.random.RandomState(seed)
    link = chainer.Link()
    with link.init_scope():
        for i, shape in enumerate(shapes):
            setattr(link, f'p{i}', chainer.Parameter(
                numpy.asarray(rng.uniform(-1, 1, shape), dtype=dtype)))
    return link


def _grads(link, step):
    # magnitudes in [0.1, 1]: float16 moments of tiny gradients would underflow
    rng = numpy.random.RandomState(100 + step)
    return [numpy.asarray(rng.uniform(0.1, 1, p.shape) * rng.choice([-1, 1], p.shape),
                          dtype=p.dtype) for p in link.params()]


def _train(opt, link, steps=STEPS):
    opt.setup(link)
    for step in range(steps):
        for p, g in zip(link.params(), _grads(link, step), strict=True):
            p.grad = g
        opt.update()
    return opt


def test_every_v7_optimizer_is_tested_here():
    names = {n for n in dir(optimizers)
             if isinstance(getattr(optimizers, n), type)
             and issubclass(getattr(optimizers, n), chainer.Optimizer)}
    assert names == set(CASES)


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_optimizer_matches_numpy_reference(name, dtype):
    kwargs, hp, reference, init = CASES[name]
    link = _make_link(dtype)
    # the reference in float64 from the same start
    ref = [p.array.astype(numpy.float64) for p in link.params()]
    states = [{k: numpy.full(p.shape, v, numpy.float64) for k, v in init.items()}
              for p in link.params()]
    for step in range(STEPS):
        for i, g in enumerate(_grads(link, step)):
            ref[i] = reference(hp, ref[i], g.astype(numpy.float64), states[i], step + 1)
    opt = _train(getattr(optimizers, name)(**kwargs), link)
    tol = (LOOSE if name == 'MSVAG' else TOL)[dtype]
    for p, r, st in zip(link.params(), ref, states, strict=True):
        assert p.dtype == dtype
        numpy.testing.assert_allclose(p.array.astype(numpy.float64), r, **tol)
        assert sorted(p.update_rule.state) == sorted(st)  # v7's state names
        for key, value in st.items():
            assert p.update_rule.state[key].dtype == dtype
            numpy.testing.assert_allclose(p.update_rule.state[key].astype(numpy.float64),
                                          value, **tol)
    assert opt.t == STEPS


@pytest.mark.parametrize('dtype', [numpy.float16, numpy.float32, numpy.float64])
@pytest.mark.parametrize('name', sorted(CASES))
def test_fused_and_per_parameter_paths_agree_to_the_bit(name, dtype):
    kwargs = CASES[name][0]
    results = []
    for fuse in (True, False):
        opt = getattr(optimizers, name)(**kwargs)
        opt._fuse = fuse
        link = _train(opt, _make_link(dtype), steps=3).target
        results.append([p.array for p in link.params()] +
                       [p.update_rule.state[k] for p in link.params()
                        for k in sorted(p.update_rule.state)])
    for fused, plain in zip(*results, strict=True):
        numpy.testing.assert_array_equal(fused, plain)


def test_fused_state_is_per_parameter_readable_and_writable():
    link = _make_link(numpy.float32, shapes=((3, 2), (4,), (2,)))
    opt = _train(optimizers.MomentumSGD(lr=0.1, momentum=0.5), link, steps=1)
    p0, p1, p2 = link.params()
    v0 = p0.update_rule.state['v']
    assert v0.shape == (3, 2) and v0.dtype == numpy.float32
    v0[...] = 1.0  # write in place
    p1.update_rule.state['v'] = numpy.full(4, 2.0, numpy.float32)  # replace the array
    before = [p.array.copy() for p in (p0, p1, p2)]
    v2 = p2.update_rule.state['v'].copy()
    for p in (p0, p1, p2):
        p.grad = numpy.zeros_like(p.array)
    opt.update()
    numpy.testing.assert_allclose(p0.array, before[0] + 0.5)
    numpy.testing.assert_allclose(p1.array, before[1] + 1.0)
    numpy.testing.assert_allclose(p2.array, before[2] + 0.5 * v2)
    numpy.testing.assert_allclose(p1.update_rule.state['v'], 1.0)


def test_parameters_with_own_hooks_or_hyperparameters_take_the_per_parameter_path():
    link = _make_link(numpy.float32, shapes=((3,), (3,), (3,)))
    opt = optimizers.SGD(lr=0.1).setup(link)
    p0, p1, p2 = link.params()
    p1.update_rule.hyperparam.lr = 1.0
    p2.update_rule.add_hook(lambda rule, param: param.grad.fill(2.0), name='two')
    before = [p.array.copy() for p in link.params()]
    for p in link.params():
        p.grad = numpy.ones(3, numpy.float32)
    opt.update()
    numpy.testing.assert_allclose(p0.array, before[0] - 0.1)
    numpy.testing.assert_allclose(p1.array, before[1] - 1.0)
    numpy.testing.assert_allclose(p2.array, before[2] - 0.2)


def test_disabled_rule_and_uninitialized_parameter_are_left_alone():
    link = _make_link(numpy.float32, shapes=((3,), (3,)))
    with link.init_scope():
        link.lazy = chainer.Parameter()
    opt = optimizers.Adam().setup(link)
    p0, p1 = link.p0, link.p1
    p1.update_rule.enabled = False
    before = p1.array.copy()
    for p in (p0, p1):
        p.grad = numpy.ones(3, numpy.float32)
    opt.update()
    numpy.testing.assert_array_equal(p1.array, before)
    assert p1.update_rule.t == 0 and p0.update_rule.t == 1
    assert link.lazy.array is None


def test_optimizer_pickles_after_a_fused_update():
    import pickle

    link = _make_link(numpy.float32, shapes=((3,), (4,)))
    opt = _train(optimizers.Adam(alpha=0.1), link, steps=2)
    clone = pickle.loads(pickle.dumps(opt))
    for a, b in ((opt, link), (clone, clone.target)):
        for p, g in zip(b.params(), _grads(b, 9), strict=True):
            p.grad = g
        a.update()
    for p, q in zip(link.params(), clone.target.params(), strict=True):
        numpy.testing.assert_array_equal(p.array, q.array)


@pytest.mark.parametrize('name', sorted(CASES))
def test_use_fp32_update_follows_the_float32_reference(name):
    kwargs = CASES[name][0]
    half = _make_link(numpy.float16, shapes=((4, 3), (5,)))
    single = _make_link(numpy.float32, shapes=((4, 3), (5,)))
    for p, q in zip(half.params(), single.params(), strict=True):
        q.array[...] = p.array  # the same (float16-representable) start
    opt = getattr(optimizers, name)(**kwargs)
    opt.use_fp32_update()
    _train(opt, half)
    _train(getattr(optimizers, name)(**kwargs), single)
    for p, q in zip(half.params(), single.params(), strict=True):
        assert p.dtype == numpy.float16
        master = p.update_rule._fp32_param.array
        assert master.dtype == numpy.float32
        numpy.testing.assert_allclose(master, q.array, rtol=1e-3, atol=1e-3)
        numpy.testing.assert_array_equal(p.array, master.astype(numpy.float16))


@pytest.mark.parametrize('name', sorted(CASES))
def test_loss_scaled_gradients_give_the_unscaled_update(name):
    kwargs = CASES[name][0]
    results = []
    for scale in (None, 64.0):
        link = _make_link(numpy.float32, shapes=((3, 2), (2,)))
        opt = getattr(optimizers, name)(**kwargs).setup(link)
        for step in range(3):
            loss = sum(chainer.functions.sum(p * g) for p, g in
                       zip(link.params(), _grads(link, step), strict=True))
            link.cleargrads()
            loss.backward(loss_scale=scale)
            opt.update()
        results.append([p.array for p in link.params()])
    for a, b in zip(*results, strict=True):
        numpy.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize('name', sorted(CASES))
def test_dynamic_loss_scaling_skips_the_overflowing_update(name):
    kwargs = CASES[name][0]
    link = _make_link(numpy.float32, shapes=((3,),))
    opt = getattr(optimizers, name)(**kwargs).setup(link)
    opt.loss_scaling()
    p = next(link.params())
    p.grad = numpy.array([1.0, numpy.inf, 0.5], numpy.float32)
    before = p.array.copy()
    with pytest.warns(UserWarning, match='Non finite'):
        opt.update()
    numpy.testing.assert_array_equal(p.array, before)
    assert p.update_rule.t == 0 and opt.t == 1 and opt._loss_scale == 1


@pytest.mark.parametrize('name,kwargs', [
    ('SGD', {'lr': -0.1}), ('MomentumSGD', {'lr': -1}), ('Adam', {'alpha': -1e-3}),
    ('Adam', {'eps': 0}), ('AdaGrad', {'eps': -1e-8}), ('AdaDelta', {'eps': 0.0}),
    ('RMSprop', {'eps': 0}), ('RMSpropGraves', {'lr': -1}), ('SMORMS3', {'eps': 0}),
    ('AMSGrad', {'eps': -1.0}), ('NesterovAG', {'lr': -0.5}), ('MSVAG', {'lr': -0.1}),
    ('CorrectedMomentumSGD', {'lr': -0.1}), ('AdaBound', {'alpha': -1}),
])
def test_bad_hyperparameters_raise_a_clear_error(name, kwargs):
    key = next(iter(kwargs))
    with pytest.raises(ValueError, match=key):
        getattr(optimizers, name)(**kwargs)


def test_rmsprop_eps_too_small_for_float16_is_an_error():
    link = _make_link(numpy.float16, shapes=((3,),))
    opt = optimizers.RMSprop(eps=1e-8).setup(link)
    next(link.params()).grad = numpy.ones(3, numpy.float16)
    with pytest.raises(ValueError, match='too small for float16'):
        opt.update()


def test_hyperparameters_of_rules_follow_the_optimizer():
    link = _make_link(numpy.float32, shapes=((3,),))
    opt = optimizers.RMSpropGraves().setup(link)
    rule = next(link.params()).update_rule
    assert rule.hyperparam.get_dict() == {'lr': 1e-4, 'alpha': 0.95, 'momentum': 0.9,
                                          'eps': 1e-4}
    opt.lr = 0.5
    assert rule.hyperparam.lr == 0.5
    rule.hyperparam.lr = 0.1
    assert opt.lr == 0.5 and rule.hyperparam.lr == 0.1


def test_msvag_beta_power_and_adam_bounds():
    link = _make_link(numpy.float32, shapes=((3,),))
    msvag = _train(optimizers.MSVAG(beta=0.5), link, steps=2)
    assert next(link.params()).update_rule.beta_power == pytest.approx(0.125)
    assert msvag.t == 2
    link = _make_link(numpy.float32, shapes=((3,),))
    _train(optimizers.AdaBound(final_lr=0.1, gamma=0.5), link, steps=2)
    rule = next(link.params()).update_rule
    lower, upper = rule.bounds
    assert lower == pytest.approx(0.1 * (1 - 1 / 2.0)) and upper == pytest.approx(0.1 * 2)


def test_setup_on_another_link_forgets_the_former_groups():
    opt = _train(optimizers.Adam(alpha=0.1), _make_link(numpy.float32, shapes=((3,), (4,))))
    assert opt._fused_cache
    link = _make_link(numpy.float32, shapes=((3,), (4,)), seed=1)
    before = [p.array.copy() for p in link.params()]
    _train(opt, link, steps=1)
    assert all(not numpy.array_equal(p.array, b) for p, b in zip(link.params(), before,
                                                                  strict=True))
    assert all(p.update_rule.t == 1 for p in link.params())
