"""The part of a fake cudnn-frontend module that the CPU tests of chainer._cudnn and
chainer._cudnn_bn share: its enums, handles and streams. Each test module gives it the
graph class that computes its operations (``graph_class``)."""

import types


class FakeFrontendBase:
    """A stand-in for the ``cudnn`` module: ``pygraph(**kw)`` makes a ``graph_class``."""

    graph_class: type
    data_type = types.SimpleNamespace(HALF='half', FLOAT='float', DOUBLE='double')
    heur_mode = types.SimpleNamespace(A='A', FALLBACK='FALLBACK')
    numerical_note = types.SimpleNamespace(NONDETERMINISTIC='nondet', TENSOR_CORE='tc')

    def __init__(self):
        self.graphs = []  # every graph made, in order
        self.unsupported = False  # True: graphs refuse to build (cuDNN's NOT_SUPPORTED)

    def create_handle(self):
        return 'handle'

    def set_stream(self, handle, stream):
        pass

    def pygraph(self, **kw):
        return self.graph_class(self, **kw)


class FakeTensorBase:
    """A graph tensor: the setters cuDNN's tensor attributes have, recording what they
    set and returning the tensor (as the frontend's do, for chaining)."""

    dim = stride = data_type = None

    def set_output(self, flag):
        self.output = flag
        return self

    def set_dim(self, dim):
        self.dim = dim
        return self

    def set_stride(self, stride):
        self.stride = stride
        return self

    def set_data_type(self, data_type):
        self.data_type = data_type
        return self
