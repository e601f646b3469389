"""Converters of chainer.functions.pooling."""

from __future__ import annotations
