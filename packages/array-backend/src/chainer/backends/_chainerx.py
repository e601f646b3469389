"""The ChainerX device, at the module path Chainer v7 defined it in.

ChainerX is not provided as a backend here: :class:`ChainerxDevice` is
:class:`chainer.backend.ChainerxDevice` (constructing one raises RuntimeError), and
``to_chx`` / ``from_chx`` return arrays as they are (no array is a ChainerX array).
"""

from __future__ import annotations

from chainer.backend import ChainerxDevice, from_chx, to_chx

__all__ = ['ChainerxDevice', 'from_chx', 'to_chx']
