"""Updaters: objects that run one training iteration."""

from chainer.training.updaters.standard_updater import StandardUpdater

__all__ = ['StandardUpdater']
