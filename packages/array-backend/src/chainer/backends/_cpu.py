"""The CPU (NumPy) device, at the module path Chainer v7 defined it in.

Chainer v7 code imports ``from chainer.backends import _cpu`` to reach
:class:`CpuDevice`; it is :class:`chainer.backend.CpuDevice`.
"""

from chainer.backend._device import CpuDevice

__all__ = ['CpuDevice']
