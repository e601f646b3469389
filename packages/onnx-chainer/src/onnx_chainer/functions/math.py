"""Converters of chainer.functions.math."""

from __future__ import annotations
