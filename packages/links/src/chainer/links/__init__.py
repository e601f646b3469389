"""Parameterized layers (``chainer.links``, usually imported as ``L``)."""

from chainer.links.activation.maxout import Maxout
from chainer.links.activation.prelu import PReLU
from chainer.links.activation.simplified_dropconnect import SimplifiedDropconnect
from chainer.links.activation.swish import Swish
from chainer.links.connection.bias import Bias
from chainer.links.connection.bilinear import Bilinear
from chainer.links.connection.convolution_2d import Convolution2D
from chainer.links.connection.convolution_nd import Convolution1D, Convolution3D, ConvolutionND
from chainer.links.connection.deconvolution_2d import Deconvolution2D
from chainer.links.connection.deconvolution_nd import (
    Deconvolution1D,
    Deconvolution3D,
    DeconvolutionND,
)
from chainer.links.connection.deformable_convolution_2d import DeformableConvolution2D
from chainer.links.connection.depthwise_convolution_2d import DepthwiseConvolution2D
from chainer.links.connection.dilated_convolution_2d import DilatedConvolution2D
from chainer.links.connection.embed_id import EmbedID
from chainer.links.connection.highway import Highway
from chainer.links.connection.inception import Inception
from chainer.links.connection.linear import Linear
from chainer.links.connection.local_convolution_2d import LocalConvolution2D
from chainer.links.connection.mlp_convolution_2d import MLPConvolution2D
from chainer.links.connection.parameter import Parameter
from chainer.links.connection.scale import Scale
from chainer.links.loss.black_out import BlackOut
from chainer.links.loss.crf1d import CRF1d
from chainer.links.loss.hierarchical_softmax import BinaryHierarchicalSoftmax
from chainer.links.loss.negative_sampling import NegativeSampling
from chainer.links.model.classifier import Classifier
from chainer.links.theano.theano_function import TheanoFunction

__all__ = [
    'Bias', 'Bilinear', 'BinaryHierarchicalSoftmax', 'BlackOut', 'CRF1d', 'Classifier',
    'Convolution1D', 'Convolution2D', 'Convolution3D', 'ConvolutionND', 'Deconvolution1D',
    'Deconvolution2D', 'Deconvolution3D', 'DeconvolutionND', 'DeformableConvolution2D',
    'DepthwiseConvolution2D', 'DilatedConvolution2D', 'EmbedID', 'Highway', 'Inception',
    'Linear', 'LocalConvolution2D', 'MLPConvolution2D', 'Maxout', 'NegativeSampling',
    'PReLU', 'Parameter', 'Scale', 'SimplifiedDropconnect', 'Swish', 'TheanoFunction',
]

# -- part B: normalization, recurrent and vision model links ------------------------------
from chainer.links.connection.inceptionbn import InceptionBN
from chainer.links.model.vision.googlenet import GoogLeNet
from chainer.links.model.vision.resnet import ResNet50Layers, ResNet101Layers, ResNet152Layers
from chainer.links.model.vision.vgg import VGG16Layers, VGG19Layers
from chainer.links.normalization.batch_normalization import BatchNormalization
from chainer.links.normalization.batch_renormalization import BatchRenormalization
from chainer.links.normalization.decorrelated_batch_normalization import (
    DecorrelatedBatchNormalization,
)
from chainer.links.normalization.group_normalization import GroupNormalization
from chainer.links.normalization.layer_normalization import LayerNormalization
from chainer.links.rnn.gru import GRU, StatefulGRU, StatelessGRU
from chainer.links.rnn.lstm import LSTM, StatelessLSTM
from chainer.links.rnn.mgu import StatefulMGU, StatelessMGU
from chainer.links.rnn.n_step_gru import NStepBiGRU, NStepGRU
from chainer.links.rnn.n_step_lstm import NStepBiLSTM, NStepLSTM
from chainer.links.rnn.n_step_rnn import (
    NStepBiRNNReLU,
    NStepBiRNNTanh,
    NStepRNNReLU,
    NStepRNNTanh,
)
from chainer.links.rnn.peephole import StatefulPeepholeLSTM
from chainer.links.rnn.tree_lstm import ChildSumTreeLSTM, NaryTreeLSTM
from chainer.links.rnn.zoneoutlstm import StatefulZoneoutLSTM

__all__ += [
    'BatchNormalization', 'BatchRenormalization', 'DecorrelatedBatchNormalization',
    'GroupNormalization', 'LayerNormalization',
    'GRU', 'StatefulGRU', 'StatelessGRU', 'LSTM', 'StatelessLSTM', 'StatefulMGU',
    'StatelessMGU', 'NStepBiGRU', 'NStepGRU', 'NStepBiLSTM', 'NStepLSTM', 'NStepBiRNNReLU',
    'NStepBiRNNTanh', 'NStepRNNReLU', 'NStepRNNTanh', 'StatefulPeepholeLSTM',
    'ChildSumTreeLSTM', 'NaryTreeLSTM', 'StatefulZoneoutLSTM',
    'InceptionBN', 'GoogLeNet', 'ResNet50Layers', 'ResNet101Layers', 'ResNet152Layers',
    'VGG16Layers', 'VGG19Layers',
]
