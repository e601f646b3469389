"""Testing utilities (``chainer.testing``)."""

from chainer.testing.array import assert_allclose
