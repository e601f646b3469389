"""Compatibility cases: noise functions.

Random draws cannot match elementwise between two implementations: each function is
compared in test mode (``config.train`` False), with its noise given explicitly (mask,
eps), or through statistics of its random output that both must satisfy.
"""

NB = {'backward': False}


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def _eval(fn):
    import chainer

    def wrapped(*args, **kwargs):
        with chainer.using_config('train', False):
            return fn(*args, **kwargs)
    return wrapped


def _nonleaf(fn):
    # Test mode returns the input Variable itself (in both): feed a non-leaf so that the
    # function itself is compared, not only the leaf-output rule of chainer.backward.
    def wrapped(*args, **kwargs):
        return fn(*[a * 1 for a in args], **kwargs)
    return wrapped


def _train(fn):
    import chainer

    def wrapped(*args, **kwargs):
        with chainer.using_config('train', True):
            return fn(*args, **kwargs)
    return wrapped


# dropout

def case_dropout_eval(F, np, rng):
    return _nonleaf(_eval(F.dropout)), (_f(rng, 3, 4),), {}


def case_dropout_eval_ratio(F, np, rng):
    return _nonleaf(_eval(F.dropout)), (_f(rng, 3, 4),), {'ratio': 0.2}


def case_dropout_eval_return_mask(F, np, rng):
    def fn(x):
        y, mask = _eval(F.dropout)(x * 1, return_mask=True)
        return y, np.array(mask is None)
    return fn, (_f(rng, 3, 4),), {}, {'outputs': [0]}


def case_dropout_mask(F, np, rng):
    mask = (rng.rand(3, 4) >= 0.5).astype('f') * 2
    return _train(lambda x: F.dropout(x, mask=mask)), (_f(rng, 3, 4),), {}


def case_dropout_mask_ratio_ignored(F, np, rng):
    mask = (rng.rand(3, 4) >= 0.3).astype('f') / 0.7
    return _train(lambda x: F.dropout(x, 0.9, mask=mask)), (_f(rng, 3, 4),), {}


def case_dropout_mask_return(F, np, rng):
    mask = (rng.rand(2, 5) >= 0.5).astype('f') * 2
    return (_train(lambda x: F.dropout(x, mask=mask, return_mask=True)), (_f(rng, 2, 5),),
            {}, {'outputs': [0]})


def case_dropout_mask_eval(F, np, rng):
    # test mode ignores the mask
    mask = (rng.rand(3, 4) >= 0.5).astype('f') * 2
    return _nonleaf(_eval(lambda x: F.dropout(x, mask=mask))), (_f(rng, 3, 4),), {}


def case_dropout_mask_f64(F, np, rng):
    mask = (rng.rand(3, 4) >= 0.5) * 2.
    return _train(lambda x: F.dropout(x, mask=mask)), (_f(rng, 3, 4, dtype='d'),), {}


def case_dropout_train_ratio0(F, np, rng):
    return _train(F.dropout), (_f(rng, 3, 4),), {'ratio': 0.0}


def case_dropout_train_stats(F, np, rng):
    def fn(x):
        y, mask = _train(F.dropout)(x, 0.25, return_mask=True)
        mask = np.asarray(mask)
        kept = mask != 0
        return (np.array([abs(kept.mean() - 0.75) < 0.02,
                          np.allclose(mask[kept], 1 / 0.75),
                          np.array_equal(y.array, x.array * mask)]),
                np.asarray(mask.shape), np.asarray(str(mask.dtype)))
    return fn, (np.ones((100, 100), 'f'),), {}, NB


def case_dropout_train_f16_stats(F, np, rng):
    def fn(x):
        y, mask = _train(F.dropout)(x, return_mask=True)
        return (np.array([y.dtype == np.float16,
                          abs((np.asarray(mask) != 0).mean() - 0.5) < 0.03]),)
    # 10,000 draws: 0.03 is 6 standard deviations (with 2,500 it was 3, so about one run
    # in 370 would fail)
    return fn, (np.ones((100, 100), 'e'),), {}, NB


def case_dropout_train_return_mask_grad(F, np, rng):
    # the gradient is gy * mask, whatever the mask was
    def fn(x):
        import chainer
        y, mask = _train(F.dropout)(x, return_mask=True)
        gx, = chainer.grad([y], [x], [chainer.Variable(np.ones(x.shape, x.dtype))])
        return np.array([np.array_equal(gx.array, np.asarray(mask))])
    return fn, (_f(rng, 10, 10),), {}, NB


def case_dropout_bad_ratio(F, np, rng):
    return _train(F.dropout), (_f(rng, 3, 4),), {'ratio': 1.0}


def case_dropout_bad_kwarg(F, np, rng):
    return _train(F.dropout), (_f(rng, 3, 4),), {'train': True}


# gaussian

def case_gaussian_eps(F, np, rng):
    eps = rng.randn(3, 4).astype('f')
    return ((lambda m, v: F.gaussian(m, v, eps=eps)),
            (_f(rng, 3, 4), _f(rng, 3, 4)), {})


def case_gaussian_eps_return(F, np, rng):
    eps = rng.randn(3, 4).astype('f')
    return ((lambda m, v: F.gaussian(m, v, eps=eps, return_eps=True)),
            (_f(rng, 3, 4), _f(rng, 3, 4)), {}, {'outputs': [0]})


def case_gaussian_eps_eval(F, np, rng):
    eps = rng.randn(3, 4).astype('f')
    return (_eval(lambda m, v: F.gaussian(m, v, eps=eps)),
            (_f(rng, 3, 4), _f(rng, 3, 4)), {})


def case_gaussian_eps_f64(F, np, rng):
    eps = rng.randn(5)
    return ((lambda m, v: F.gaussian(m, v, eps=eps)),
            (_f(rng, 5, dtype='d'), _f(rng, 5, dtype='d')), {})


def case_gaussian_eps_large_var(F, np, rng):
    eps = rng.randn(2, 3).astype('f')
    return ((lambda m, v: F.gaussian(m, v, eps=eps)),
            (_f(rng, 2, 3), (rng.randn(2, 3) * 10).astype('f')), {})


def case_gaussian_eval_stats(F, np, rng):
    # test mode: 7.8.1 draws noise too (or returns the mean): compare which
    def fn(m, v):
        y = _eval(F.gaussian)(m, v)
        return np.array([np.array_equal(y.array, m.array)])
    return fn, (np.zeros((50, 50), 'f'), np.zeros((50, 50), 'f')), {}, NB


def case_gaussian_train_stats(F, np, rng):
    def fn(m, v):
        y, eps = _train(F.gaussian)(m, v, return_eps=True)
        eps = np.asarray(eps)
        expected = m.array + np.exp(v.array / 2) * eps
        return (np.array([abs(eps.mean()) < 0.05, abs(eps.std() - 1) < 0.05,
                          np.allclose(y.array, expected, rtol=1e-5)]),
                np.asarray(str(eps.dtype)), np.asarray(eps.shape))
    m = np.full((100, 100), 1.5, 'f')
    v = np.full((100, 100), np.log(4.), 'f')
    return fn, (m, v), {}, NB


def case_gaussian_bad_shape(F, np, rng):
    return F.gaussian, (_f(rng, 3, 4), _f(rng, 3, 3)), {}


# gumbel_softmax

def case_gumbel_softmax_stats(F, np, rng):
    def fn(x):
        y = F.gumbel_softmax(x, tau=0.5).array
        return (np.array([np.allclose(y.sum(axis=1), 1, atol=1e-5), (y >= 0).all()]),
                np.asarray(y.shape), np.asarray(str(y.dtype)))
    return fn, (_f(rng, 20, 5),), {}, NB


def case_gumbel_softmax_axis_stats(F, np, rng):
    def fn(x):
        y = F.gumbel_softmax(x, tau=1.0, axis=2).array
        return (np.array([np.allclose(y.sum(axis=2), 1, atol=1e-5)]),
                np.asarray(y.shape))
    return fn, (_f(rng, 3, 4, 6),), {}, NB


def case_gumbel_softmax_sampling_stats(F, np, rng):
    # low temperature: near one-hot samples with the categorical frequencies of log_pi
    def fn(x):
        y = F.gumbel_softmax(x, tau=0.01).array
        freq = (y.argmax(axis=1)[:, None] == np.arange(3)).mean(axis=0)
        return np.array([np.abs(freq - [0.2, 0.3, 0.5]).max() < 0.03,
                         (y.max(axis=1) > 0.9).mean() > 0.95])
    log_pi = np.tile(np.log(np.array([[0.2, 0.3, 0.5]], 'f')), (5000, 1))
    return fn, (log_pi,), {}, NB


def case_gumbel_softmax_eval_stats(F, np, rng):
    # does test mode still sample? (compare the answer)
    def fn(x):
        y1 = _eval(F.gumbel_softmax)(x).array
        y2 = _eval(F.gumbel_softmax)(x).array
        return np.array([np.array_equal(y1, y2)])
    return fn, (_f(rng, 10, 5),), {}, NB


def case_gumbel_softmax_grad_stats(F, np, rng):
    # the gradient is that of softmax((x + g) / tau) for the g drawn: it sums to 0
    def fn(x):
        import chainer
        y = F.gumbel_softmax(x, tau=2.0)
        gx, = chainer.grad([y], [x], [chainer.Variable(np.ones(y.shape, y.dtype) * 3)])
        return np.array([np.allclose(gx.array, 0, atol=1e-5)])
    return fn, (_f(rng, 4, 5),), {}, NB


# simplified_dropconnect

def case_simplified_dropconnect_eval(F, np, rng):
    return (lambda x, W, b: F.simplified_dropconnect(x, W, b, train=False)), (
        _f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {}


def case_simplified_dropconnect_eval_ratio(F, np, rng):
    return (lambda x, W, b: F.simplified_dropconnect(x, W, b, ratio=0.3, train=False)), (
        _f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {}


def case_simplified_dropconnect_eval_nobias(F, np, rng):
    return (lambda x, W: F.simplified_dropconnect(x, W, train=False)), (
        _f(rng, 4, 3), _f(rng, 2, 3)), {}


def case_simplified_dropconnect_eval_nd(F, np, rng):
    return (lambda x, W, b: F.simplified_dropconnect(x, W, b, train=False)), (
        _f(rng, 4, 3, 2), _f(rng, 5, 6), _f(rng, 5)), {}


def case_simplified_dropconnect_mask_batchwise(F, np, rng):
    mask = (rng.rand(4, 2, 3) >= 0.5).astype('f')
    return (lambda x, W, b: F.simplified_dropconnect(x, W, b, mask=mask)), (
        _f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {}


def case_simplified_dropconnect_mask_shared(F, np, rng):
    mask = (rng.rand(2, 3) >= 0.5).astype('f')
    return (lambda x, W, b: F.simplified_dropconnect(
        x, W, b, ratio=0.25, mask=mask, use_batchwise_mask=False)), (
        _f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {}


def case_simplified_dropconnect_mask_bool(F, np, rng):
    mask = rng.rand(4, 2, 3) >= 0.5
    return (lambda x, W: F.simplified_dropconnect(x, W, mask=mask)), (
        _f(rng, 4, 3), _f(rng, 2, 3)), {}


def case_simplified_dropconnect_mask_f64(F, np, rng):
    mask = (rng.rand(3, 2, 4) >= 0.5) * 1.
    return (lambda x, W, b: F.simplified_dropconnect(x, W, b, ratio=0.4, mask=mask)), (
        _f(rng, 3, 4, dtype='d'), _f(rng, 2, 4, dtype='d'), _f(rng, 2, dtype='d')), {}


def case_simplified_dropconnect_mask_eval_config(F, np, rng):
    # config.train False does not matter: the train argument decides
    mask = (rng.rand(4, 2, 3) >= 0.5).astype('f')
    return _eval(lambda x, W, b: F.simplified_dropconnect(x, W, b, mask=mask)), (
        _f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {}


def case_simplified_dropconnect_train_stats(F, np, rng):
    def fn(x, W):
        y = F.simplified_dropconnect(x, W, ratio=0.5).array
        # each output is a sum of 10 terms 2 * w * x kept with probability 1/2: mean 10,
        # variance 10, so the mean of 6000 outputs is 10 within 0.3 (7 standard
        # deviations; with 600 outputs it was 2.3, about one run in 50 failing, and
        # one did)
        return (np.array([abs(y.mean() - 10.) < 0.3, y.shape == (2000, 3)]),)
    return fn, (np.ones((2000, 10), 'f'), np.ones((3, 10), 'f')), {}, NB


# zoneout

def case_zoneout_eval(F, np, rng):
    return _nonleaf(_eval(F.zoneout)), (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_zoneout_eval_ratio(F, np, rng):
    return _nonleaf(_eval(F.zoneout)), (_f(rng, 3, 4), _f(rng, 3, 4)), {'ratio': 0.2}


def case_zoneout_train_ratio0(F, np, rng):
    return _train(F.zoneout), (_f(rng, 3, 4), _f(rng, 3, 4)), {'ratio': 0.0}


def case_zoneout_train_ratio1(F, np, rng):
    return _train(F.zoneout), (_f(rng, 3, 4), _f(rng, 3, 4)), {'ratio': 1.0}


def case_zoneout_train_stats(F, np, rng):
    def fn(h, x):
        import chainer
        y = _train(F.zoneout)(h, x, 0.3)
        from_h = y.array == h.array
        from_x = y.array == x.array
        gh, gx = chainer.grad([y], [h, x], [chainer.Variable(np.ones(y.shape, y.dtype))])
        return np.array([(from_h ^ from_x).all(), abs(from_h.mean() - 0.3) < 0.03,
                         np.array_equal(gh.array, from_h.astype('f')),
                         np.array_equal(gx.array, from_x.astype('f'))])
    return fn, (np.zeros((100, 100), 'f'), np.ones((100, 100), 'f')), {}, NB


# Both raise: 7.8.1 numpy's broadcast ValueError, ours InvalidType (Zoneout type check).
def case_zoneout_bad_shape(F, np, rng):
    return _train(F.zoneout), (_f(rng, 3, 4), _f(rng, 3, 3)), {}


# second order: the output is the (differentiable) gradient

def _grad_of(np, fn, n_in=1):
    import chainer

    def wrapped(*xs):
        ys = fn(*xs)
        ys = ys if isinstance(ys, tuple) else (ys,)
        grng = np.random.RandomState(2)
        gys = [chainer.Variable(grng.uniform(-1, 1, y.shape).astype(y.dtype)) for y in ys]
        return chainer.grad(list(ys), list(xs[:n_in]), gys, enable_double_backprop=True)
    return wrapped


def case_dbl_gaussian_eps(F, np, rng):
    eps = rng.randn(3, 4).astype('f')
    return (_grad_of(np, lambda m, v: F.gaussian(m, v, eps=eps) ** 2, 2),
            (_f(rng, 3, 4), _f(rng, 3, 4)), {})


def case_dbl_dropout_mask(F, np, rng):
    mask = (rng.rand(3, 4) >= 0.5).astype('f') * 2
    return (_train(_grad_of(np, lambda x: F.dropout(x, mask=mask) ** 2)), (_f(rng, 3, 4),), {})


def case_dbl_simplified_dropconnect_mask(F, np, rng):
    mask = (rng.rand(4, 2, 3) >= 0.5).astype('f')
    return (_grad_of(np, lambda x, W, b: F.simplified_dropconnect(x, W, b, mask=mask) ** 2, 3),
            (_f(rng, 4, 3), _f(rng, 2, 3), _f(rng, 2)), {})


def case_dbl_simplified_dropconnect_eval(F, np, rng):
    return (_grad_of(np, lambda x, W: F.simplified_dropconnect(x, W, train=False) ** 2, 2),
            (_f(rng, 4, 3), _f(rng, 2, 3)), {})
