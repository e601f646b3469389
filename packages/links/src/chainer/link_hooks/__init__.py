"""Link hooks (``chainer.link_hooks``): TimerHook."""

from chainer.link_hooks.timer import TimerHook

__all__ = ['TimerHook']
