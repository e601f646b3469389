"""The ChainerX device, at the module path Chainer v7 defined it in.

:class:`ChainerxDevice` is :class:`chainer.backend.ChainerxDevice`; ``to_chx`` and
``from_chx`` convert arrays to and from ChainerX without copying.
"""

from __future__ import annotations

from chainer.backend import ChainerxDevice, from_chx, to_chx

__all__ = ['ChainerxDevice', 'from_chx', 'to_chx']
