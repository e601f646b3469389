"""Converters of chainer.functions.noise."""

from __future__ import annotations
