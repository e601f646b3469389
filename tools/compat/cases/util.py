"""Compatibility cases: util functions (forget)."""


def _f(rng, *shape, dtype='f'):
    return rng.randn(*shape).astype(dtype)


def case_forget(F, np, rng):
    return (lambda x: F.forget(lambda a: F.sigmoid(a) * 2, x)), (_f(rng, 3, 4),), {}


def case_forget_two_inputs(F, np, rng):
    return ((lambda x, y: F.forget(lambda a, b: F.tanh(a) * b + a, x, y)),
            (_f(rng, 3, 4), _f(rng, 3, 4)), {})


def case_forget_multi_output(F, np, rng):
    def f(a, b):
        return F.relu(a) + b, a * b
    return (lambda x, y: F.forget(f, x, y)), (_f(rng, 2, 3), _f(rng, 2, 3)), {}


def case_forget_multi_output_partial(F, np, rng):
    def f(a, b):
        return F.relu(a) + b, a * b
    return ((lambda x, y: F.forget(f, x, y)), (_f(rng, 2, 3), _f(rng, 2, 3)), {},
            {'outputs': [1]})


def case_forget_one_output_tuple(F, np, rng):
    return ((lambda x: F.forget(lambda a: (F.exp(a),), x)), (_f(rng, 4),), {})


def case_forget_nested(F, np, rng):
    def inner(a):
        return F.forget(lambda b: F.sin(b) * b, a)
    return (lambda x: F.forget(lambda a: inner(a) ** 2, x)), (_f(rng, 3),), {}


def case_forget_reduction(F, np, rng):
    return ((lambda x, W: F.forget(lambda a, w: F.sum(F.linear(a, w) ** 2), x, W)),
            (_f(rng, 4, 3), _f(rng, 2, 3)), {})


def case_forget_f64(F, np, rng):
    return (lambda x: F.forget(lambda a: F.softplus(a) * a, x)), (_f(rng, 5, dtype='d'),), {}


def case_forget_f16(F, np, rng):
    return (lambda x: F.forget(lambda a: F.sigmoid(a) * 2, x)), (_f(rng, 5, dtype='e'),), {}


def case_forget_int_input(F, np, rng):
    # an integer array input (no gradient) next to a float one
    t = np.array([0, 2, 1], 'i')
    return ((lambda x: F.forget(lambda a, i: F.select_item(a, i) * 3, x, t)),
            (_f(rng, 3, 4),), {})


# Legitimate difference: 7.8.1 refuses double backprop through forget (RuntimeError);
# ours recomputes with a graph, so second derivatives work.
def case_forget_double_backprop(F, np, rng):
    def fn(x):
        import chainer
        y = F.forget(lambda a: F.sin(a) * a * a, x)
        gx, = chainer.grad([y], [x], [chainer.Variable(np.ones(y.shape, y.dtype))],
                           enable_double_backprop=True)
        return gx
    return fn, (_f(rng, 4),), {}


def case_forget_returns_input(F, np, rng):
    return (lambda x: F.forget(lambda a: a, x)), (_f(rng, 3),), {}


# Legitimate difference (returns_array, returns_list): 7.8.1 requires a Variable or a
# tuple of Variables from func (RuntimeError); ours also takes a list and wraps arrays.
def case_forget_returns_array(F, np, rng):
    return (lambda x: F.forget(lambda a: a.array * 2, x)), (_f(rng, 3),), {}


def case_forget_returns_list(F, np, rng):
    return (lambda x: F.forget(lambda a: [a * 2, a * 3], x)), (_f(rng, 3),), {}


def case_forget_array_input(F, np, rng):
    # a float ndarray input (not a Variable): no gradient for it
    c = _f(rng, 3)
    return (lambda x: F.forget(lambda a, b: a * b, x, c)), (_f(rng, 3),), {}


def case_forget_train_config(F, np, rng):
    # the recomputation in backward runs under the config of the backward call (here
    # train=True) in both, not that of the forward (train=False): the gradient is 2, the
    # forward slope 3. (With dropout inside, both redraw the mask in backward.)
    import chainer

    def fn(x):
        with chainer.using_config('train', False):
            return F.forget(lambda a: a * (2. if chainer.config.train else 3.), x)
    return fn, (_f(rng, 3, 4),), {}
