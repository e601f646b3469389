"""Compatibility cases: seeded initial parameters and seeded random draws.

With ``numpy.random.seed(0)`` every link must hold Chainer 7.8.1's initial parameters,
bit for bit; random functions, samplers and shuffles must draw the same values. Each
link case returns, for every parameter in ``namedparams()`` order, its name, dtype and
shape, a SHA-256 prefix of its bytes and its first values; then the next value of
NumPy's global stream (how much the construction drew), and the same for a second
construction without reseeding. Run with ``--rtol 0 --atol 0``.
"""

NB = {'backward': False}


def _np():
    import numpy
    return numpy


def _summary(link):
    import hashlib
    np = _np()
    names, specs, digests, heads = [], [], [], []
    for name, p in link.namedparams():
        names.append(name)
        a = p.array
        if a is None:
            specs.append('uninitialized')
            digests.append('-')
            heads.append(np.full(4, np.nan))
            continue
        a = np.ascontiguousarray(np.asarray(a))
        specs.append(f'{a.dtype.str}{a.shape}')
        digests.append(hashlib.sha256(a.tobytes()).hexdigest()[:16])
        head = np.full(4, np.nan)
        flat = a.ravel()[:4].astype('d')
        head[:flat.size] = flat
        heads.append(head)
    heads = np.array(heads).reshape(-1, 4)
    return [np.array(names), np.array(specs), np.array(digests), heads,
            np.array([np.random.randint(2 ** 31)])]


def _link(build, twice=True):
    """A case: seed 0, build (twice: without reseeding in between), summarize."""
    def run():
        np = _np()
        np.random.seed(0)
        out = _summary(build())
        if twice:
            out += _summary(build())
        return tuple(out)
    return run, (), {}, NB


def _x(*shape):
    return _np().random.RandomState(100).randn(*shape).astype('f')


def _called(link, *xs):
    link(*xs)
    return link


def _L():
    import chainer.links as L
    return L


# connection

def case_linear(F, np, rng):
    return _link(lambda: _L().Linear(3, 4))


def case_linear_nobias_init(F, np, rng):
    import chainer
    return _link(lambda: _L().Linear(3, 4, nobias=True,
                                     initialW=chainer.initializers.Uniform(2)))


def case_linear_lazy(F, np, rng):
    return _link(lambda: _called(_L().Linear(None, 3), _x(2, 5)))


def case_linear_out_only_lazy(F, np, rng):
    return _link(lambda: _called(_L().Linear(3), _x(2, 5)))


def case_linear_float64_config(F, np, rng):
    import chainer

    def build():
        with chainer.using_config('dtype', np.float64):
            return _L().Linear(3, 4)
    return _link(build)


def case_linear_float16_config(F, np, rng):
    import chainer

    def build():
        with chainer.using_config('dtype', np.float16):
            return _L().Linear(3, 4, initial_bias=chainer.initializers.Normal())
    return _link(build)


def case_convolution1d(F, np, rng):
    return _link(lambda: _L().Convolution1D(2, 3, 3))


def case_convolution2d(F, np, rng):
    return _link(lambda: _L().Convolution2D(2, 3, 3))


def case_convolution2d_groups(F, np, rng):
    return _link(lambda: _L().Convolution2D(4, 6, 3, groups=2))


def case_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().Convolution2D(None, 3, 3), _x(1, 2, 5, 5)))


def case_convolution2d_two_args_lazy(F, np, rng):
    return _link(lambda: _called(_L().Convolution2D(3, 2), _x(1, 2, 5, 5)))


def case_convolution3d(F, np, rng):
    return _link(lambda: _L().Convolution3D(2, 3, 2))


def case_convolution_nd(F, np, rng):
    return _link(lambda: _L().ConvolutionND(2, 2, 3, 3))


def case_convolution_nd_lazy(F, np, rng):
    return _link(lambda: _called(_L().ConvolutionND(1, None, 3, 2), _x(1, 2, 5)))


def case_deconvolution1d(F, np, rng):
    return _link(lambda: _L().Deconvolution1D(2, 3, 3))


def case_deconvolution2d(F, np, rng):
    return _link(lambda: _L().Deconvolution2D(2, 3, 3))


def case_deconvolution2d_groups(F, np, rng):
    return _link(lambda: _L().Deconvolution2D(4, 6, 3, groups=2))


def case_deconvolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().Deconvolution2D(None, 3, 3), _x(1, 2, 4, 4)))


def case_deconvolution3d(F, np, rng):
    return _link(lambda: _L().Deconvolution3D(2, 3, 2))


def case_deconvolution_nd(F, np, rng):
    return _link(lambda: _L().DeconvolutionND(2, 2, 3, 3))


def case_deconvolution_nd_lazy(F, np, rng):
    return _link(lambda: _called(_L().DeconvolutionND(1, None, 3, 2), _x(1, 2, 5)))


def case_depthwise_convolution2d(F, np, rng):
    return _link(lambda: _L().DepthwiseConvolution2D(2, 3, 3))


def case_depthwise_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().DepthwiseConvolution2D(None, 2, 3), _x(1, 2, 5, 5)))


def case_dilated_convolution2d(F, np, rng):
    return _link(lambda: _L().DilatedConvolution2D(2, 3, 3, dilate=2))


def case_dilated_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().DilatedConvolution2D(None, 3, 3), _x(1, 2, 5, 5)))


def case_local_convolution2d(F, np, rng):
    return _link(lambda: _L().LocalConvolution2D(2, 3, in_size=(5, 5), ksize=3))


def case_local_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().LocalConvolution2D(None, 3, ksize=3), _x(1, 2, 5, 5)))


def case_deformable_convolution2d(F, np, rng):
    return _link(lambda: _L().DeformableConvolution2D(2, 3, 3))


def case_deformable_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().DeformableConvolution2D(None, 3, 3),
                                 _x(1, 2, 5, 5)))


def case_mlp_convolution2d(F, np, rng):
    return _link(lambda: _L().MLPConvolution2D(2, (3, 4), 3))


def case_mlp_convolution2d_lazy(F, np, rng):
    return _link(lambda: _called(_L().MLPConvolution2D(None, (3, 4), 3), _x(1, 2, 5, 5)))


def case_inception(F, np, rng):
    return _link(lambda: _L().Inception(3, 2, 2, 3, 2, 3, 2))


def case_inception_bn(F, np, rng):
    return _link(lambda: _L().InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2))


def case_embed_id(F, np, rng):
    return _link(lambda: _L().EmbedID(5, 3))


def case_bias(F, np, rng):
    return _link(lambda: _L().Bias(shape=(3,)))


def case_scale(F, np, rng):
    return _link(lambda: _L().Scale(W_shape=(3,), bias_term=True))


def case_bilinear(F, np, rng):
    return _link(lambda: _L().Bilinear(2, 3, 4))


def case_highway(F, np, rng):
    return _link(lambda: _L().Highway(4))


def case_maxout(F, np, rng):
    return _link(lambda: _L().Maxout(3, 2, 3))


def case_prelu(F, np, rng):
    return _link(lambda: _L().PReLU((3,)))


def case_swish(F, np, rng):
    return _link(lambda: _L().Swish((3,)))


def case_swish_lazy(F, np, rng):
    return _link(lambda: _called(_L().Swish(None), _x(2, 3)))


def case_simplified_dropconnect(F, np, rng):
    return _link(lambda: _L().SimplifiedDropconnect(3, 4))


def case_simplified_dropconnect_lazy(F, np, rng):
    return _link(lambda: _called(_L().SimplifiedDropconnect(None, 4), _x(2, 3)))


def case_highway_inits(F, np, rng):
    import chainer
    I = chainer.initializers
    return _link(lambda: _L().Highway(3, init_Wh=I.Uniform(), init_Wt=I.GlorotNormal(),
                                      init_bh=I.Normal()))


def case_parameter(F, np, rng):
    return _link(lambda: _L().Parameter(np.arange(6, dtype='f').reshape(2, 3)))


# normalization

def case_batch_normalization(F, np, rng):
    return _link(lambda: _L().BatchNormalization(3))


def case_batch_normalization_lazy(F, np, rng):
    return _link(lambda: _called(_L().BatchNormalization(), _x(4, 3)))


def case_batch_normalization_init(F, np, rng):
    import chainer
    I = chainer.initializers
    return _link(lambda: _L().BatchNormalization(3, initial_gamma=I.Normal(),
                                                 initial_beta=I.Uniform()))


def case_batch_renormalization(F, np, rng):
    return _link(lambda: _L().BatchRenormalization(3))


def case_decorrelated_batch_normalization(F, np, rng):
    return _link(lambda: _L().DecorrelatedBatchNormalization(4, groups=2))


def case_group_normalization(F, np, rng):
    return _link(lambda: _L().GroupNormalization(2, 4))


def case_group_normalization_lazy(F, np, rng):
    return _link(lambda: _called(_L().GroupNormalization(2), _x(2, 4, 3)))


def case_layer_normalization(F, np, rng):
    return _link(lambda: _L().LayerNormalization(4))


def case_layer_normalization_lazy(F, np, rng):
    return _link(lambda: _called(_L().LayerNormalization(), _x(2, 4)))


# loss

def case_binary_hierarchical_softmax(F, np, rng):
    def build():
        L = _L()
        tree = L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 3, 1: 2, 2: 1, 3: 4})
        return L.BinaryHierarchicalSoftmax(3, tree)
    return _link(build)


def case_black_out(F, np, rng):
    return _link(lambda: _L().BlackOut(3, [3, 2, 1, 4], 2))


def case_negative_sampling(F, np, rng):
    return _link(lambda: _L().NegativeSampling(3, [3, 2, 1, 4], 2))


def case_crf1d(F, np, rng):
    return _link(lambda: _L().CRF1d(3))


def case_classifier(F, np, rng):
    return _link(lambda: _L().Classifier(_L().Linear(3, 2)))


# rnn

def case_lstm(F, np, rng):
    return _link(lambda: _L().LSTM(3, 4))


def case_lstm_out_only_lazy(F, np, rng):
    return _link(lambda: _called(_L().LSTM(4), _x(2, 3)))


def case_lstm_lazy(F, np, rng):
    return _link(lambda: _called(_L().LSTM(None, 4), _x(2, 3)))


def case_lstm_inits(F, np, rng):
    import chainer
    I = chainer.initializers
    return _link(lambda: _L().LSTM(3, 2, lateral_init=I.Uniform(), upward_init=I.Normal(),
                                   bias_init=I.Normal(), forget_bias_init=I.Uniform()))


def case_lstm_inits_lazy(F, np, rng):
    import chainer
    I = chainer.initializers
    return _link(lambda: _called(_L().LSTM(None, 2, lateral_init=I.Uniform(),
                                           upward_init=I.Normal(), bias_init=I.Normal(),
                                           forget_bias_init=I.Uniform()), _x(2, 3)))


def case_stateless_lstm(F, np, rng):
    return _link(lambda: _L().StatelessLSTM(3, 4))


def case_stateless_lstm_lazy(F, np, rng):
    return _link(lambda: _called(_L().StatelessLSTM(None, 4), None, None, _x(2, 3)))


def case_stateful_peephole_lstm(F, np, rng):
    return _link(lambda: _L().StatefulPeepholeLSTM(3, 4))


def case_stateful_zoneout_lstm(F, np, rng):
    return _link(lambda: _L().StatefulZoneoutLSTM(3, 4))


def case_gru(F, np, rng):
    return _link(lambda: _L().GRU(3, 4))


def case_stateful_gru(F, np, rng):
    return _link(lambda: _L().StatefulGRU(3, 4))


def case_stateless_gru(F, np, rng):
    return _link(lambda: _L().StatelessGRU(3, 4))


def case_stateful_mgu(F, np, rng):
    return _link(lambda: _L().StatefulMGU(3, 4))


def case_stateless_mgu(F, np, rng):
    return _link(lambda: _L().StatelessMGU(3, 4))


def case_child_sum_tree_lstm(F, np, rng):
    return _link(lambda: _L().ChildSumTreeLSTM(3, 4))


def case_nary_tree_lstm(F, np, rng):
    return _link(lambda: _L().NaryTreeLSTM(3, 4, n_ary=3))


def _nstep(name, bi=False):
    return _link(lambda: getattr(_L(), name)(2, 3, 4, 0.5))


def case_n_step_lstm(F, np, rng):
    return _nstep('NStepLSTM')


def case_n_step_bilstm(F, np, rng):
    return _nstep('NStepBiLSTM')


def case_n_step_gru(F, np, rng):
    return _nstep('NStepGRU')


def case_n_step_bigru(F, np, rng):
    return _nstep('NStepBiGRU')


def case_n_step_rnn_tanh(F, np, rng):
    return _nstep('NStepRNNTanh')


def case_n_step_rnn_relu(F, np, rng):
    return _nstep('NStepRNNReLU')


def case_n_step_birnn_tanh(F, np, rng):
    return _nstep('NStepBiRNNTanh')


def case_n_step_birnn_relu(F, np, rng):
    return _nstep('NStepBiRNNReLU')


def case_n_step_lstm_inits(F, np, rng):
    import chainer
    return _link(lambda: _L().NStepLSTM(1, 3, 2, 0.0, initialW=chainer.initializers.Uniform(),
                                        initial_bias=chainer.initializers.Normal()))


def case_theano_function(F, np, rng):
    return _link(lambda: _L().TheanoFunction([], []))


# model zoo (pretrained_model=None); built once

def case_vgg16(F, np, rng):
    return _link(lambda: _L().VGG16Layers(pretrained_model=None), twice=False)


def case_vgg19(F, np, rng):
    return _link(lambda: _L().VGG19Layers(pretrained_model=None), twice=False)


def case_resnet50(F, np, rng):
    return _link(lambda: _L().ResNet50Layers(pretrained_model=None), twice=False)


def case_resnet101(F, np, rng):
    return _link(lambda: _L().ResNet101Layers(pretrained_model=None), twice=False)


def case_resnet152(F, np, rng):
    return _link(lambda: _L().ResNet152Layers(pretrained_model=None), twice=False)


def case_googlenet(F, np, rng):
    return _link(lambda: _L().GoogLeNet(pretrained_model=None), twice=False)


# initializers (applied to arrays)

def _init(make, dtype='f', shape=(6, 5)):
    def run():
        import chainer
        np = _np()
        np.random.seed(0)
        a = np.empty(shape, dtype)
        make(chainer.initializers)(a)
        b = np.empty(shape, dtype)
        make(chainer.initializers)(b)
        return a, b, np.array([np.random.randint(2 ** 31)])
    return run, (), {}, NB


def case_init_normal(F, np, rng):
    return _init(lambda I: I.Normal(0.3))


def case_init_normal_f16(F, np, rng):
    return _init(lambda I: I.Normal(0.3), 'e')


def case_init_normal_f64(F, np, rng):
    return _init(lambda I: I.Normal(0.3), 'd')


def case_init_uniform(F, np, rng):
    return _init(lambda I: I.Uniform(0.3))


def case_init_uniform_f16(F, np, rng):
    return _init(lambda I: I.Uniform(0.3), 'e')


def case_init_lecun_normal(F, np, rng):
    return _init(lambda I: I.LeCunNormal())


def case_init_lecun_uniform(F, np, rng):
    return _init(lambda I: I.LeCunUniform())


def case_init_glorot_normal(F, np, rng):
    return _init(lambda I: I.GlorotNormal())


def case_init_glorot_uniform(F, np, rng):
    return _init(lambda I: I.GlorotUniform())


def case_init_he_normal(F, np, rng):
    return _init(lambda I: I.HeNormal(fan_option='fan_out'), shape=(3, 2, 2, 2))


def case_init_he_uniform(F, np, rng):
    return _init(lambda I: I.HeUniform())


def case_init_orthogonal(F, np, rng):
    return _init(lambda I: I.Orthogonal())


def case_init_orthogonal_wide(F, np, rng):
    return _init(lambda I: I.Orthogonal(scale=2.0), shape=(3, 2, 4))


def case_init_orthogonal_f64(F, np, rng):
    return _init(lambda I: I.Orthogonal(), 'd')


def case_init_with_rng(F, np, rng):
    def run():
        import chainer
        np = _np()
        np.random.seed(0)
        a = np.empty((4, 3), 'f')
        chainer.initializers.Normal(rng=np.random.RandomState(4))(a)
        b = np.empty((4, 3), 'f')
        chainer.initializers.Uniform(rng=np.random.RandomState(4))(b)
        c = np.empty((4, 3), 'f')
        chainer.initializers.Orthogonal(rng=np.random.RandomState(4))(c)
        return a, b, c, np.array([np.random.randint(2 ** 31)])
    return run, (), {}, NB


# random functions

def _draws(fn):
    """Seed 0, run ``fn`` (returns arrays), then the next draw of the global stream."""
    def run():
        import chainer
        np = _np()
        np.random.seed(0)
        with chainer.using_config('train', True):
            ys = fn(np)
        ys = ys if isinstance(ys, tuple) else (ys,)
        ys = tuple(np.asarray(getattr(y, 'array', y)) for y in ys)
        return ys + (np.array([np.random.randint(2 ** 31)]),)
    return run, (), {}, NB


def _fn():
    import chainer.functions as F
    return F


def case_dropout(F, np, rng):
    return _draws(lambda np: _fn().dropout(_x(3, 5), 0.3, return_mask=True))


def case_dropout_f16(F, np, rng):
    return _draws(lambda np: _fn().dropout(_x(3, 5).astype('e'), return_mask=True))


def case_dropout_f64(F, np, rng):
    return _draws(lambda np: _fn().dropout(_x(3, 5).astype('d'), return_mask=True))


def case_gaussian(F, np, rng):
    return _draws(lambda np: _fn().gaussian(_x(3, 4), _x(3, 4) * 0.1, return_eps=True))


def case_gaussian_f16(F, np, rng):
    return _draws(lambda np: _fn().gaussian(_x(3, 4).astype('e'), _x(3, 4).astype('e')))


def case_gaussian_f64(F, np, rng):
    return _draws(lambda np: _fn().gaussian(_x(3, 4).astype('d'), _x(3, 4).astype('d')))


def case_simplified_dropconnect_batchwise(F, np, rng):
    return _draws(lambda np: _fn().simplified_dropconnect(_x(2, 3), _x(4, 3), _x(4)))


def case_simplified_dropconnect_shared(F, np, rng):
    return _draws(lambda np: _fn().simplified_dropconnect(
        _x(2, 3), _x(4, 3), _x(4), ratio=0.3, use_batchwise_mask=False))


def case_simplified_dropconnect_link(F, np, rng):
    return _draws(lambda np: _L().SimplifiedDropconnect(3, 4)(_x(2, 3)))


def case_zoneout(F, np, rng):
    return _draws(lambda np: _fn().zoneout(_x(3, 4), _x(3, 4) + 1, 0.3))


def case_zoneout_lstm_link(F, np, rng):
    def fn(np):
        link = _L().StatefulZoneoutLSTM(3, 4)
        return link(_x(2, 3)), link(_x(2, 3) + 1)
    return _draws(fn)


def case_rrelu(F, np, rng):
    return _draws(lambda np: _fn().rrelu(_x(3, 4), return_r=True))


def case_rrelu_f16(F, np, rng):
    return _draws(lambda np: _fn().rrelu(_x(3, 4).astype('e'), return_r=True))


def case_rrelu_f64(F, np, rng):
    return _draws(lambda np: _fn().rrelu(_x(3, 4).astype('d'), return_r=True))


def case_gumbel_softmax(F, np, rng):
    return _draws(lambda np: _fn().gumbel_softmax(_x(3, 4), tau=0.5))


def case_gumbel_softmax_f64(F, np, rng):
    return _draws(lambda np: _fn().gumbel_softmax(_x(3, 4).astype('d'), axis=0))


def case_walker_alias(F, np, rng):
    def fn(np):
        import chainer
        w = chainer.utils.WalkerAlias([0.1, 0.4, 0.2, 0.3])
        return w.sample((3, 5)), w.sample(7)
    return _draws(fn)


def case_negative_sampling_function(F, np, rng):
    def fn(np):
        import chainer
        w = chainer.utils.WalkerAlias([0.1, 0.4, 0.2, 0.3])
        t = np.array([0, 2, 1], 'i')
        return _fn().negative_sampling(_x(3, 2), t, _x(4, 2), w.sample, 3, reduce='no',
                                       return_samples=True)
    return _draws(fn)


def case_negative_sampling_link_forward(F, np, rng):
    def fn(np):
        link = _L().NegativeSampling(3, [3, 2, 1, 4], 2)
        t = np.array([0, 2, 1], 'i')
        return link(_x(3, 3), t, reduce='no', return_samples=True)
    return _draws(fn)


def case_black_out_link_forward(F, np, rng):
    def fn(np):
        link = _L().BlackOut(3, [3, 2, 1, 4], 2)
        t = np.array([0, 2, 1], 'i')
        return link(_x(3, 3), t)
    return _draws(fn)


def _nstep_forward(name, lstm=False):
    def fn(np):
        link = getattr(_L(), name)(2, 3, 4, 0.5)
        xs = [_x(3, 3), _x(2, 3)[::-1].copy()]
        out = link(None, None, xs) if lstm else link(None, xs)
        return tuple(out[:-1]) + tuple(out[-1])
    return _draws(fn)


def case_n_step_lstm_dropout(F, np, rng):
    return _nstep_forward('NStepLSTM', True)


def case_n_step_bilstm_dropout(F, np, rng):
    return _nstep_forward('NStepBiLSTM', True)


def case_n_step_gru_dropout(F, np, rng):
    return _nstep_forward('NStepGRU')


def case_n_step_bigru_dropout(F, np, rng):
    return _nstep_forward('NStepBiGRU')


def case_n_step_rnn_dropout(F, np, rng):
    return _nstep_forward('NStepRNNTanh')


def case_n_step_birnn_dropout(F, np, rng):
    return _nstep_forward('NStepBiRNNReLU')


def case_n_step_lstm_function_dropout(F, np, rng):
    def fn(np):
        r = np.random.RandomState(5)
        ws = [[r.randn(3, 3).astype('f') for _ in range(8)] for _ in range(2)]
        bs = [[r.randn(3).astype('f') for _ in range(8)] for _ in range(2)]
        xs = [_x(2, 3), _x(1, 3)]
        h = np.zeros((2, 2, 3), 'f')
        hy, cy, ys = _fn().n_step_lstm(2, 0.5, h, h, ws, bs, xs)
        return (hy, cy) + tuple(ys)
    return _draws(fn)


def _dist(make, shape=(2,)):
    def fn(np):
        import chainer
        return make(chainer.distributions, np).sample(shape)
    return _draws(fn)


def _p(*shape):
    return _np().random.RandomState(7).uniform(0.2, 0.8, shape).astype('f')


def case_dist_normal(F, np, rng):
    return _dist(lambda D, np: D.Normal(_x(3), _p(3)))


def case_dist_normal_f64(F, np, rng):
    return _dist(lambda D, np: D.Normal(_x(3).astype('d'), _p(3).astype('d')))


def case_dist_lognormal(F, np, rng):
    return _dist(lambda D, np: D.LogNormal(_x(3), _p(3)))


def case_dist_bernoulli(F, np, rng):
    return _dist(lambda D, np: D.Bernoulli(_p(3)))


def case_dist_beta(F, np, rng):
    return _dist(lambda D, np: D.Beta(_p(3) + 1, _p(3) + 2))


def case_dist_categorical(F, np, rng):
    return _dist(lambda D, np: D.Categorical(_p(2, 4) / _p(2, 4).sum(1, keepdims=True)))


def case_dist_categorical_1d(F, np, rng):
    return _dist(lambda D, np: D.Categorical(_p(5) / _p(5).sum()), (2, 3))


def case_dist_bernoulli_logit(F, np, rng):
    return _dist(lambda D, np: D.Bernoulli(logit=_x(2, 3).astype('d')), (4,))


def case_dist_dirichlet_1d(F, np, rng):
    return _dist(lambda D, np: D.Dirichlet(_p(3) + 0.5), (3, 2))


def case_dist_cauchy(F, np, rng):
    return _dist(lambda D, np: D.Cauchy(_x(3), _p(3)))


def case_dist_chisquare(F, np, rng):
    return _dist(lambda D, np: D.Chisquare(_p(3) * 3))


def case_dist_dirichlet(F, np, rng):
    return _dist(lambda D, np: D.Dirichlet(_p(2, 3) + 1))


def case_dist_exponential(F, np, rng):
    return _dist(lambda D, np: D.Exponential(_p(3)))


def case_dist_gamma(F, np, rng):
    return _dist(lambda D, np: D.Gamma(_p(3) + 1, _p(3)))


def case_dist_geometric(F, np, rng):
    return _dist(lambda D, np: D.Geometric(_p(3)))


def case_dist_gumbel(F, np, rng):
    return _dist(lambda D, np: D.Gumbel(_x(3), _p(3)))


def case_dist_laplace(F, np, rng):
    return _dist(lambda D, np: D.Laplace(_x(3), _p(3)))


def case_dist_multivariate_normal(F, np, rng):
    return _dist(lambda D, np: D.MultivariateNormal(
        _x(3), scale_tril=np.tril(_p(3, 3)) + np.eye(3, dtype='f')))


def case_dist_one_hot_categorical(F, np, rng):
    return _dist(lambda D, np: D.OneHotCategorical(_p(2, 4) / _p(2, 4).sum(1, keepdims=True)))


def case_dist_pareto(F, np, rng):
    return _dist(lambda D, np: D.Pareto(_p(3), _p(3) + 1))


def case_dist_poisson(F, np, rng):
    return _dist(lambda D, np: D.Poisson(_p(3) * 4))


def case_dist_uniform(F, np, rng):
    return _dist(lambda D, np: D.Uniform(low=_x(3), high=_x(3) + 1))


def case_dist_independent(F, np, rng):
    return _dist(lambda D, np: D.Independent(D.Normal(_x(2, 3), _p(2, 3))))


# shuffles

def _order(fn):
    def run():
        np = _np()
        np.random.seed(0)
        out = fn(np)
        out = out if isinstance(out, tuple) else (out,)
        return tuple(np.asarray(o) for o in out) + (np.array([np.random.randint(2 ** 31)]),)
    return run, (), {}, NB


def _batches(it, n=7):
    out = [_np().asarray(next(it)).ravel() for _ in range(n)]
    it.finalize()
    return _np().concatenate(out)


def _iters():
    import chainer
    return chainer.iterators


def case_serial_iterator_shuffle(F, np, rng):
    return _order(lambda np: _batches(_iters().SerialIterator(np.arange(10), 4, shuffle=True)))


def case_serial_iterator_shuffle_reset(F, np, rng):
    def fn(np):
        it = _iters().SerialIterator(np.arange(10), 4, shuffle=True)
        a = np.asarray(next(it))
        it.reset()
        return a, _batches(it, 4)
    return _order(fn)


def case_serial_iterator_sampler(F, np, rng):
    return _order(lambda np: _batches(_iters().SerialIterator(
        np.arange(10), 3, order_sampler=_iters().ShuffleOrderSampler(np.random.RandomState(3)))))


def case_shuffle_order_sampler(F, np, rng):
    def fn(np):
        s = _iters().ShuffleOrderSampler()
        t = _iters().ShuffleOrderSampler(np.random.RandomState(2))
        return s(np.arange(6), 0), s(np.arange(6), 6), t(np.arange(5), 0)
    return _order(fn)


def case_multiprocess_iterator_shuffle(F, np, rng):
    return _order(lambda np: _batches(_iters().MultiprocessIterator(
        np.arange(10), 4, shuffle=True, n_processes=1)))


def case_multithread_iterator_shuffle(F, np, rng):
    return _order(lambda np: _batches(_iters().MultithreadIterator(
        np.arange(10), 4, shuffle=True)))


def _sizes_and_union(parts):
    np = _np()
    return np.array([len(p) for p in parts]), np.sort(np.concatenate(parts))


def case_split_dataset_random_global(F, np, rng):
    # seed=None: a fresh unseeded RandomState in both (not NumPy's global stream, which
    # stays untouched), so only the sizes, the union and the next global draw compare.
    import chainer
    return _order(lambda np: _sizes_and_union(
        [np.array(list(d)) for d in chainer.datasets.split_dataset_random(np.arange(12), 5)]))


def case_split_dataset_random_seed(F, np, rng):
    import chainer
    return _order(lambda np: tuple(np.array(list(d)) for d in
                                   chainer.datasets.split_dataset_random(np.arange(12), 5, 3)))


def case_split_dataset_n_random(F, np, rng):
    import chainer
    return _order(lambda np: _sizes_and_union(
        [np.array(list(d)) for d in chainer.datasets.split_dataset_n_random(np.arange(12), 3)]))


def case_split_dataset_n_random_seed(F, np, rng):
    import chainer
    return _order(lambda np: tuple(np.array(list(d)) for d in
                                   chainer.datasets.split_dataset_n_random(np.arange(12), 3, 6)))


def case_cross_validation_random(F, np, rng):
    import chainer

    def fn(np):
        folds = chainer.datasets.get_cross_validation_datasets_random(np.arange(10), 3)
        return _sizes_and_union([np.array(list(v)) for _, v in folds])
    return _order(fn)


def case_cross_validation_random_seed(F, np, rng):
    import chainer

    def fn(np):
        folds = chainer.datasets.get_cross_validation_datasets_random(np.arange(10), 3, seed=4)
        return tuple(np.array(list(d)) for pair in folds for d in pair)
    return _order(fn)
