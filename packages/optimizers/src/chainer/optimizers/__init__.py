"""Optimizers (``chainer.optimizers``): SGD, MomentumSGD and the Adam family."""

from chainer.optimizers.adam import AdaBound, Adam, AdamW, AMSBound, AMSGrad
from chainer.optimizers.momentum_sgd import MomentumSGD
from chainer.optimizers.sgd import SGD

__all__ = ['AMSBound', 'AMSGrad', 'AdaBound', 'Adam', 'AdamW', 'MomentumSGD', 'SGD']
