"""Optimizers (``chainer.optimizers``): every optimizer of Chainer v7."""

from chainer.optimizers.ada_delta import AdaDelta
from chainer.optimizers.ada_grad import AdaGrad
from chainer.optimizers.adam import AdaBound, Adam, AdamW, AMSBound, AMSGrad
from chainer.optimizers.corrected_momentum_sgd import CorrectedMomentumSGD
from chainer.optimizers.momentum_sgd import MomentumSGD
from chainer.optimizers.msvag import MSVAG
from chainer.optimizers.nesterov_ag import NesterovAG
from chainer.optimizers.rmsprop import RMSprop
from chainer.optimizers.rmsprop_graves import RMSpropGraves
from chainer.optimizers.sgd import SGD
from chainer.optimizers.smorms3 import SMORMS3

__all__ = ['AMSBound', 'AMSGrad', 'AdaBound', 'AdaDelta', 'AdaGrad', 'Adam', 'AdamW',
           'CorrectedMomentumSGD', 'MSVAG', 'MomentumSGD', 'NesterovAG', 'RMSprop',
           'RMSpropGraves', 'SGD', 'SMORMS3']
