"""Link hooks (``chainer.link_hooks``): SpectralNormalization, TimerHook,
WeightStandardization."""

from chainer.link_hooks.spectral_normalization import SpectralNormalization
from chainer.link_hooks.timer import TimerHook
from chainer.link_hooks.weight_standardization import WeightStandardization

__all__ = ['SpectralNormalization', 'TimerHook', 'WeightStandardization']
