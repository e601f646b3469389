"""Compatibility cases: optimizers, update-rule states, hooks and loss scaling.

Each case trains the parameters of a link (a small matrix, a vector and one
parameter larger than a cache chunk) for a few steps on fixed gradients and
returns the parameters and the update-rule states. Compare with
``--rtol 0 --atol 0``: the updates are elementwise, so the results should agree
to the bit. (0-dim parameters are left out on purpose: under NumPy 1, Chainer
7.8.1 computes their updates in float64, a value-based casting accident; this
project keeps the parameter's dtype.)
"""

NO_GRAD = {'backward': False}

SHAPES = ((3, 4), (5,), (20000,))
DTYPES = {'f16': 'e', 'f32': 'f', 'f64': 'd'}

OPTIMIZERS = {
    'AdaDelta': {'eps': 1e-5},
    'AdaGrad': {'lr': 0.1},
    'Adam': {'alpha': 0.05},
    'AdamW': {'alpha': 0.05, 'weight_decay_rate': 0.1, 'eta': 0.5},
    'AMSGrad': {'alpha': 0.05, 'beta2': 0.7},
    'AdaBound': {'alpha': 0.05, 'final_lr': 0.2, 'gamma': 0.1},
    'AMSBound': {'alpha': 0.05},
    'CorrectedMomentumSGD': {'lr': 0.1},
    'MomentumSGD': {'lr': 0.1},
    'MSVAG': {'lr': 0.1, 'beta': 0.8},
    'NesterovAG': {'lr': 0.1},
    'RMSprop': {'lr': 0.1, 'eps': 1e-6},
    'RMSpropGraves': {'lr': 0.1},
    'SGD': {'lr': 0.1},
    'SMORMS3': {'lr': 0.1},
}


def _train(np, name, kwargs, dtype, steps=4, hooks=(), fp32=False, scale=1.0,
           loss_scaling=None, overflow_step=None):
    import chainer
    from chainer import optimizers

    rs = np.random.RandomState(0)
    link = chainer.Link()
    params = []
    with link.init_scope():
        for i, shape in enumerate(SHAPES):
            param = chainer.Parameter(np.array(rs.uniform(-1, 1, shape), dtype=dtype))
            setattr(link, f'p{i}', param)
            params.append(param)
    opt = getattr(optimizers, name)(**kwargs)
    opt.setup(link)
    if fp32:
        opt.use_fp32_update()
    if loss_scaling is not None:
        opt.loss_scaling(**loss_scaling)
    for hook in hooks:
        opt.add_hook(hook)
    for step in range(steps):
        for param in params:
            grad = rs.uniform(-1, 1, param.shape) * scale
            if step == overflow_step:
                grad = grad * np.inf
            param.grad = np.array(grad, dtype=dtype)
        opt.update()
    out = [param.array for param in params]
    for param in params:
        state = param.update_rule.state or {}
        out.extend(state[key] for key in sorted(state))
    if loss_scaling is not None:
        out.append(np.array([opt._loss_scale, opt.t]))
    return tuple(out)


def _add(case_name, **options):
    def case(F, np, rng):
        return (lambda: _train(np, **options)), (), {}, NO_GRAD
    globals()[f"case_{case_name}"] = case


for _opt, _kwargs in OPTIMIZERS.items():
    for _label, _dtype in DTYPES.items():
        _add(f'{_opt}_{_label}', name=_opt, kwargs=_kwargs, dtype=_dtype)
    _add(f'{_opt}_defaults', name=_opt, kwargs={}, dtype='f')

_add('RMSprop_eps_inside_sqrt', name='RMSprop',
     kwargs={'lr': 0.1, 'eps_inside_sqrt': True, 'eps': 1e-6}, dtype='f')
_add('RMSprop_f16_default_eps', name='RMSprop', kwargs={}, dtype='e')
_add('Adam_weight_decay_f16', name='Adam', kwargs={'weight_decay_rate': 0.5, 'eta': 0.5},
     dtype='e')
_add('Adam_amsbound_f64', name='Adam',
     kwargs={'amsgrad': True, 'adabound': True, 'alpha': 0.01}, dtype='d')
_add('MSVAG_weight_decay', name='MSVAG', kwargs={'weight_decay_rate': 0.1, 'eta': 0.7},
     dtype='f', steps=6)
for _opt in ('Adam', 'MomentumSGD', 'SMORMS3', 'RMSpropGraves'):
    _add(f'{_opt}_fp32_update', name=_opt, kwargs=OPTIMIZERS[_opt], dtype='e', fp32=True)
    _add(f'{_opt}_dynamic_loss_scaling', name=_opt, kwargs=OPTIMIZERS[_opt], dtype='f',
         steps=6, loss_scaling={'interval': 2}, overflow_step=3)
_add('SGD_static_loss_scaling', name='SGD', kwargs={'lr': 0.1}, dtype='f',
     loss_scaling={'scale': 8.0})


def _hooks(name):
    from chainer import optimizer_hooks as H

    return {
        'weight_decay': [H.WeightDecay(0.1)],
        'lasso': [H.Lasso(0.1)],
        'clipping': [H.GradientClipping(0.5)],
        'hard_clipping': [H.GradientHardClipping(-0.3, 0.2)],
        'lars': [H.GradientLARS(threshold=0.01, weight_decay=0.1)],
        'post_weight_decay': [_post(H.WeightDecay(0.1))],
    }[name]


def _post(hook):
    hook.timing = 'post'
    return hook


for _hook in ('weight_decay', 'lasso', 'clipping', 'hard_clipping', 'lars',
              'post_weight_decay'):
    def _case(F, np, rng, _hook=_hook):
        return (lambda: _train(np, 'Adam', {'alpha': 0.05}, 'f', hooks=_hooks(_hook))), (), \
            {}, NO_GRAD
    globals()[f'case_Adam_hook_{_hook}'] = _case
