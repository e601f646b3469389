"""Converters of chainer.functions.normalization."""

from __future__ import annotations
