"""Compatibility cases: activation functions."""


def _with_zeros(rng, shape, dtype='f', values=(0.,)):
    x = rng.randn(*shape).astype(dtype)
    flat = x.reshape(-1)
    for i, v in enumerate(values):
        flat[i * 3] = v
    return x


# relu family

def case_relu(F, np, rng):
    return F.relu, (rng.randn(3, 4).astype('f'),), {}


def case_relu_zeros(F, np, rng):
    return F.relu, (_with_zeros(rng, (4, 5), values=(0., 0., -0.)),), {}


def case_relu_f16(F, np, rng):
    return F.relu, (rng.randn(2, 3, 4).astype('e'),), {}


def case_relu_f64(F, np, rng):
    return F.relu, (rng.randn(5,).astype('d'),), {}


def case_relu_scalar(F, np, rng):
    return F.relu, (np.array(-1.5, 'f'),), {}


def case_relu_empty(F, np, rng):
    return F.relu, (np.zeros((0, 3), 'f'),), {}


def case_clipped_relu(F, np, rng):
    x = (rng.randn(4, 5) * 3).astype('f')
    return F.clipped_relu, (x,), {'z': 2.0}


def case_clipped_relu_edges(F, np, rng):
    x = _with_zeros(rng, (4, 5), values=(0., 0.5, -0.5, 1.0, 2.0))
    return F.clipped_relu, (x,), {'z': 0.5}


def case_clipped_relu_default(F, np, rng):
    x = (rng.randn(3, 4) * 20).astype('f')
    return F.clipped_relu, (x,), {}


def case_clipped_relu_f64(F, np, rng):
    x = (rng.randn(3, 4) * 2).astype('d')
    return F.clipped_relu, (x,), {'z': 1.5}


def case_relu6(F, np, rng):
    x = _with_zeros(rng, (4, 5), values=(0., 6., -6., 7., 5.99))
    x[1] *= 5
    return F.relu6, (x,), {}


def case_relu6_f16(F, np, rng):
    return F.relu6, ((rng.randn(3, 4) * 5).astype('e'),), {}


def case_crelu(F, np, rng):
    return F.crelu, (rng.randn(2, 3, 4).astype('f'),), {}


def case_crelu_axis0(F, np, rng):
    return F.crelu, (rng.randn(2, 3).astype('f'),), {'axis': 0}


def case_crelu_axis_neg(F, np, rng):
    return F.crelu, (rng.randn(2, 3, 4).astype('f'),), {'axis': -1}


def case_crelu_zeros(F, np, rng):
    return F.crelu, (_with_zeros(rng, (3, 4), values=(0., 0.)),), {}


def case_elu(F, np, rng):
    return F.elu, (rng.randn(3, 4).astype('f'),), {'alpha': 0.7}


def case_elu_default(F, np, rng):
    return F.elu, (_with_zeros(rng, (3, 4), values=(0.,)),), {}


def case_elu_f16(F, np, rng):
    return F.elu, (rng.randn(3, 4).astype('e'),), {'alpha': 1.3}


def case_elu_large(F, np, rng):
    x = np.array([-100., -30., -1e-3, 0., 1e-3, 30., 100.], 'f')
    return F.elu, (x,), {}


def case_elu_alpha_zero(F, np, rng):
    return F.elu, (rng.randn(3, 4).astype('d'),), {'alpha': 0.0}


def case_hard_sigmoid(F, np, rng):
    x = (rng.randn(4, 5) * 3).astype('f')
    return F.hard_sigmoid, (x,), {}


def case_hard_sigmoid_edges(F, np, rng):
    x = np.array([-3., -2.5, -2.49, 0., 2.49, 2.5, 3.], 'f')
    return F.hard_sigmoid, (x,), {}


def case_hard_sigmoid_f64(F, np, rng):
    return F.hard_sigmoid, ((rng.randn(3, 4) * 3).astype('d'),), {}


def case_leaky_relu(F, np, rng):
    return F.leaky_relu, (rng.randn(3, 4).astype('f'),), {}


# Fixed: at x == 0, leaky_relu / elu / selu take the negative branch's gradient.
def case_leaky_relu_slope(F, np, rng):
    return F.leaky_relu, (_with_zeros(rng, (3, 4), values=(0.,)),), {'slope': 0.01}


def case_leaky_relu_negative_slope(F, np, rng):
    return F.leaky_relu, (rng.randn(3, 4).astype('f'),), {'slope': -0.5}


def case_leaky_relu_slope_gt1(F, np, rng):
    return F.leaky_relu, (rng.randn(3, 4).astype('f'),), {'slope': 2.0}


def case_leaky_relu_f16(F, np, rng):
    return F.leaky_relu, (rng.randn(3, 4).astype('e'),), {'slope': 0.1}


def case_selu(F, np, rng):
    return F.selu, (rng.randn(3, 4).astype('f'),), {}


def case_selu_params(F, np, rng):
    return F.selu, (rng.randn(3, 4).astype('d'),), {'alpha': 2.0, 'scale': 0.5}


def case_selu_zeros(F, np, rng):
    return F.selu, (_with_zeros(rng, (3, 4), values=(0.,)),), {}


def case_prelu(F, np, rng):
    x = rng.randn(2, 3, 4).astype('f')
    W = rng.uniform(-1, 1, (3,)).astype('f')
    return F.prelu, (x, W), {}


def case_prelu_w2d(F, np, rng):
    x = rng.randn(2, 3, 4, 5).astype('f')
    W = rng.uniform(-1, 1, (3, 4)).astype('f')
    return F.prelu, (x, W), {}


def case_prelu_wfull(F, np, rng):
    x = rng.randn(2, 3, 4).astype('f')
    W = rng.uniform(-1, 1, (3, 4)).astype('f')
    return F.prelu, (x, W), {}


def case_prelu_w0d(F, np, rng):
    x = rng.randn(2, 3).astype('f')
    W = np.array(0.25, 'f')
    return F.prelu, (x, W), {}


def case_prelu_zeros(F, np, rng):
    x = _with_zeros(rng, (2, 3), values=(0., 0.))
    W = rng.uniform(-1, 1, (3,)).astype('f')
    return F.prelu, (x, W), {}


def case_rrelu_eval(F, np, rng):
    import chainer

    def fn(x):
        with chainer.using_config('train', False):
            return F.rrelu(x)
    return fn, (rng.randn(3, 4).astype('f'),), {}


def case_rrelu_eval_lu(F, np, rng):
    import chainer

    def fn(x):
        with chainer.using_config('train', False):
            return F.rrelu(x, l=0.1, u=0.5)
    return fn, (rng.randn(3, 4).astype('f'),), {}


def case_rrelu_given_r(F, np, rng):
    r = rng.uniform(0.125, 1 / 3., (3, 4)).astype('f')
    return (lambda x: F.rrelu(x, r=r)), (rng.randn(3, 4).astype('f'),), {}


def case_rrelu_return_r(F, np, rng):
    r = rng.uniform(0.125, 1 / 3., (3, 4)).astype('f')
    return (lambda x: F.rrelu(x, r=r, return_r=True)), (rng.randn(3, 4).astype('f'),), {}


def case_rrelu_train_stats(F, np, rng):
    # train mode draws r ~ U(l, u): compare the range of the drawn slopes only.
    def fn(x):
        y, r = F.rrelu(x, l=0.2, u=0.4, return_r=True)
        r = np.asarray(r)
        return np.array([r.min() >= 0.2, r.max() <= 0.4, r.shape == x.shape]), np.asarray(
            y.array.shape)
    return fn, (rng.randn(30, 40).astype('f'),), {}, {'backward': False}


# sigmoid family

def case_sigmoid(F, np, rng):
    return F.sigmoid, ((rng.randn(3, 4) * 3).astype('f'),), {}


def case_sigmoid_large(F, np, rng):
    x = np.array([-1000., -100., -20., 0., 20., 100., 1000.], 'f')
    return F.sigmoid, (x,), {}


def case_sigmoid_f16(F, np, rng):
    return F.sigmoid, ((rng.randn(3, 4) * 3).astype('e'),), {}


def case_sigmoid_f64_large(F, np, rng):
    x = np.array([-800., -40., 0., 40., 800.], 'd')
    return F.sigmoid, (x,), {}


def case_tanh(F, np, rng):
    return F.tanh, ((rng.randn(3, 4) * 2).astype('f'),), {}


def case_tanh_large(F, np, rng):
    x = np.array([-1000., -20., 0., 20., 1000.], 'f')
    return F.tanh, (x,), {}


def case_tanh_f16(F, np, rng):
    return F.tanh, ((rng.randn(3, 4) * 2).astype('e'),), {}


def case_softplus(F, np, rng):
    return F.softplus, ((rng.randn(3, 4) * 3).astype('f'),), {}


def case_softplus_beta(F, np, rng):
    return F.softplus, ((rng.randn(3, 4) * 3).astype('f'),), {'beta': 2.5}


def case_softplus_large(F, np, rng):
    x = np.array([-1000., -100., -20., 0., 20., 100., 1000.], 'f')
    return F.softplus, (x,), {}


def case_softplus_large_beta(F, np, rng):
    x = np.array([-100., -1., 0., 1., 100.], 'd')
    return F.softplus, (x,), {'beta': 10.}


# float16 rounding (both within 4e-4 of a float64 reference): passes at --rtol 1e-2.
def case_softplus_f16(F, np, rng):
    return F.softplus, ((rng.randn(3, 4) * 3).astype('e'),), {}


def case_swish(F, np, rng):
    x = rng.randn(2, 3, 4).astype('f')
    beta = rng.uniform(-1, 1, (3,)).astype('f')
    return F.swish, (x, beta), {}


def case_swish_beta2d(F, np, rng):
    x = rng.randn(2, 3, 4).astype('f')
    beta = rng.uniform(-1, 1, (3, 4)).astype('f')
    return F.swish, (x, beta), {}


def case_swish_beta_scalar(F, np, rng):
    x = rng.randn(2, 3).astype('f')
    beta = np.array([1.5], 'f')
    return F.swish, (x, beta), {}


# float32 rounding of gbeta at |x| = 100 (1.5e-5 absolute; ours 6e-6, 7.8.1 9e-6 off a
# float64 reference).
def case_swish_large(F, np, rng):
    x = np.array([[-100., 0., 100.], [-30., 1., 30.]], 'f')
    beta = np.array([1., 2., 0.5], 'f')
    return F.swish, (x, beta), {}


# softmax family

def case_softmax(F, np, rng):
    return F.softmax, (rng.randn(3, 5).astype('f'),), {}


def case_softmax_axis2(F, np, rng):
    return F.softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': 2}


def case_softmax_axis0(F, np, rng):
    return F.softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': 0}


def case_softmax_axis_neg(F, np, rng):
    return F.softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': -1}


def case_softmax_large(F, np, rng):
    x = np.array([[1000., 0., -1000.], [1e4, 1e4, 1e4], [-1e4, -1e4 + 1, -1e4]], 'f')
    return F.softmax, (x,), {}


def case_softmax_neg_inf(F, np, rng):
    # masked scores (-inf), as in attention
    x = np.array([[-np.inf, 0., 1.], [2., -np.inf, -np.inf]], 'f')
    return F.softmax, (x,), {}


def case_log_softmax_neg_inf(F, np, rng):
    x = np.array([[-np.inf, 0., 1.], [2., -np.inf, 0.5]], 'f')
    return F.log_softmax, (x,), {}, {'backward': False}


def case_softmax_f16(F, np, rng):
    return F.softmax, ((rng.randn(3, 5) * 3).astype('e'),), {}


def case_softmax_f64(F, np, rng):
    return F.softmax, (rng.randn(3, 5).astype('d'),), {}


def case_softmax_1d(F, np, rng):
    return F.softmax, (rng.randn(5).astype('f'),), {'axis': 0}


def case_log_softmax(F, np, rng):
    return F.log_softmax, (rng.randn(3, 5).astype('f'),), {}


def case_log_softmax_axis(F, np, rng):
    return F.log_softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': 2}


def case_log_softmax_axis_neg(F, np, rng):
    return F.log_softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': -2}


# Float rounding only: ours is closer to a float64 reference (y err 6e-8 vs 3e-4).
def case_log_softmax_large(F, np, rng):
    x = np.array([[1000., 0., -1000.], [1e4, 1e4, 1e4], [-1e4, -1e4 + 1, -1e4]], 'f')
    return F.log_softmax, (x,), {}


# float16 rounding (both within 3e-3 of a float64 reference): passes at --rtol 1e-2.
def case_log_softmax_f16(F, np, rng):
    return F.log_softmax, ((rng.randn(3, 5) * 3).astype('e'),), {}


def case_maxout(F, np, rng):
    return F.maxout, (rng.randn(2, 6, 3).astype('f'),), {'pool_size': 2}


def case_maxout_axis(F, np, rng):
    return F.maxout, (rng.randn(2, 3, 8).astype('f'),), {'pool_size': 4, 'axis': 2}


def case_maxout_axis0(F, np, rng):
    return F.maxout, (rng.randn(6, 3).astype('f'),), {'pool_size': 3, 'axis': 0}


def case_maxout_ties(F, np, rng):
    x = np.array([[1., 1., 0., 2., 2., 2.], [-1., -1., 3., 3., 0., 0.]], 'f')
    return F.maxout, (x,), {'pool_size': 3}


# Legitimate difference: Chainer 7.8.1 fails on a negative axis (its reshape uses the
# axis unnormalized); we accept it like every other axis argument.
def case_maxout_axis_neg(F, np, rng):
    return F.maxout, (rng.randn(2, 3, 8).astype('f'),), {'pool_size': 2, 'axis': -1}


def case_maxout_pool1(F, np, rng):
    return F.maxout, (rng.randn(2, 4).astype('f'),), {'pool_size': 1}


# Fixed: InvalidType (was ValueError) when pool_size does not divide the axis.
def case_maxout_bad_pool(F, np, rng):
    return F.maxout, (rng.randn(2, 5).astype('f'),), {'pool_size': 2}


# recurrent cells

def case_lstm(F, np, rng):
    c = rng.randn(3, 4).astype('f')
    x = rng.randn(3, 16).astype('f')
    return F.lstm, (c, x), {}


def case_lstm_smaller_batch(F, np, rng):
    c = rng.randn(4, 3).astype('f')
    x = rng.randn(2, 12).astype('f')
    return F.lstm, (c, x), {}


def case_lstm_extra_dims(F, np, rng):
    c = rng.randn(2, 3, 5).astype('f')
    x = rng.randn(2, 12, 5).astype('f')
    return F.lstm, (c, x), {}


def case_lstm_large(F, np, rng):
    c = (rng.randn(2, 3) * 50).astype('f')
    x = (rng.randn(2, 12) * 50).astype('f')
    return F.lstm, (c, x), {}


def case_lstm_f64(F, np, rng):
    c = rng.randn(2, 3).astype('d')
    x = rng.randn(2, 12).astype('d')
    return F.lstm, (c, x), {}


def case_lstm_c_only_h(F, np, rng):
    c = rng.randn(3, 4).astype('f')
    x = rng.randn(3, 16).astype('f')
    return F.lstm, (c, x), {}, {'outputs': [1]}


# Fixed: 7.8.1 gives each child its own input gate, c = tanh(a1) sig(i1) + tanh(a2) sig(i2)
# + sig(f1) c1 + sig(f2) c2 (not tanh(a1 + a2) sig(i1 + i2)).
def case_slstm(F, np, rng):
    c1 = rng.randn(3, 4).astype('f')
    c2 = rng.randn(3, 4).astype('f')
    x1 = rng.randn(3, 16).astype('f')
    x2 = rng.randn(3, 16).astype('f')
    return F.slstm, (c1, c2, x1, x2), {}


def case_slstm_extra_dims(F, np, rng):
    c1 = rng.randn(2, 3, 2).astype('f')
    c2 = rng.randn(2, 3, 2).astype('f')
    x1 = rng.randn(2, 12, 2).astype('f')
    x2 = rng.randn(2, 12, 2).astype('f')
    return F.slstm, (c1, c2, x1, x2), {}


def case_tree_lstm2(F, np, rng):
    c1 = rng.randn(3, 4).astype('f')
    c2 = rng.randn(3, 4).astype('f')
    x = rng.randn(3, 20).astype('f')
    return F.tree_lstm, (c1, c2, x), {}


def case_tree_lstm3(F, np, rng):
    cs = [rng.randn(2, 3).astype('f') for _ in range(3)]
    x = rng.randn(2, 18).astype('f')
    return F.tree_lstm, (*cs, x), {}


def case_tree_lstm1(F, np, rng):
    c = rng.randn(2, 3).astype('f')
    x = rng.randn(2, 12).astype('f')
    return F.tree_lstm, (c, x), {}


# Legitimate difference: trailing axes after the unit axis, which lstm and slstm accept
# in 7.8.1 too; 7.8.1's tree_lstm rejects them, ours accepts them the same way.
def case_tree_lstm_extra_dims(F, np, rng):
    c1 = rng.randn(2, 3, 2).astype('f')
    c2 = rng.randn(2, 3, 2).astype('f')
    x = rng.randn(2, 15, 2).astype('f')
    return F.tree_lstm, (c1, c2, x), {}


# second order: the output is the (differentiable) gradient, so that the harness's
# backward compares the double-backward results as well

def _grad_of(F, np, fn, n_in=1):
    import chainer

    def wrapped(*xs):
        ys = fn(*xs)
        ys = ys if isinstance(ys, tuple) else (ys,)
        grng = np.random.RandomState(2)
        gys = [chainer.Variable(grng.uniform(-1, 1, y.shape).astype(y.dtype)) for y in ys]
        return chainer.grad(list(ys), list(xs[:n_in]), gys, enable_double_backprop=True)
    return wrapped


def _away_from_zero(rng, *shape, dtype='f'):
    x = rng.uniform(0.2, 2, shape) * rng.choice([-1, 1], shape)
    return x.astype(dtype)


def case_dbl_relu(F, np, rng):
    return _grad_of(F, np, F.relu), (_away_from_zero(rng, 3, 4),), {}


def case_dbl_elu(F, np, rng):
    return (_grad_of(F, np, lambda x: F.elu(x, 0.7)), (_away_from_zero(rng, 3, 4),), {})


def case_dbl_selu(F, np, rng):
    return _grad_of(F, np, F.selu), (_away_from_zero(rng, 3, 4),), {}


def case_dbl_leaky_relu(F, np, rng):
    return (_grad_of(F, np, lambda x: F.leaky_relu(x, 0.3)),
            (_away_from_zero(rng, 3, 4),), {})


def case_dbl_clipped_relu(F, np, rng):
    return (_grad_of(F, np, lambda x: F.clipped_relu(x, 1.0)),
            (_away_from_zero(rng, 3, 4),), {})


def case_dbl_hard_sigmoid(F, np, rng):
    return _grad_of(F, np, F.hard_sigmoid), ((rng.randn(3, 4) * 3).astype('f'),), {}


def case_dbl_sigmoid(F, np, rng):
    return _grad_of(F, np, F.sigmoid), (_f32(rng, 3, 4),), {}


def case_dbl_tanh(F, np, rng):
    return _grad_of(F, np, F.tanh), (_f32(rng, 3, 4),), {}


def case_dbl_softplus(F, np, rng):
    return (_grad_of(F, np, lambda x: F.softplus(x, 2.0)), (_f32(rng, 3, 4),), {})


def case_dbl_swish(F, np, rng):
    return (_grad_of(F, np, F.swish, 2),
            (_f32(rng, 2, 3, 4), rng.uniform(-1, 1, (3,)).astype('f')), {})


def case_dbl_prelu(F, np, rng):
    return (_grad_of(F, np, F.prelu, 2),
            (_away_from_zero(rng, 2, 3, 4), rng.uniform(-1, 1, (3,)).astype('f')), {})


def case_dbl_softmax(F, np, rng):
    return _grad_of(F, np, F.softmax), (_f32(rng, 3, 5),), {}


def case_dbl_log_softmax(F, np, rng):
    return (_grad_of(F, np, lambda x: F.log_softmax(x, axis=2)), (_f32(rng, 2, 3, 4),), {})


def case_dbl_crelu(F, np, rng):
    return _grad_of(F, np, F.crelu), (_away_from_zero(rng, 3, 4),), {}


def case_dbl_maxout(F, np, rng):
    return (_grad_of(F, np, lambda x: F.maxout(x, 2)), (_f32(rng, 3, 4),), {})


def case_dbl_lstm(F, np, rng):
    return (_grad_of(F, np, F.lstm, 2), (_f32(rng, 3, 4), _f32(rng, 3, 16)), {})


def case_dbl_lstm_smaller_batch(F, np, rng):
    return (_grad_of(F, np, F.lstm, 2), (_f32(rng, 3, 2), _f32(rng, 2, 8)), {})


def case_dbl_slstm(F, np, rng):
    return (_grad_of(F, np, F.slstm, 4),
            (_f32(rng, 2, 3), _f32(rng, 2, 3), _f32(rng, 2, 12), _f32(rng, 2, 12)), {})


# Legitimate difference: 7.8.1's tree_lstm is an old-style Function and cannot be
# differentiated twice; ours can.
def case_dbl_tree_lstm(F, np, rng):
    return (_grad_of(F, np, F.tree_lstm, 3),
            (_f32(rng, 2, 3), _f32(rng, 2, 3), _f32(rng, 2, 15)), {})


def _f32(rng, *shape):
    return rng.randn(*shape).astype('f')
