"""Seeded initial parameters of every link equal Chainer 7.8.1's, bit for bit.

Each case seeds NumPy with 0, builds the link twice (lazy ones called once on a fixed
input) and compares, for each build, a SHA-256 prefix of all its parameters
(``namedparams()`` order: name, dtype, shape, bytes) and the next draw of NumPy's global
stream (how much the build drew) with the values recorded from Chainer 7.8.1
(``tools/compat/record_seeded.py``; ``tools/compat/cases/init_seed.py`` compares the
parameters themselves).
"""

import hashlib

import numpy
import pytest

import chainer
import chainer.links as L
from chainer import initializers as I


def _x(*shape):
    return numpy.random.RandomState(100).randn(*shape).astype(numpy.float32)


def _called(link, *xs):
    link(*xs)
    return link


def _tree():
    return L.BinaryHierarchicalSoftmax.create_huffman_tree({0: 3, 1: 2, 2: 1, 3: 4})


def _with_dtype(dtype, build):
    def run():
        with chainer.using_config('dtype', dtype):
            return build()
    return run


CASES = {
    'Linear': lambda: L.Linear(3, 4),
    'Linear_nobias_uniform': lambda: L.Linear(3, 4, nobias=True, initialW=I.Uniform(2)),
    'Linear_lazy': lambda: _called(L.Linear(None, 3), _x(2, 5)),
    'Linear_out_only_lazy': lambda: _called(L.Linear(3), _x(2, 5)),
    'Linear_float64': _with_dtype(numpy.float64, lambda: L.Linear(3, 4)),
    'Linear_float16': _with_dtype(numpy.float16,
                                  lambda: L.Linear(3, 4, initial_bias=I.Normal())),
    'Convolution1D': lambda: L.Convolution1D(2, 3, 3),
    'Convolution2D': lambda: L.Convolution2D(2, 3, 3),
    'Convolution2D_groups': lambda: L.Convolution2D(4, 6, 3, groups=2),
    'Convolution2D_lazy': lambda: _called(L.Convolution2D(None, 3, 3), _x(1, 2, 5, 5)),
    'Convolution2D_two_args_lazy': lambda: _called(L.Convolution2D(3, 2), _x(1, 2, 5, 5)),
    'Convolution3D': lambda: L.Convolution3D(2, 3, 2),
    'ConvolutionND': lambda: L.ConvolutionND(2, 2, 3, 3),
    'ConvolutionND_lazy': lambda: _called(L.ConvolutionND(1, None, 3, 2), _x(1, 2, 5)),
    'Deconvolution1D': lambda: L.Deconvolution1D(2, 3, 3),
    'Deconvolution2D': lambda: L.Deconvolution2D(2, 3, 3),
    'Deconvolution2D_groups': lambda: L.Deconvolution2D(4, 6, 3, groups=2),
    'Deconvolution2D_lazy': lambda: _called(L.Deconvolution2D(None, 3, 3), _x(1, 2, 4, 4)),
    'Deconvolution3D': lambda: L.Deconvolution3D(2, 3, 2),
    'DeconvolutionND': lambda: L.DeconvolutionND(2, 2, 3, 3),
    'DeconvolutionND_lazy': lambda: _called(L.DeconvolutionND(1, None, 3, 2), _x(1, 2, 5)),
    'DepthwiseConvolution2D': lambda: L.DepthwiseConvolution2D(2, 3, 3),
    'DepthwiseConvolution2D_lazy': lambda: _called(L.DepthwiseConvolution2D(None, 2, 3),
                                                   _x(1, 2, 5, 5)),
    'DilatedConvolution2D': lambda: L.DilatedConvolution2D(2, 3, 3, dilate=2),
    'DilatedConvolution2D_lazy': lambda: _called(L.DilatedConvolution2D(None, 3, 3),
                                                 _x(1, 2, 5, 5)),
    'LocalConvolution2D': lambda: L.LocalConvolution2D(2, 3, in_size=(5, 5), ksize=3),
    'LocalConvolution2D_lazy': lambda: _called(L.LocalConvolution2D(None, 3, ksize=3),
                                               _x(1, 2, 5, 5)),
    'DeformableConvolution2D': lambda: L.DeformableConvolution2D(2, 3, 3),
    'DeformableConvolution2D_lazy': lambda: _called(L.DeformableConvolution2D(None, 3, 3),
                                                    _x(1, 2, 5, 5)),
    'MLPConvolution2D': lambda: L.MLPConvolution2D(2, (3, 4), 3),
    'MLPConvolution2D_lazy': lambda: _called(L.MLPConvolution2D(None, (3, 4), 3),
                                             _x(1, 2, 5, 5)),
    'Inception': lambda: L.Inception(3, 2, 2, 3, 2, 3, 2),
    'InceptionBN': lambda: L.InceptionBN(3, 2, 2, 3, 2, 3, 'max', 2),
    'EmbedID': lambda: L.EmbedID(5, 3),
    'Bias': lambda: L.Bias(shape=(3,)),
    'Scale': lambda: L.Scale(W_shape=(3,), bias_term=True),
    'Bilinear': lambda: L.Bilinear(2, 3, 4),
    'Highway': lambda: L.Highway(4),
    'Highway_inits': lambda: L.Highway(3, init_Wh=I.Uniform(), init_Wt=I.GlorotNormal(),
                                       init_bh=I.Normal()),
    'Maxout': lambda: L.Maxout(3, 2, 3),
    'PReLU': lambda: L.PReLU((3,)),
    'Swish': lambda: L.Swish((3,)),
    'Swish_lazy': lambda: _called(L.Swish(None), _x(2, 3)),
    'SimplifiedDropconnect': lambda: L.SimplifiedDropconnect(3, 4),
    'SimplifiedDropconnect_lazy': lambda: _called(L.SimplifiedDropconnect(None, 4),
                                                  _x(2, 3)),
    'Parameter': lambda: L.Parameter(numpy.arange(6, dtype=numpy.float32).reshape(2, 3)),
    'BatchNormalization': lambda: L.BatchNormalization(3),
    'BatchNormalization_inits': lambda: L.BatchNormalization(
        3, initial_gamma=I.Normal(), initial_beta=I.Uniform()),
    'BatchRenormalization': lambda: L.BatchRenormalization(3),
    'DecorrelatedBatchNormalization': lambda: L.DecorrelatedBatchNormalization(4, groups=2),
    'GroupNormalization': lambda: L.GroupNormalization(2, 4),
    'GroupNormalization_lazy': lambda: _called(L.GroupNormalization(2), _x(2, 4, 3)),
    'LayerNormalization': lambda: L.LayerNormalization(4),
    'LayerNormalization_lazy': lambda: _called(L.LayerNormalization(), _x(2, 4)),
    'BinaryHierarchicalSoftmax': lambda: L.BinaryHierarchicalSoftmax(3, _tree()),
    'BlackOut': lambda: L.BlackOut(3, [3, 2, 1, 4], 2),
    'NegativeSampling': lambda: L.NegativeSampling(3, [3, 2, 1, 4], 2),
    'CRF1d': lambda: L.CRF1d(3),
    'Classifier': lambda: L.Classifier(L.Linear(3, 2)),
    'LSTM': lambda: L.LSTM(3, 4),
    'LSTM_out_only_lazy': lambda: _called(L.LSTM(4), _x(2, 3)),
    'LSTM_lazy': lambda: _called(L.LSTM(None, 4), _x(2, 3)),
    'LSTM_inits': lambda: L.LSTM(3, 2, lateral_init=I.Uniform(), upward_init=I.Normal(),
                                 bias_init=I.Normal(), forget_bias_init=I.Uniform()),
    'LSTM_inits_lazy': lambda: _called(L.LSTM(None, 2, lateral_init=I.Uniform(),
                                              upward_init=I.Normal(), bias_init=I.Normal(),
                                              forget_bias_init=I.Uniform()), _x(2, 3)),
    'StatelessLSTM': lambda: L.StatelessLSTM(3, 4),
    'StatelessLSTM_lazy': lambda: _called(L.StatelessLSTM(None, 4), None, None, _x(2, 3)),
    'StatefulPeepholeLSTM': lambda: L.StatefulPeepholeLSTM(3, 4),
    'StatefulZoneoutLSTM': lambda: L.StatefulZoneoutLSTM(3, 4),
    'GRU': lambda: L.GRU(3, 4),
    'StatefulGRU': lambda: L.StatefulGRU(3, 4),
    'StatelessGRU': lambda: L.StatelessGRU(3, 4),
    'StatefulMGU': lambda: L.StatefulMGU(3, 4),
    'StatelessMGU': lambda: L.StatelessMGU(3, 4),
    'ChildSumTreeLSTM': lambda: L.ChildSumTreeLSTM(3, 4),
    'NaryTreeLSTM': lambda: L.NaryTreeLSTM(3, 4, n_ary=3),
    'NStepLSTM': lambda: L.NStepLSTM(2, 3, 4, 0.5),
    'NStepBiLSTM': lambda: L.NStepBiLSTM(2, 3, 4, 0.5),
    'NStepGRU': lambda: L.NStepGRU(2, 3, 4, 0.5),
    'NStepBiGRU': lambda: L.NStepBiGRU(2, 3, 4, 0.5),
    'NStepRNNTanh': lambda: L.NStepRNNTanh(2, 3, 4, 0.5),
    'NStepRNNReLU': lambda: L.NStepRNNReLU(2, 3, 4, 0.5),
    'NStepBiRNNTanh': lambda: L.NStepBiRNNTanh(2, 3, 4, 0.5),
    'NStepBiRNNReLU': lambda: L.NStepBiRNNReLU(2, 3, 4, 0.5),
    'NStepLSTM_inits': lambda: L.NStepLSTM(1, 3, 2, 0.0, initialW=I.Uniform(),
                                           initial_bias=I.Normal()),
}

# Built once (large).
ZOO = {
    'VGG16Layers': lambda: L.VGG16Layers(pretrained_model=None),
    'VGG19Layers': lambda: L.VGG19Layers(pretrained_model=None),
    'ResNet50Layers': lambda: L.ResNet50Layers(pretrained_model=None),
    'ResNet101Layers': lambda: L.ResNet101Layers(pretrained_model=None),
    'ResNet152Layers': lambda: L.ResNet152Layers(pretrained_model=None),
    'GoogLeNet': lambda: L.GoogLeNet(pretrained_model=None),
}


def digest(link):
    """SHA-256 prefix of the parameters in ``namedparams()`` order."""
    h = hashlib.sha256()
    for name, p in link.namedparams():
        a = numpy.ascontiguousarray(p.array)
        h.update(f'{name} {a.dtype.str} {a.shape};'.encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def summarize(name):
    """``(digest, next draw)`` per build: two builds for CASES, one for ZOO."""
    numpy.random.seed(0)
    out = []
    for _ in range(2 if name in CASES else 1):
        link = (CASES.get(name) or ZOO[name])()
        out.append((digest(link), int(numpy.random.randint(2 ** 31))))
    return out


NAMES = sorted(CASES) + sorted(ZOO)

# Recorded with Chainer 7.8.1 (tools/compat/record_seeded.py).
RECORDED = {
    'BatchNormalization': [('37388d0723cb50c5', 209652396), ('37388d0723cb50c5', 398764591)],
    'BatchNormalization_inits': [('6bdbc8977163c57e', 1682652230),
                                 ('a96b993fe7e41f07', 1686997841)],
    'BatchRenormalization': [('37388d0723cb50c5', 209652396), ('37388d0723cb50c5', 398764591)],
    'Bias': [('a37efd367ee2521c', 209652396), ('a37efd367ee2521c', 398764591)],
    'Bilinear': [('f5b9e234de375626', 2097549636), ('9ff1a4853aa377d4', 1681713475)],
    'BinaryHierarchicalSoftmax': [('005276e5ecd7b230', 1646868794),
                                  ('68943186a3132f4e', 602801999)],
    'BlackOut': [('e7d28616fa830578', 209652396), ('e7d28616fa830578', 398764591)],
    'CRF1d': [('b68dcd99b1638c74', 209652396), ('b68dcd99b1638c74', 398764591)],
    'ChildSumTreeLSTM': [('18d082abfb8d71f9', 653278589), ('27c84412c583bdde', 895707479)],
    'Classifier': [('d938e28a525b76e8', 1879422756), ('41d0ec0390916eb0', 1686997841)],
    'Convolution1D': [('68a539fab2269f82', 507984782), ('18a5672e56fb99c3', 426405863)],
    'Convolution2D': [('5da875ae0f8862f9', 1378655429), ('8f76e9f06f4bd834', 1070176297)],
    'Convolution2D_groups': [('1b6f31d0cbab6228', 300497007), ('41b20e29b349ddff', 938033090)],
    'Convolution2D_lazy': [('5da875ae0f8862f9', 1378655429), ('8f76e9f06f4bd834', 1070176297)],
    'Convolution2D_two_args_lazy': [('0d2a42779b2a84af', 1959150775),
                                    ('655c3566f8c20e0a', 1451731663)],
    'Convolution3D': [('92fd96faeaf600f0', 2002789519), ('83c21e6dd3ac206d', 1072866832)],
    'ConvolutionND': [('5da875ae0f8862f9', 1378655429), ('8f76e9f06f4bd834', 1070176297)],
    'ConvolutionND_lazy': [('def7e05337bb3098', 292249176), ('be1392b92c194f09', 160516793)],
    'Deconvolution1D': [('4c12f6732632c004', 507984782), ('2d9168ee08a2d1ab', 426405863)],
    'Deconvolution2D': [('8a7aa63f449e0fcf', 1378655429), ('1624f6e6f8f62d52', 1070176297)],
    'Deconvolution2D_groups': [('e815acaf43df2b2d', 300497007), ('9a47a3b1a4e426b1', 938033090)],
    'Deconvolution2D_lazy': [('8a7aa63f449e0fcf', 1378655429), ('1624f6e6f8f62d52', 1070176297)],
    'Deconvolution3D': [('b266c916284e42b9', 2002789519), ('8da0cbf862269bf3', 1072866832)],
    'DeconvolutionND': [('8a7aa63f449e0fcf', 1378655429), ('1624f6e6f8f62d52', 1070176297)],
    'DeconvolutionND_lazy': [('7f5233ad6a6f85f8', 292249176), ('5f4167b9b8ba06d1', 160516793)],
    'DecorrelatedBatchNormalization': [('e3b0c44298fc1c14', 209652396),
                                       ('e3b0c44298fc1c14', 398764591)],
    'DeformableConvolution2D': [('1847a32b18b8b13d', 2036914942),
                                ('e90cd93d6cd16385', 1522394221)],
    'DeformableConvolution2D_lazy': [('1847a32b18b8b13d', 2036914942),
                                     ('e90cd93d6cd16385', 1522394221)],
    'DepthwiseConvolution2D': [('e5afd84b0fdd7844', 1378655429), ('0c47be2caad35507', 1070176297)],
    'DepthwiseConvolution2D_lazy': [('b2a049371c18d6fc', 716257571),
                                    ('18bc3ad60bec38ef', 40186728)],
    'DilatedConvolution2D': [('5da875ae0f8862f9', 1378655429), ('8f76e9f06f4bd834', 1070176297)],
    'DilatedConvolution2D_lazy': [('5da875ae0f8862f9', 1378655429),
                                  ('8f76e9f06f4bd834', 1070176297)],
    'EmbedID': [('bcb3ffe533ba8a9c', 2055650130), ('3f5bc5d34fbc9c2d', 1392175012)],
    'GRU': [('2d8d5db7194012aa', 395317064), ('606be61dfe13db14', 2016475066)],
    'GroupNormalization': [('0ec150da6ad79401', 209652396), ('0ec150da6ad79401', 398764591)],
    'GroupNormalization_lazy': [('0ec150da6ad79401', 209652396), ('0ec150da6ad79401', 398764591)],
    'Highway': [('dacbb508294b7d7c', 1544074682), ('c894e97b8aaf20dd', 1634131518)],
    'Highway_inits': [('2f7f405bc9f1d81d', 1909838463), ('114e972d0c408912', 165035946)],
    'Inception': [('4aefb26b3992f37d', 1430847551), ('acfbd1ce04bb6260', 1765205750)],
    'InceptionBN': [('f2df2d7e72d33960', 506276537), ('5e6de2213c721cb3', 638224880)],
    'LSTM': [('e3644a061bfb4672', 653278589), ('b53b860acf472ce0', 895707479)],
    'LSTM_inits': [('992059505eb0a87f', 657595236), ('2781928d461f3645', 1681713475)],
    'LSTM_inits_lazy': [('992059505eb0a87f', 657595236), ('2781928d461f3645', 1681713475)],
    'LSTM_lazy': [('e3644a061bfb4672', 653278589), ('b53b860acf472ce0', 895707479)],
    'LSTM_out_only_lazy': [('e3644a061bfb4672', 653278589), ('b53b860acf472ce0', 895707479)],
    'LayerNormalization': [('0ec150da6ad79401', 209652396), ('0ec150da6ad79401', 398764591)],
    'LayerNormalization_lazy': [('0ec150da6ad79401', 209652396), ('0ec150da6ad79401', 398764591)],
    'Linear': [('cab5bc1f32c98675', 292249176), ('9f4e66dec6ca3f45', 160516793)],
    'Linear_float16': [('002439df2f23a94d', 2055650130), ('ac6bddb404289a5b', 954863080)],
    'Linear_float64': [('5170c69234ccb214', 292249176), ('dbab2ba4e896a65e', 160516793)],
    'Linear_lazy': [('e8bfccdb137e626b', 2055650130), ('3d55fc597abc57c5', 1392175012)],
    'Linear_nobias_uniform': [('e8f926238b01d917', 292249176), ('31cb74d22c29fa04', 947610023)],
    'Linear_out_only_lazy': [('e8bfccdb137e626b', 2055650130), ('3d55fc597abc57c5', 1392175012)],
    'LocalConvolution2D': [('c9338f1275236cd3', 1172884933), ('a0875330e7da5d05', 1353009626)],
    'LocalConvolution2D_lazy': [('c9338f1275236cd3', 1172884933),
                                ('a0875330e7da5d05', 1353009626)],
    'MLPConvolution2D': [('278bee6bf8024be2', 286051043), ('a63634c64af7d2e5', 2102596696)],
    'MLPConvolution2D_lazy': [('18a0659552da6068', 286051043), ('7e607c0389846b88', 2102596696)],
    'Maxout': [('e0de715089c86d15', 507984782), ('1c3ea803b867a4d5', 426405863)],
    'NStepBiGRU': [('714f7273c70c3b52', 1307587184), ('923153874f4ae039', 1737055525)],
    'NStepBiLSTM': [('7c94e0d3d33e18f6', 171767792), ('66aaf161d05f7815', 1594347604)],
    'NStepBiRNNReLU': [('ab5f742f5ccb7a1a', 976738395), ('64a2b27a97d812c5', 1875811836)],
    'NStepBiRNNTanh': [('ab5f742f5ccb7a1a', 976738395), ('64a2b27a97d812c5', 1875811836)],
    'NStepGRU': [('b747272151d06ad2', 891077203), ('09941b3d00309f81', 1654582134)],
    'NStepLSTM': [('4c878d54d29d7d80', 1161049505), ('e58c1f463c10d02d', 738910716)],
    'NStepLSTM_inits': [('0c7bce527f4ad010', 844314793), ('3bf3b56e436b795d', 990131795)],
    'NStepRNNReLU': [('a5f8acdf322f03c1', 1271912471), ('0fe26064c2f198d0', 1198514997)],
    'NStepRNNTanh': [('a5f8acdf322f03c1', 1271912471), ('0fe26064c2f198d0', 1198514997)],
    'NaryTreeLSTM': [('e52e2d35733ca4a5', 10262637), ('6af9ac48f303761b', 1561118492)],
    'NegativeSampling': [('198c02e0dc650a54', 209652396), ('198c02e0dc650a54', 398764591)],
    'PReLU': [('6e08abf4c81352f6', 209652396), ('6e08abf4c81352f6', 398764591)],
    'Parameter': [('3d5a5d7522f9e8e0', 209652396), ('3d5a5d7522f9e8e0', 398764591)],
    'Scale': [('9a4622417dbba23a', 209652396), ('9a4622417dbba23a', 398764591)],
    'SimplifiedDropconnect': [('cab5bc1f32c98675', 292249176), ('9f4e66dec6ca3f45', 160516793)],
    'SimplifiedDropconnect_lazy': [('cab5bc1f32c98675', 481447462),
                                   ('77142e31e164d6a2', 85846399)],
    'StatefulGRU': [('2d8d5db7194012aa', 395317064), ('606be61dfe13db14', 2016475066)],
    'StatefulMGU': [('d6eae26ff968ca4a', 2047673293), ('c296c168a8954765', 144418678)],
    'StatefulPeepholeLSTM': [('8f366d42d0f593c3', 105994333), ('ab5743f88413c58c', 395255461)],
    'StatefulZoneoutLSTM': [('b6e455d1e10c87e8', 653278589), ('b8609c02cb914829', 895707479)],
    'StatelessGRU': [('2d8d5db7194012aa', 395317064), ('606be61dfe13db14', 2016475066)],
    'StatelessLSTM': [('e3644a061bfb4672', 653278589), ('b53b860acf472ce0', 895707479)],
    'StatelessLSTM_lazy': [('e3644a061bfb4672', 653278589), ('b53b860acf472ce0', 895707479)],
    'StatelessMGU': [('d6eae26ff968ca4a', 2047673293), ('c296c168a8954765', 144418678)],
    'Swish': [('9e9fdfcb49321b41', 209652396), ('9e9fdfcb49321b41', 398764591)],
    'Swish_lazy': [('9e9fdfcb49321b41', 209652396), ('9e9fdfcb49321b41', 398764591)],
    'GoogLeNet': [('768a6e7c5ab32406', 255695749)],
    'ResNet101Layers': [('7439eeab736ef801', 712051178)],
    'ResNet152Layers': [('994dc50c3a2ccfc3', 1127672187)],
    'ResNet50Layers': [('5ce80ce4f9757e49', 1711912241)],
    'VGG16Layers': [('7b18d1484697e809', 583448602)],
    'VGG19Layers': [('689eb0b12d73e71f', 238272919)],
}


@pytest.mark.parametrize('name', NAMES)
def test_seeded_parameters_match_chainer_v7(name):
    assert summarize(name) == RECORDED[name]


def test_lstm_draws_gate_blocks_alternating_lateral_and_upward():
    # Chainer v7 draws block k of lateral.W, then block k of upward.W, for each gate.
    numpy.random.seed(0)
    link = L.LSTM(3, 2)
    numpy.random.seed(0)
    expected_lateral = numpy.empty((8, 2), numpy.float32)
    expected_upward = numpy.empty((8, 3), numpy.float32)
    for k in range(0, 8, 2):
        I.LeCunNormal()(expected_lateral[k:k + 2])
        I.LeCunNormal()(expected_upward[k:k + 2])
    numpy.testing.assert_array_equal(link.lateral.W.array, expected_lateral)
    numpy.testing.assert_array_equal(link.upward.W.array, expected_upward)
