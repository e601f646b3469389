"""Theano integration (``chainer.links.theano``): not provided, Theano is unmaintained."""
