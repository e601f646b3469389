"""Converters of chainer.functions.loss."""

from __future__ import annotations
