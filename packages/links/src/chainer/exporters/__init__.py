"""Exporters of Chainer models to other frameworks' formats (``chainer.exporters``).

:mod:`chainer.exporters.caffe` writes a computational graph as a Caffe ``prototxt``
and ``caffemodel``; it needs ``protobuf`` (the ``caffe`` extra of chainer-links).
"""
