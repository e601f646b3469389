"""Caffe model support (``chainer.links.caffe``): needs ``protobuf`` (the ``caffe`` extra)."""
