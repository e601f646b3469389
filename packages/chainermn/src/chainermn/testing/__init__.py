"""Helpers for tests of multi-node code."""

from chainermn.testing.device import get_device
