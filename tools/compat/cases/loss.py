"""Compatibility cases: loss functions."""


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def _i(rng, n, *shape):
    return rng.randint(0, n, shape).astype('i')


# ------------------------------------------------------------ elementwise errors

def case_absolute_error(F, np, rng):
    return F.absolute_error, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_absolute_error_f16(F, np, rng):
    return F.absolute_error, (_f(rng, 3, 4, dtype='e'), _f(rng, 3, 4, dtype='e')), {}


def case_absolute_error_tie(F, np, rng):
    x = _f(rng, 3, 4)
    return F.absolute_error, (x, x.copy()), {}


def case_squared_error(F, np, rng):
    return F.squared_error, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_squared_error_f64(F, np, rng):
    return F.squared_error, (_f(rng, 2, 3, 4, dtype='d'), _f(rng, 2, 3, 4, dtype='d')), {}


def case_mean_squared_error(F, np, rng):
    return F.mean_squared_error, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_mean_squared_error_f16(F, np, rng):
    return F.mean_squared_error, (_f(rng, 3, 4, dtype='e'), _f(rng, 3, 4, dtype='e')), {}


def case_mean_squared_error_shape(F, np, rng):
    return F.mean_squared_error, (_f(rng, 3, 4), _f(rng, 4)), {}


def case_mean_absolute_error(F, np, rng):
    return F.mean_absolute_error, (_f(rng, 3, 4), _f(rng, 3, 4)), {}


def case_mean_absolute_error_f64(F, np, rng):
    return F.mean_absolute_error, (_f(rng, 5, dtype='d'), _f(rng, 5, dtype='d')), {}


def case_mean_absolute_error_f16(F, np, rng):
    return F.mean_absolute_error, (_f(rng, 3, 4, dtype='e'), _f(rng, 3, 4, dtype='e')), {}


def case_mean_absolute_error_tie(F, np, rng):
    x = _f(rng, 3, 4)
    return F.mean_absolute_error, (x, x.copy()), {}


def case_huber_loss(F, np, rng):
    return F.huber_loss, (_f(rng, 4, 5) * 2, _f(rng, 4, 5)), {'delta': 1.0}


def case_huber_loss_no(F, np, rng):
    return F.huber_loss, (_f(rng, 4, 5) * 2, _f(rng, 4, 5)), {'delta': 0.5, 'reduce': 'no'}


def case_huber_loss_3d(F, np, rng):
    return F.huber_loss, (_f(rng, 2, 3, 4) * 2, _f(rng, 2, 3, 4)), {'delta': 1.5}


def case_huber_loss_1d(F, np, rng):
    return F.huber_loss, (_f(rng, 5), _f(rng, 5)), {'delta': 1.0}


def case_huber_loss_boundary(F, np, rng):
    x = np.array([[0.0, 1.0, -1.0, 2.0]], 'f')
    return F.huber_loss, (x, np.zeros_like(x)), {'delta': 1.0, 'reduce': 'no'}


def case_huber_loss_f16(F, np, rng):
    return F.huber_loss, (_f(rng, 4, 5, dtype='e'), _f(rng, 4, 5, dtype='e')), {'delta': 1.0}


def case_huber_loss_bad_reduce(F, np, rng):
    return F.huber_loss, (_f(rng, 4, 5), _f(rng, 4, 5)), {'delta': 1.0, 'reduce': 'mean'}


# ------------------------------------------------------------------- classification

def case_softmax_cross_entropy(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 5, 4), _i(rng, 4, 5)), {}


def case_softmax_cross_entropy_ignore(F, np, rng):
    t = _i(rng, 4, 6)
    t[[1, 4]] = -1
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {}


def case_softmax_cross_entropy_ignore_other(F, np, rng):
    t = _i(rng, 4, 6)
    t[[0, 2]] = 3
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'ignore_label': 3}


def case_softmax_cross_entropy_all_ignored(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 3, 4), np.full(3, -1, 'i')), {}


def case_softmax_cross_entropy_all_ignored_nonorm(F, np, rng):
    return (F.softmax_cross_entropy, (_f(rng, 3, 4), np.full(3, -1, 'i')),
            {'normalize': False})


def case_softmax_cross_entropy_no_normalize(F, np, rng):
    t = _i(rng, 4, 6)
    t[2] = -1
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'normalize': False}


def case_softmax_cross_entropy_reduce_no(F, np, rng):
    t = _i(rng, 4, 6)
    t[2] = -1
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'reduce': 'no'}


def case_softmax_cross_entropy_class_weight(F, np, rng):
    t = _i(rng, 4, 6)
    t[1] = -1
    w = rng.rand(4).astype('f')
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'class_weight': w}


def case_softmax_cross_entropy_class_weight_no(F, np, rng):
    t = _i(rng, 4, 6)
    t[1] = -1
    w = rng.rand(4).astype('f')
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'class_weight': w, 'reduce': 'no'}


def case_softmax_cross_entropy_class_weight_nonorm(F, np, rng):
    t = _i(rng, 4, 6)
    w = rng.rand(4).astype('f')
    return F.softmax_cross_entropy, (_f(rng, 6, 4), t), {'class_weight': w,
                                                         'normalize': False}


def case_softmax_cross_entropy_nd(F, np, rng):
    t = _i(rng, 3, 2, 4, 5)
    t[0, 1, 2] = -1
    return F.softmax_cross_entropy, (_f(rng, 2, 3, 4, 5), t), {}


def case_softmax_cross_entropy_nd_no(F, np, rng):
    t = _i(rng, 3, 2, 4)
    t[1, 1] = -1
    return F.softmax_cross_entropy, (_f(rng, 2, 3, 4), t), {'reduce': 'no'}


def case_softmax_cross_entropy_nd_nonorm(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 2, 3, 4), _i(rng, 3, 2, 4)), {'normalize': False}


def case_softmax_cross_entropy_nd_class_weight(F, np, rng):
    w = rng.rand(3).astype('f')
    return (F.softmax_cross_entropy, (_f(rng, 2, 3, 4), _i(rng, 3, 2, 4)),
            {'class_weight': w})


def case_softmax_cross_entropy_no_cache(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 5, 4), _i(rng, 4, 5)), {'cache_score': False}


def case_softmax_cross_entropy_double(F, np, rng):
    t = _i(rng, 4, 6)
    t[0] = -1
    return (F.softmax_cross_entropy, (_f(rng, 6, 4), t),
            {'enable_double_backprop': True, 'class_weight': rng.rand(4).astype('f')})


def case_softmax_cross_entropy_double_no(F, np, rng):
    t = _i(rng, 4, 6)
    t[0] = -1
    return (F.softmax_cross_entropy, (_f(rng, 6, 4), t),
            {'enable_double_backprop': True, 'reduce': 'no'})


def case_softmax_cross_entropy_f16(F, np, rng):
    # gx: 1.5e-5 apart (float16 rounding of values ~0.1)
    return F.softmax_cross_entropy, (_f(rng, 5, 4, dtype='e'), _i(rng, 4, 5)), {}


def case_softmax_cross_entropy_f64(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 5, 4, dtype='d'), _i(rng, 4, 5)), {}


def case_softmax_cross_entropy_large(F, np, rng):
    x = _f(rng, 4, 3) * 1000
    return F.softmax_cross_entropy, (x, _i(rng, 3, 4)), {}


def case_softmax_cross_entropy_int64(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 5, 4), _i(rng, 4, 5).astype('q')), {}


def case_softmax_cross_entropy_bad_label(F, np, rng):
    t = _i(rng, 4, 5)
    t[0] = 7
    return F.softmax_cross_entropy, (_f(rng, 5, 4), t), {}


def case_softmax_cross_entropy_soft(F, np, rng):
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return (lambda x: F.softmax_cross_entropy(x, t)), (_f(rng, 5, 4),), {}


def case_softmax_cross_entropy_soft_no(F, np, rng):
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return (lambda x: F.softmax_cross_entropy(x, t, reduce='no')), (_f(rng, 5, 4),), {}


def case_softmax_cross_entropy_soft_kl(F, np, rng):
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    t[0] = [1, 0, 0, 0]
    return ((lambda x: F.softmax_cross_entropy(x, t, soft_target_loss='kl-divergence')),
            (_f(rng, 5, 4),), {})


def case_softmax_cross_entropy_soft_kl_no(F, np, rng):
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return ((lambda x: F.softmax_cross_entropy(x, t, soft_target_loss='kl-divergence',
                                               reduce='no')),
            (_f(rng, 5, 4),), {})


def case_softmax_cross_entropy_soft_nd(F, np, rng):
    t = rng.rand(2, 3, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return (lambda x: F.softmax_cross_entropy(x, t)), (_f(rng, 2, 3, 4),), {}


def case_softmax_cross_entropy_soft_nonorm(F, np, rng):
    t = rng.rand(2, 3, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return (lambda x: F.softmax_cross_entropy(x, t, normalize=False)), (_f(rng, 2, 3, 4),), {}


def case_softmax_cross_entropy_soft_class_weight(F, np, rng):
    # 7.8.1 silently ignores class_weight with soft targets; ours multiplies it to the
    # log-softmax as documented ("w[i] is multiplied to y[:, i]"): kept
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    w = rng.rand(4).astype('f')
    return (lambda x: F.softmax_cross_entropy(x, t, class_weight=w)), (_f(rng, 5, 4),), {}


def case_softmax_cross_entropy_soft_f64_target(F, np, rng):
    # float64 soft targets for float32 logits: 7.8.1 returns a float64 loss and its
    # backward then fails (grad dtype mismatch); ours casts t to x's dtype: kept
    t = rng.rand(5, 4)
    t /= t.sum(1, keepdims=True)
    return (lambda x: F.softmax_cross_entropy(x, t)), (_f(rng, 5, 4),), {}, {'backward': False}


def case_softmax_cross_entropy_soft_double(F, np, rng):
    # 7.8.1 cannot build the double-backprop loss for soft targets (InvalidType in
    # SelectItem); ours can: kept
    t = rng.rand(5, 4).astype('f')
    t /= t.sum(1, keepdims=True)
    return ((lambda x: F.softmax_cross_entropy(x, t, enable_double_backprop=True)),
            (_f(rng, 5, 4),), {})


def case_softmax_cross_entropy_bad_reduce(F, np, rng):
    return F.softmax_cross_entropy, (_f(rng, 5, 4), _i(rng, 4, 5)), {'reduce': 'sum'}


def case_sigmoid_cross_entropy(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3), _i(rng, 2, 4, 3)), {}


def case_sigmoid_cross_entropy_ignore(F, np, rng):
    t = _i(rng, 2, 4, 3)
    t[0, 1] = t[2, 2] = -1
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3), t), {}


def case_sigmoid_cross_entropy_nonorm(F, np, rng):
    t = _i(rng, 2, 4, 3)
    t[0, 1] = -1
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3), t), {'normalize': False}


def case_sigmoid_cross_entropy_no(F, np, rng):
    t = _i(rng, 2, 4, 3)
    t[0, 1] = -1
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3), t), {'reduce': 'no'}


def case_sigmoid_cross_entropy_all_ignored(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 2, 3), np.full((2, 3), -1, 'i')), {}


def case_sigmoid_cross_entropy_large(F, np, rng):
    x = np.array([[-200.0, 200.0, 0.0], [50.0, -50.0, 1.0]], 'f')
    return F.sigmoid_cross_entropy, (x, np.array([[1, 0, 1], [0, 1, 0]], 'i')), {}


def case_sigmoid_cross_entropy_1d(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 5), _i(rng, 2, 5)), {}


def case_sigmoid_cross_entropy_3d(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 2, 3, 4), _i(rng, 2, 2, 3, 4)), {}


def case_sigmoid_cross_entropy_f16(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3, dtype='e'), _i(rng, 2, 4, 3)), {}


def case_sigmoid_cross_entropy_f64(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3, dtype='d'), _i(rng, 2, 4, 3)), {}


def case_hinge_l1(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5)), {}


def case_hinge_l2(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5)), {'norm': 'L2'}


def case_hinge_no(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5)), {'reduce': 'no'}


def case_hinge_l2_no(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5)), {'norm': 'L2', 'reduce': 'no'}


def case_hinge_f64(F, np, rng):
    return F.hinge, (_f(rng, 5, 4, dtype='d'), _i(rng, 4, 5)), {}


def case_hinge_boundary(F, np, rng):
    x = np.array([[1.0, -1.0, 0.0], [0.5, 1.0, -1.0]], 'f')
    return F.hinge, (x, np.array([0, 1], 'i')), {'reduce': 'no'}


def case_hinge_bad_norm(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5)), {'norm': 'L3'}


# ----------------------------------------------------------------- metric learning

def case_contrastive(F, np, rng):
    return F.contrastive, (_f(rng, 5, 3), _f(rng, 5, 3), _i(rng, 2, 5)), {}


def case_contrastive_margin(F, np, rng):
    return F.contrastive, (_f(rng, 5, 3), _f(rng, 5, 3), _i(rng, 2, 5)), {'margin': 3.0}


def case_contrastive_no(F, np, rng):
    return (F.contrastive, (_f(rng, 5, 3), _f(rng, 5, 3), _i(rng, 2, 5)),
            {'margin': 2.5, 'reduce': 'no'})


def case_contrastive_f64(F, np, rng):
    return F.contrastive, (_f(rng, 4, 2, dtype='d'), _f(rng, 4, 2, dtype='d'),
                           np.array([0, 1, 0, 1], 'i')), {'margin': 2}


def case_triplet(F, np, rng):
    return F.triplet, (_f(rng, 5, 3), _f(rng, 5, 3), _f(rng, 5, 3)), {}


def case_triplet_margin_no(F, np, rng):
    return F.triplet, (_f(rng, 5, 3), _f(rng, 5, 3), _f(rng, 5, 3)), {'margin': 1.0,
                                                                      'reduce': 'no'}


def case_triplet_f64(F, np, rng):
    return F.triplet, (_f(rng, 4, 2, dtype='d'), _f(rng, 4, 2, dtype='d'),
                       _f(rng, 4, 2, dtype='d')), {'margin': 2.0}


def case_triplet_3d(F, np, rng):
    # documented shape (N, K); 7.8.1 also takes more axes (summing the distance over axis
    # 1 only, the mean dividing by N); ours raises InvalidType: kept
    return F.triplet, (_f(rng, 4, 2, 3), _f(rng, 4, 2, 3), _f(rng, 4, 2, 3)), {}


def case_cross_covariance(F, np, rng):
    return F.cross_covariance, (_f(rng, 5, 3), _f(rng, 5, 4)), {}


def case_cross_covariance_no(F, np, rng):
    return F.cross_covariance, (_f(rng, 5, 3), _f(rng, 5, 4)), {'reduce': 'no'}


def case_cross_covariance_f64(F, np, rng):
    return F.cross_covariance, (_f(rng, 5, 3, dtype='d'), _f(rng, 5, 2, dtype='d')), {}


def case_decov(F, np, rng):
    return F.decov, (_f(rng, 6, 4),), {}


def case_decov_no(F, np, rng):
    return F.decov, (_f(rng, 6, 4),), {'reduce': 'no'}


def case_decov_f64(F, np, rng):
    return F.decov, (_f(rng, 6, 3, dtype='d'),), {}


# ----------------------------------------------------------------------------- VAE

def case_gaussian_kl_divergence(F, np, rng):
    return F.gaussian_kl_divergence, (_f(rng, 4, 3), _f(rng, 4, 3)), {}


def case_gaussian_kl_divergence_mean(F, np, rng):
    return F.gaussian_kl_divergence, (_f(rng, 4, 3), _f(rng, 4, 3)), {'reduce': 'mean'}


def case_gaussian_kl_divergence_no(F, np, rng):
    return F.gaussian_kl_divergence, (_f(rng, 4, 3), _f(rng, 4, 3)), {'reduce': 'no'}


def case_gaussian_nll(F, np, rng):
    return F.gaussian_nll, (_f(rng, 4, 3), _f(rng, 4, 3), _f(rng, 4, 3)), {}


def case_gaussian_nll_mean(F, np, rng):
    return F.gaussian_nll, (_f(rng, 4, 3), _f(rng, 4, 3), _f(rng, 4, 3)), {'reduce': 'mean'}


def case_gaussian_nll_no(F, np, rng):
    return F.gaussian_nll, (_f(rng, 4, 3), _f(rng, 4, 3), _f(rng, 4, 3)), {'reduce': 'no'}


def case_gaussian_nll_f64(F, np, rng):
    return F.gaussian_nll, (_f(rng, 4, dtype='d'), _f(rng, 4, dtype='d'),
                            _f(rng, 4, dtype='d')), {}


def case_bernoulli_nll(F, np, rng):
    return F.bernoulli_nll, (rng.rand(4, 3).astype('f'), _f(rng, 4, 3)), {}


def case_bernoulli_nll_mean(F, np, rng):
    return F.bernoulli_nll, (rng.rand(4, 3).astype('f'), _f(rng, 4, 3)), {'reduce': 'mean'}


def case_bernoulli_nll_no(F, np, rng):
    return F.bernoulli_nll, (rng.rand(4, 3).astype('f'), _f(rng, 4, 3)), {'reduce': 'no'}


def case_bernoulli_nll_large(F, np, rng):
    return F.bernoulli_nll, (np.array([0, 1, 0.5], 'f'), np.array([-100, 100, 30], 'f')), {}


def case_vae_bad_reduce(F, np, rng):
    return F.gaussian_kl_divergence, (_f(rng, 4, 3), _f(rng, 4, 3)), {'reduce': 'half'}


# ------------------------------------------------------------------------ sampling

def case_black_out(F, np, rng):
    samples = _i(rng, 6, 4, 3)
    return F.black_out, (_f(rng, 4, 5), _i(rng, 6, 4), _f(rng, 6, 5), samples), {}


def case_black_out_no(F, np, rng):
    samples = _i(rng, 6, 4, 3)
    return (F.black_out, (_f(rng, 4, 5), _i(rng, 6, 4), _f(rng, 6, 5), samples),
            {'reduce': 'no'})


def _sampler(np, n):
    fixed = np.random.RandomState(5)

    def sample(shape):
        return fixed.randint(0, n, shape).astype('i')
    return sample


def case_negative_sampling(F, np, rng):
    x, t, W = _f(rng, 4, 3), _i(rng, 6, 4), _f(rng, 6, 3)
    return (lambda x, W: F.negative_sampling(x, t, W, _sampler(np, 6), 2)), (x, W), {}


def case_negative_sampling_no(F, np, rng):
    x, t, W = _f(rng, 4, 3), _i(rng, 6, 4), _f(rng, 6, 3)
    return ((lambda x, W: F.negative_sampling(x, t, W, _sampler(np, 6), 3, reduce='no')),
            (x, W), {})


def case_negative_sampling_ignore(F, np, rng):
    x, t, W = _f(rng, 4, 3), _i(rng, 6, 4), _f(rng, 6, 3)
    t[1] = -1
    return (lambda x, W: F.negative_sampling(x, t, W, _sampler(np, 6), 2)), (x, W), {}


def case_negative_sampling_return_samples(F, np, rng):
    x, t, W = _f(rng, 4, 3), _i(rng, 6, 4), _f(rng, 6, 3)

    def fn(x, W):
        loss, samples = F.negative_sampling(x, t, W, _sampler(np, 6), 2, return_samples=True)
        return loss, samples
    return fn, (x, W), {}


# ------------------------------------------------------------------------ sequences

def _ctc(F, **kw):
    def fn(x, t):
        return F.connectionist_temporal_classification(list(F.separate(x, axis=0)), t, 0,
                                                       **kw)
    return fn


def case_ctc(F, np, rng):
    t = np.array([[1, 2], [2, 3]], 'i')
    return _ctc(F), (_f(rng, 5, 2, 4), t), {}


def case_ctc_repeat(F, np, rng):
    t = np.array([[1, 1, 2], [3, 3, 3]], 'i')
    return _ctc(F), (_f(rng, 8, 2, 4), t), {}


def case_ctc_no(F, np, rng):
    t = np.array([[1, 2], [2, 3]], 'i')
    return _ctc(F, reduce='no'), (_f(rng, 5, 2, 4), t), {}


def case_ctc_lengths(F, np, rng):
    t = np.array([[1, 2, 0], [2, 3, 1], [1, 0, 0]], 'i')
    kw = {'input_length': np.array([6, 5, 3], 'i'), 'label_length': np.array([2, 3, 1], 'i')}
    return _ctc(F, **kw), (_f(rng, 6, 3, 5), t), {}


def case_ctc_lengths_no(F, np, rng):
    t = np.array([[1, 2, 0], [2, 3, 1], [1, 0, 0]], 'i')
    kw = {'input_length': np.array([6, 5, 3], 'i'), 'label_length': np.array([2, 3, 1], 'i'),
          'reduce': 'no'}
    return _ctc(F, **kw), (_f(rng, 6, 3, 5), t), {}


def case_ctc_f64(F, np, rng):
    t = np.array([[1, 2], [2, 3]], 'i')
    return _ctc(F), (_f(rng, 5, 2, 4, dtype='d'), t), {}


def case_ctc_blank_last(F, np, rng):
    t = np.array([[0, 1], [2, 2]], 'i')

    def fn(x, t):
        return F.connectionist_temporal_classification(list(F.separate(x, axis=0)), t, 3)
    return fn, (_f(rng, 5, 2, 4), t), {}


def case_ctc_impossible(F, np, rng):
    # the input is too short for the labels: ours gives the exact loss, inf, with zero
    # gradients; 7.8.1 a finite 1e10 (its log-space stand-in for log 0) with arbitrary
    # gradients: kept
    t = np.array([[1, 1, 1]], 'i')
    return _ctc(F), (_f(rng, 3, 1, 3), t), {}


def case_ctc_array_input(F, np, rng):
    t = np.array([[1, 2], [2, 3]], 'i')

    def fn(x, t):
        return F.connectionist_temporal_classification(x, t, 0)
    return fn, (_f(rng, 5, 2, 4), t), {}


def _crf(F, fn_name='crf1d', **kw):
    def fn(cost, x, *ys):
        xs = list(F.separate(x, axis=0))
        return getattr(F, fn_name)(cost, xs, list(ys), **kw)
    return fn


def case_crf1d(F, np, rng):
    ys = [_i(rng, 3, 2) for _ in range(4)]
    return _crf(F), (_f(rng, 3, 3), _f(rng, 4, 2, 3), *ys), {}


def case_crf1d_no(F, np, rng):
    ys = [_i(rng, 3, 2) for _ in range(4)]
    return _crf(F, reduce='no'), (_f(rng, 3, 3), _f(rng, 4, 2, 3), *ys), {}


def case_crf1d_f64(F, np, rng):
    ys = [_i(rng, 4, 3) for _ in range(3)]
    return _crf(F), (_f(rng, 4, 4, dtype='d'), _f(rng, 3, 3, 4, dtype='d'), *ys), {}


def case_crf1d_variable_length(F, np, rng):
    # batch sizes decrease along time: 3, 3, 2, 1
    def fn(cost, x0, x1, x2, x3):
        xs = [x0, x1, x2, x3]
        ys = [np.array([0, 1, 2], 'i'), np.array([2, 1, 0], 'i'), np.array([1, 1], 'i'),
              np.array([2], 'i')]
        return F.crf1d(cost, xs, ys)
    return fn, (_f(rng, 3, 3), _f(rng, 3, 3), _f(rng, 3, 3), _f(rng, 2, 3), _f(rng, 1, 3)), {}


def case_crf1d_variable_length_no(F, np, rng):
    def fn(cost, x0, x1, x2):
        xs = [x0, x1, x2]
        ys = [np.array([0, 1, 2], 'i'), np.array([2, 1], 'i'), np.array([1], 'i')]
        return F.crf1d(cost, xs, ys, reduce='no')
    return fn, (_f(rng, 3, 3), _f(rng, 3, 3), _f(rng, 2, 3), _f(rng, 1, 3)), {}


def case_argmax_crf1d(F, np, rng):
    def fn(cost, x):
        score, path = F.argmax_crf1d(cost, list(F.separate(x, axis=0)))
        return (score,) + tuple(path)
    return fn, (_f(rng, 3, 3), _f(rng, 4, 2, 3)), {}


def case_argmax_crf1d_variable_length(F, np, rng):
    def fn(cost, x0, x1, x2):
        score, path = F.argmax_crf1d(cost, [x0, x1, x2])
        return (score,) + tuple(path)
    return fn, (_f(rng, 3, 3), _f(rng, 3, 3), _f(rng, 2, 3), _f(rng, 1, 3)), {}


# ----------------------------------------------------------------------- clustering

# 7.8.1 broadcasts the embeddings to (batch, batch, ...) where it means
# (max_embedding_dim, batch, ...): it only runs when the batch size equals
# max_embedding_dim (InvalidType "cannot broadcast" otherwise). Ours runs any batch size
# (discriminative_loss_batch2): kept; the other cases use batch == max_embedding_dim.

def case_discriminative_loss_batch2(F, np, rng):
    emb = _f(rng, 2, 3, 4, 4)
    labels = _i(rng, 4, 2, 4, 4)
    return ((lambda e: F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 3)),
            (emb,), {})


def case_discriminative_loss(F, np, rng):
    emb = _f(rng, 3, 3, 4, 4)
    labels = _i(rng, 4, 3, 4, 4)
    return ((lambda e: F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 3)),
            (emb,), {})


def case_discriminative_loss_l2(F, np, rng):
    # norm=2: 7.8.1's variance-term gradient is NaN everywhere (the L2 norm's gradient at
    # the zero vectors of masked-out pixels); ours is finite (a safe sqrt): kept. The
    # outputs agree.
    emb = _f(rng, 3, 3, 4, 4)
    labels = _i(rng, 4, 3, 4, 4)
    return ((lambda e: F.discriminative_margin_based_clustering_loss(
        e, labels, 0.2, 1.0, 3, norm=2, alpha=0.5, beta=2.0, gamma=0.01)), (emb,), {})


def case_discriminative_loss_2d(F, np, rng):
    # norm=2: NaN gradient in 7.8.1, see discriminative_loss_l2
    emb = _f(rng, 2, 2, 5, 3)
    labels = _i(rng, 3, 2, 5, 3)
    return ((lambda e: F.discriminative_margin_based_clustering_loss(
        e, labels, 0.1, 0.8, 2, norm=2, gamma=0.1)), (emb,), {})


def case_discriminative_loss_empty_instance(F, np, rng):
    emb = _f(rng, 3, 3, 4, 4)
    labels = _i(rng, 2, 3, 4, 4)  # instance 3 never appears
    return ((lambda e: F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 3)),
            (emb,), {})


def case_discriminative_loss_fewer_dims(F, np, rng):
    emb = _f(rng, 2, 4, 3, 3)
    labels = _i(rng, 4, 2, 3, 3)
    return ((lambda e: F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 2)),
            (emb,), {})


def case_discriminative_loss_one_cluster(F, np, rng):
    emb = _f(rng, 1, 2, 3, 3)
    labels = np.zeros((1, 3, 3), 'i')
    return ((lambda e: F.discriminative_margin_based_clustering_loss(e, labels, 0.5, 1.5, 1)),
            (emb,), {})


# ---------------------------------------------------------------- label dtypes, edges

def case_sigmoid_cross_entropy_int64(F, np, rng):
    return F.sigmoid_cross_entropy, (_f(rng, 4, 3), _i(rng, 2, 4, 3).astype('q')), {}


def case_hinge_int64(F, np, rng):
    return F.hinge, (_f(rng, 5, 4), _i(rng, 4, 5).astype('q')), {}


def case_contrastive_int64(F, np, rng):
    return F.contrastive, (_f(rng, 5, 3), _f(rng, 5, 3), _i(rng, 2, 5).astype('q')), {}


def case_contrastive_equal(F, np, rng):
    x = _f(rng, 3, 2)
    return F.contrastive, (x, x.copy(), np.array([1, 0, 1], 'i')), {}


def case_huber_loss_large_delta(F, np, rng):
    return F.huber_loss, (_f(rng, 3, 4), _f(rng, 3, 4)), {'delta': 10.0}


def case_triplet_zero_margin(F, np, rng):
    return F.triplet, (_f(rng, 5, 3), _f(rng, 5, 3), _f(rng, 5, 3)), {'margin': 0.0}


def case_black_out_f64(F, np, rng):
    samples = _i(rng, 6, 4, 2)
    return (F.black_out, (_f(rng, 4, 5, dtype='d'), _i(rng, 6, 4), _f(rng, 6, 5, dtype='d'),
                          samples), {})


def case_gaussian_kl_divergence_f64(F, np, rng):
    return F.gaussian_kl_divergence, (_f(rng, 4, dtype='d'), _f(rng, 4, dtype='d')), {}


def case_bernoulli_nll_f16(F, np, rng):
    # gx: one float16 ulp apart (float rounding)
    return F.bernoulli_nll, (rng.rand(4, 3).astype('e'), _f(rng, 4, 3, dtype='e')), {}


def case_cross_covariance_f16(F, np, rng):
    # float16 rounding; ours is the closer to the exact value on these inputs
    return F.cross_covariance, (_f(rng, 5, 3, dtype='e'), _f(rng, 5, 2, dtype='e')), {}


def case_decov_3d(F, np, rng):
    return F.decov, (_f(rng, 4, 3, 2),), {}


# ---------------------------------------------- second order: the gradient, differentiated

def _gg(F, fn):
    import chainer

    def g(x):
        y = fn(x)
        w = np.linspace(0.5, 1.5, y.size).reshape(y.shape).astype(y.dtype)  # noqa: F821
        return chainer.grad([F.sum(y * y * w)], [x], enable_double_backprop=True)[0]
    return g


def case_dd_softmax_cross_entropy(F, np, rng):
    globals()['np'] = np
    t = _i(rng, 4, 6)
    t[1] = -1
    w = rng.rand(4).astype('f')
    return _gg(F, lambda x: F.softmax_cross_entropy(x, t, class_weight=w,
                                                    enable_double_backprop=True)), \
        (_f(rng, 6, 4),), {}


def case_dd_softmax_cross_entropy_no(F, np, rng):
    globals()['np'] = np
    t = _i(rng, 3, 2, 4)
    return _gg(F, lambda x: F.softmax_cross_entropy(x, t, reduce='no',
                                                    enable_double_backprop=True)), \
        (_f(rng, 2, 3, 4),), {}


def case_dd_sigmoid_cross_entropy(F, np, rng):
    globals()['np'] = np
    t = _i(rng, 2, 4, 3)
    t[0, 0] = -1
    return _gg(F, lambda x: F.sigmoid_cross_entropy(x, t)), (_f(rng, 4, 3),), {}


def case_dd_sigmoid_cross_entropy_no(F, np, rng):
    globals()['np'] = np
    t = _i(rng, 2, 4, 3)
    return _gg(F, lambda x: F.sigmoid_cross_entropy(x, t, reduce='no')), (_f(rng, 4, 3),), {}


def case_dd_huber_loss(F, np, rng):
    globals()['np'] = np
    t = _f(rng, 4, 5)
    return _gg(F, lambda x: F.huber_loss(x, t, 1.0)), (_f(rng, 4, 5) * 2,), {}


def case_dd_hinge(F, np, rng):
    # 7.8.1: old-style Function, cannot twice-differentiate; ours can: kept
    globals()['np'] = np
    t = _i(rng, 4, 5)
    return _gg(F, lambda x: F.hinge(x, t, norm='L2')), (_f(rng, 5, 4),), {}


def case_dd_contrastive(F, np, rng):
    globals()['np'] = np
    x1, y = _f(rng, 5, 3), _i(rng, 2, 5)
    return _gg(F, lambda x: F.contrastive(x, x1, y, margin=2.0)), (_f(rng, 5, 3),), {}


def case_dd_triplet(F, np, rng):
    globals()['np'] = np
    p, n = _f(rng, 5, 3), _f(rng, 5, 3)
    return _gg(F, lambda a: F.triplet(a, p, n, margin=1.0)), (_f(rng, 5, 3),), {}


def case_dd_mean_squared_error(F, np, rng):
    globals()['np'] = np
    t = _f(rng, 3, 4)
    return _gg(F, lambda x: F.mean_squared_error(x, t)), (_f(rng, 3, 4),), {}


def case_dd_mean_absolute_error(F, np, rng):
    globals()['np'] = np
    t = _f(rng, 3, 4)
    return _gg(F, lambda x: F.mean_absolute_error(x, t) * F.sum(x)), (_f(rng, 3, 4),), {}


def case_dd_squared_error(F, np, rng):
    globals()['np'] = np
    t = _f(rng, 3, 4)
    return _gg(F, lambda x: F.squared_error(x, t)), (_f(rng, 3, 4),), {}


def case_dd_absolute_error(F, np, rng):
    globals()['np'] = np
    t = _f(rng, 3, 4)
    return _gg(F, lambda x: F.absolute_error(x, t) * x), (_f(rng, 3, 4),), {}


def case_dd_gaussian_nll(F, np, rng):
    globals()['np'] = np
    x, m = _f(rng, 4, 3), _f(rng, 4, 3)
    return _gg(F, lambda v: F.gaussian_nll(x, m, v)), (_f(rng, 4, 3),), {}


def case_dd_gaussian_kl_divergence(F, np, rng):
    globals()['np'] = np
    v = _f(rng, 4, 3)
    return _gg(F, lambda m: F.gaussian_kl_divergence(m, v) * F.sum(m)), (_f(rng, 4, 3),), {}


def case_dd_bernoulli_nll(F, np, rng):
    globals()['np'] = np
    x = rng.rand(4, 3).astype('f')
    return _gg(F, lambda y: F.bernoulli_nll(x, y)), (_f(rng, 4, 3),), {}


def case_dd_cross_covariance(F, np, rng):
    globals()['np'] = np
    z = _f(rng, 5, 2)
    return _gg(F, lambda y: F.cross_covariance(y, z)), (_f(rng, 5, 3),), {}


def case_dd_decov(F, np, rng):
    # 7.8.1: old-style Function, cannot twice-differentiate; ours can: kept
    globals()['np'] = np
    return _gg(F, F.decov), (_f(rng, 5, 3),), {}


def case_dd_black_out(F, np, rng):
    globals()['np'] = np
    t, W, samples = _i(rng, 6, 4), _f(rng, 6, 5), _i(rng, 6, 4, 3)
    return _gg(F, lambda x: F.black_out(x, t, W, samples)), (_f(rng, 4, 5),), {}


def case_dd_negative_sampling(F, np, rng):
    # 7.8.1's double backward fails (TypeError on None); ours works: kept
    globals()['np'] = np
    t, W = _i(rng, 6, 4), _f(rng, 6, 3)
    return (_gg(F, lambda x: F.negative_sampling(x, t, W, _sampler(np, 6), 2)),
            (_f(rng, 4, 3),), {})


def case_dd_ctc(F, np, rng):
    # 7.8.1: old-style Function, cannot twice-differentiate; ours can: kept
    globals()['np'] = np
    t = np.array([[1, 2], [2, 3]], 'i')
    return _gg(F, lambda x: _ctc(F)(x, t)), (_f(rng, 5, 2, 4),), {}


def case_dd_crf1d(F, np, rng):
    globals()['np'] = np
    ys = [_i(rng, 3, 2) for _ in range(4)]
    x = _f(rng, 4, 2, 3)
    return _gg(F, lambda c: _crf(F)(c, x, *ys)), (_f(rng, 3, 3),), {}
