"""Theano integration (``chainer.functions.theano``): not provided, Theano is unmaintained."""
