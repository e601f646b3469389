"""Utility functions."""

from chainer.functions.util.forget import forget

__all__ = ['forget']
