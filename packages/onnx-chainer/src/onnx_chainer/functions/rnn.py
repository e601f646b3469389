"""Converters of chainer.functions.rnn."""

from __future__ import annotations
