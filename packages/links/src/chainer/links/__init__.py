"""Parameterized layers (``chainer.links``, usually imported as ``L``)."""

from chainer.links.connection.linear import Linear
from chainer.links.connection.parameter import Parameter
from chainer.links.model.classifier import Classifier

__all__ = ['Classifier', 'Linear', 'Parameter']

# -- part B: normalization, recurrent and vision model links ------------------------------
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
]
