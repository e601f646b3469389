"""The workloads written against the Chainer v7 API: run for this project and Chainer 7.8.1."""

from __future__ import annotations

from collections.abc import Callable

import bench_data

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers


def version() -> str:
    """The version string of the ``chainer`` that was imported."""
    return str(getattr(chainer, "__version__", "?"))


def _static(cls: type[chainer.Chain], static: bool) -> type[chainer.Chain]:
    """*cls*, or (*static*) a subclass whose ``forward`` is under ``chainer.static_graph``."""
    if not static:
        return cls
    return type(cls.__name__, (cls,), {"forward": chainer.static_graph(cls.forward)})


def _overhead(static: bool = False) -> tuple[chainer.Link, chainer.Optimizer]:
    if static:
        # Chainer 7.8.1's static_graph takes a Chain (not a ChainList): the same stack,
        # its links registered as attributes and run in order from a plain list
        class Layers(chainer.Chain):
            def __init__(self, *links):
                super().__init__()
                with self.init_scope():
                    for i, link in enumerate(links):
                        setattr(self, f"l{i}", link)
                self.layers = list(links)

            @chainer.static_graph
            def forward(self, x):
                for link in self.layers:
                    x = F.relu(link(x))
                return x

        model = L.Classifier(Layers(*[L.Linear(32, 32) for _ in range(20)]))
        return model, optimizers.SGD(lr=0.01)

    class Stack(chainer.ChainList):
        def forward(self, x):
            for link in self:
                x = F.relu(link(x))
            return x

    model = L.Classifier(Stack(*[L.Linear(32, 32) for _ in range(20)]))
    return model, optimizers.SGD(lr=0.01)


def _mlp(static: bool = False) -> tuple[chainer.Link, chainer.Optimizer]:
    class MLP(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.l1 = L.Linear(784, 1000)
                self.l2 = L.Linear(1000, 1000)
                self.l3 = L.Linear(1000, 10)

        def forward(self, x):
            return self.l3(F.relu(self.l2(F.relu(self.l1(x)))))

    return L.Classifier(_static(MLP, static)()), optimizers.Adam()


def _cnn(static: bool = False) -> tuple[chainer.Link, chainer.Optimizer]:
    class CNN(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.c1 = L.Convolution2D(3, 32, 3, pad=1)
                self.c2 = L.Convolution2D(32, 64, 3, pad=1)
                self.l1 = L.Linear(4096, 256)
                self.l2 = L.Linear(256, 10)

        def forward(self, x):
            h = F.max_pooling_2d(F.relu(self.c1(x)), 2)
            h = F.max_pooling_2d(F.relu(self.c2(h)), 2)
            return self.l2(F.relu(self.l1(h)))

    return L.Classifier(_static(CNN, static)()), optimizers.MomentumSGD(lr=0.01)


def _lstm(static: bool = False) -> tuple[chainer.Link, chainer.Optimizer]:
    if static:
        raise NotImplementedError("lstm has no static_graph variant (stateful links)")
    vocab = bench_data.LSTM_VOCAB

    class LM(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.embed = L.EmbedID(vocab, 200)
                self.r1 = L.LSTM(200, 200)
                self.r2 = L.LSTM(200, 200)
                self.out = L.Linear(200, vocab)

        def forward(self, xs, ts):
            self.r1.reset_state()
            self.r2.reset_state()
            loss = 0
            for x, t in zip(xs, ts, strict=True):
                y = self.out(self.r2(self.r1(self.embed(x))))
                loss += F.softmax_cross_entropy(y, t)
            return loss

    return LM(), optimizers.SGD(lr=1.0)


def _adam_update() -> Callable[[], None]:
    values, grads = bench_data.make("adam")
    link = chainer.Link()
    with link.init_scope():
        for i, (value, grad) in enumerate(
            zip(bench_data.split(values), bench_data.split(grads), strict=True)
        ):
            param = chainer.Parameter(value)
            param.grad = grad
            setattr(link, f"p{i}", param)
    optimizer = optimizers.Adam()
    optimizer.setup(link)
    return optimizer.update


#: The models and optimizers by workload; ``BUILDERS[w](static=True)`` gives the model
#: whose chain's forward is under ``chainer.static_graph`` (NotImplementedError for lstm).
BUILDERS = {"overhead": _overhead, "mlp": _mlp, "cnn": _cnn, "lstm": _lstm}


def build(workload: str) -> Callable[[], None]:
    """Return one training step of *workload*: forward, cleargrads, backward, update.

    For ``adam``, the step is the optimizer update alone (the gradients stay set). A
    workload named ``NAME-static`` (see ``bench_data.STATIC``) is NAME with its chain
    under ``chainer.static_graph``; ``NAME-chainerx`` is NAME with the model, the data
    and the updates on the ChainerX device ``native:0`` (NotImplementedError without
    ChainerX, e.g. Chainer 7.8.1's wheels).
    """
    if workload == "adam":
        return _adam_update()
    plain, on_chainerx = bench_data.split_chainerx(workload)
    name, static = bench_data.split_static(plain)
    model, optimizer = BUILDERS[name](static=static)
    x, t = bench_data.make(workload)
    if on_chainerx:
        import chainerx

        if not chainerx.is_available():
            raise NotImplementedError("this chainer has no ChainerX")
        device = chainer.get_device("native:0")
        model.to_device(device)
        x, t = device.send((x, t))
    optimizer.setup(model)

    def step() -> None:
        loss = model(x, t)
        model.cleargrads()
        loss.backward()
        optimizer.update()

    return step
