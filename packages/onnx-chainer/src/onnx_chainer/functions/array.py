"""Converters of chainer.functions.array."""

from __future__ import annotations
