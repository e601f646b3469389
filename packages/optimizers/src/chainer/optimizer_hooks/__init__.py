"""Optimizer hooks (``chainer.optimizer_hooks``): weight decay, gradient clipping, ..."""

from chainer.optimizer_hooks.gradient_clipping import GradientClipping
from chainer.optimizer_hooks.gradient_hard_clipping import GradientHardClipping
from chainer.optimizer_hooks.gradient_lars import GradientLARS
from chainer.optimizer_hooks.gradient_noise import GradientNoise
from chainer.optimizer_hooks.lasso import Lasso
from chainer.optimizer_hooks.weight_decay import WeightDecay

__all__ = ['GradientClipping', 'GradientHardClipping', 'GradientLARS', 'GradientNoise',
           'Lasso', 'WeightDecay']
