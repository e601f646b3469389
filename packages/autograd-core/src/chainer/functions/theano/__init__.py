"""Theano integration (``chainer.functions.theano``): applying compiled function pairs.

Theano itself is unmaintained and not integrated (``L.TheanoFunction`` refuses); see
:mod:`chainer.functions.theano.theano_function`.
"""

from chainer.functions.theano import theano_function as theano_function
