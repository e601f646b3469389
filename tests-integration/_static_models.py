"""Static-graph models shared by the static_graph integration tests (a linear+ReLU
stack, an MLP with a lazily initialized first layer, a small CNN for 8x8 images), each
also as a subclass whose forward is under ``chainer.static_graph``."""

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import static_graph


class Stack(chainer.ChainList):
    def forward(self, x):
        for link in self:
            x = F.relu(link(x))
        return x


class StaticStack(Stack):
    forward = static_graph(Stack.forward)


class MLP(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(None, 16)  # initialized by the first (recorded) call
            self.l2 = L.Linear(16, 16)
            self.l3 = L.Linear(16, 4)

    def forward(self, x):
        return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))


class StaticMLP(MLP):
    forward = static_graph(MLP.forward)


class CNN(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.c1 = L.Convolution2D(3, 4, 3, pad=1)
            self.c2 = L.Convolution2D(4, 6, 3, pad=1)
            self.l1 = L.Linear(6 * 2 * 2, 8)
            self.l2 = L.Linear(8, 4)

    def forward(self, x):
        h = F.max_pooling_2d(F.relu(self.c1(x)), 2)
        h = F.max_pooling_2d(F.relu(self.c2(h)), 2)
        return self.l2(F.relu(self.l1(h)))


class StaticCNN(CNN):
    forward = static_graph(CNN.forward)
