"""Caffe model support (``chainer.links.caffe``): needs ``protobuf`` (the ``caffe`` extra).

Importing this package without protobuf raises an ImportError naming the extra;
``chainer.links`` itself does not import it.
"""

from chainer.links.caffe.caffe_function import CaffeFunction

__all__ = ['CaffeFunction']
