"""Compatibility cases: initializers, links, optimizers, serializers, backprop semantics.

Cases that are not one function call return a function of no inputs whose outputs
are compared (``backward`` off).
"""

NO_GRAD = {'backward': False}


def _init_case(name, shape, **kwargs):
    def case(F, np, rng):
        import chainer

        def run():
            np.random.seed(3)
            init = getattr(chainer.initializers, name)(**kwargs)
            return chainer.initializers.generate_array(init, shape, np)
        return run, (), {}, NO_GRAD
    return case


case_init_lecun_normal = _init_case('LeCunNormal', (4, 3))
case_init_glorot_normal = _init_case('GlorotNormal', (4, 3, 2))
case_init_he_normal = _init_case('HeNormal', (5, 2))
case_init_normal = _init_case('Normal', (3, 3), scale=0.2)
case_init_uniform = _init_case('Uniform', (3, 3), scale=0.3)
case_init_lecun_uniform = _init_case('LeCunUniform', (4, 3))
case_init_glorot_uniform = _init_case('GlorotUniform', (4, 3))
case_init_he_uniform = _init_case('HeUniform', (4, 3))
case_init_orthogonal = _init_case('Orthogonal', (3, 5))
case_init_orthogonal_tall = _init_case('Orthogonal', (6, 2, 2))
case_init_constant = _init_case('Constant', (2, 2), fill_value=1.5)
case_init_identity = _init_case('Identity', (3, 3), scale=2.0)


def case_linear_link(F, np, rng):
    import chainer.links as L

    W = rng.randn(3, 4).astype('f')
    b = rng.randn(3).astype('f')
    link = L.Linear(4, 3, initialW=W, initial_bias=b)
    return link, (rng.randn(2, 4).astype('f'),), {}


def case_linear_link_lazy_and_nobias(F, np, rng):
    import chainer.links as L

    np.random.seed(0)
    link = L.Linear(3, nobias=True)
    return link, (rng.randn(2, 2, 2).astype('f'),), {}


def case_classifier_loss(F, np, rng):
    import chainer.links as L

    W = rng.randn(3, 4).astype('f')
    model = L.Classifier(L.Linear(4, 3, initialW=W))
    t = np.array([0, 2, 1], 'i')

    def run(x):
        loss = model(x, t)
        return loss, model.accuracy
    return run, (rng.randn(3, 4).astype('f'),), {}


def _train(optimizer_name, steps=3, **kwargs):
    def case(F, np, rng):
        import chainer
        import chainer.links as L

        def run():
            r = np.random.RandomState(0)
            model = L.Classifier(chainer.Sequential(
                L.Linear(4, 5, initialW=r.randn(5, 4).astype('f'),
                         initial_bias=r.randn(5).astype('f')),
                F.relu, L.Linear(5, 3, initialW=r.randn(3, 5).astype('f'))))
            opt = getattr(chainer.optimizers, optimizer_name)(**kwargs)
            opt.setup(model)
            x = r.randn(6, 4).astype('f')
            t = r.randint(0, 3, 6).astype('i')
            for _ in range(steps):
                opt.update(model, x, t)
            return tuple(p.array for _, p in sorted(model.namedparams()))
        return run, (), {}, NO_GRAD
    return case


case_opt_sgd = _train('SGD', lr=0.1)
case_opt_momentum_sgd = _train('MomentumSGD', lr=0.05, momentum=0.8)
case_opt_adam = _train('Adam', alpha=0.01)
case_opt_adam_amsgrad = _train('Adam', alpha=0.01, amsgrad=True)
case_opt_adam_weight_decay = _train('Adam', alpha=0.01, weight_decay_rate=0.1)


def case_opt_weight_decay_hook(F, np, rng):
    import chainer
    import chainer.links as L

    def run():
        r = np.random.RandomState(0)
        model = L.Classifier(L.Linear(4, 3, initialW=r.randn(3, 4).astype('f')))
        opt = chainer.optimizers.MomentumSGD(lr=0.1).setup(model)
        opt.add_hook(chainer.optimizer_hooks.WeightDecay(0.01))
        opt.add_hook(chainer.optimizer_hooks.GradientClipping(0.5))
        x = r.randn(6, 4).astype('f')
        t = r.randint(0, 3, 6).astype('i')
        for _ in range(3):
            opt.update(model, x, t)
        return tuple(p.array for _, p in sorted(model.namedparams()))
    return run, (), {}, NO_GRAD


def case_npz_keys(F, np, rng):
    import io

    import chainer
    import chainer.links as L

    def run():
        model = L.Classifier(chainer.Sequential(L.Linear(4, 5), F.relu, L.Linear(5, 3)))
        opt = chainer.optimizers.Adam().setup(model)
        x = rng.randn(2, 4).astype('f')
        opt.update(model, x, np.array([0, 1], 'i'))
        keys = []
        for obj in (model, opt):
            buf = io.BytesIO()
            chainer.serializers.save_npz(buf, obj)
            buf.seek(0)
            with np.load(buf, allow_pickle=True) as data:
                keys += sorted(data.files)
        return np.array(keys)
    return run, (), {}, NO_GRAD


def case_backprop_accumulates_and_retains(F, np, rng):
    import chainer

    def run(x):
        h = x * 2
        y = F.sum(h * h + h)
        y.backward(retain_grad=True)
        g1 = x.grad.copy()
        F.sum(x * 3).backward()
        return chainer.Variable(g1), chainer.Variable(x.grad), chainer.Variable(h.grad)
    return run, (rng.randn(3).astype('f'),), {}, NO_GRAD


def case_double_backprop(F, np, rng):
    import chainer

    def run(x):
        y = F.sum(F.tanh(x) * x * x)
        gx, = chainer.grad([y], [x], enable_double_backprop=True)
        ggx, = chainer.grad([F.sum(gx)], [x])
        return gx, ggx
    return run, (rng.randn(4).astype('f'),), {}, NO_GRAD


def case_evaluator_and_log(F, np, rng):
    import chainer
    import chainer.links as L
    from chainer import training
    from chainer.training import extensions

    def run():
        r = np.random.RandomState(0)
        model = L.Classifier(L.Linear(4, 3, initialW=r.randn(3, 4).astype('f')))
        x = r.randn(12, 4).astype('f')
        t = r.randint(0, 3, 12).astype('i')
        data = chainer.datasets.TupleDataset(x, t)
        it = chainer.iterators.SerialIterator(data, 4, shuffle=False)
        test_it = chainer.iterators.SerialIterator(data, 5, repeat=False, shuffle=False)
        opt = chainer.optimizers.SGD(0.1).setup(model)
        updater = training.StandardUpdater(it, opt)
        trainer = training.Trainer(updater, (2, 'epoch'), out='/tmp/compat_trainer')
        trainer.extend(extensions.Evaluator(test_it, model))
        log = extensions.LogReport()
        trainer.extend(log)
        trainer.run()
        keys = ['main/loss', 'main/accuracy', 'validation/main/loss',
                'validation/main/accuracy', 'epoch', 'iteration']
        return np.array([[float(entry[k]) for k in keys] for entry in log.log])
    return run, (), {}, NO_GRAD


def case_grad_default_ones_nonscalar(F, np, rng):
    import chainer

    def run(x):
        gx, = chainer.grad([F.tanh(x) * x], [x])
        return gx
    return run, (rng.randn(2, 3).astype('f'),), {}, NO_GRAD


def case_backward_leaf_and_default_outputs(F, np, rng):
    import chainer

    def run(x):
        y = x * 3
        y.grad = np.ones(y.shape, 'f')
        x.grad = np.full(x.shape, 5, 'f')
        chainer.backward([y, x])
        g1 = x.grad.copy()
        chainer.backward([x * 1, x], [chainer.Variable(np.ones(x.shape, 'f')),
                                      chainer.Variable(np.full(x.shape, 2, 'f'))])
        return chainer.Variable(g1), chainer.Variable(x.grad)
    return run, (rng.randn(4).astype('f'),), {}, NO_GRAD


def case_iterate_variable(F, np, rng):
    def run(x):
        a, b, c = x
        return a * 2 + b, c
    return run, (rng.randn(3, 2).astype('f'),), {}
