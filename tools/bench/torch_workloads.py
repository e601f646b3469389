"""The same workloads in PyTorch (CPU), the reference of the ratios."""

from __future__ import annotations

from collections.abc import Callable

import bench_data
import torch
import torch.nn.functional as F
from torch import nn


def version() -> str:
    """The version string of the imported torch."""
    return torch.__version__


class Classifier(nn.Module):
    """Like ``L.Classifier``: softmax cross entropy loss, and accuracy computed alongside."""

    def __init__(self, predictor: nn.Module):
        super().__init__()
        self.predictor = predictor
        self.accuracy = 0.0

    def forward(self, x, t):
        y = self.predictor(x)
        loss = F.cross_entropy(y, t)
        with torch.no_grad():
            self.accuracy = (y.argmax(dim=1) == t).float().mean()
        return loss


class LM(nn.Module):
    def __init__(self, vocab: int):
        super().__init__()
        self.embed = nn.Embedding(vocab, 200)
        self.r1 = nn.LSTMCell(200, 200)
        self.r2 = nn.LSTMCell(200, 200)
        self.out = nn.Linear(200, vocab)

    def forward(self, xs, ts):
        s1 = s2 = None  # state reset at every step
        loss = 0
        for x, t in zip(xs, ts, strict=True):
            s1 = self.r1(self.embed(x), s1)
            s2 = self.r2(s1[0], s2)
            loss = loss + F.cross_entropy(self.out(s2[0]), t)
        return loss


def _model(workload: str) -> tuple[nn.Module, Callable[[list], torch.optim.Optimizer]]:
    # PyTorch has no static_graph nor ChainerX: a NAME-static or NAME-chainerx workload
    # runs NAME, the comparison
    workload, _ = bench_data.split_static(bench_data.split_chainerx(workload)[0])
    if workload == "overhead":
        layers = [m for _ in range(20) for m in (nn.Linear(32, 32), nn.ReLU())]
        return Classifier(nn.Sequential(*layers)), lambda p: torch.optim.SGD(p, lr=0.01)
    if workload == "mlp":
        mlp = nn.Sequential(
            nn.Linear(784, 1000), nn.ReLU(), nn.Linear(1000, 1000), nn.ReLU(), nn.Linear(1000, 10)
        )
        return Classifier(mlp), lambda p: torch.optim.Adam(p)
    if workload == "cnn":
        cnn = nn.Sequential(
            nn.Conv2d(3, 32, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Conv2d(32, 64, 3, padding=1), nn.ReLU(), nn.MaxPool2d(2),
            nn.Flatten(), nn.Linear(4096, 256), nn.ReLU(), nn.Linear(256, 10),
        )  # fmt: skip
        return Classifier(cnn), lambda p: torch.optim.SGD(p, lr=0.01, momentum=0.9)
    if workload == "lstm":
        return LM(bench_data.LSTM_VOCAB), lambda p: torch.optim.SGD(p, lr=1.0)
    raise ValueError(f"unknown workload {workload!r}")


def _adam_update() -> Callable[[], None]:
    values, grads = bench_data.make("adam")
    params = []
    for value, grad in zip(bench_data.split(values), bench_data.split(grads), strict=True):
        param = nn.Parameter(torch.from_numpy(value))
        param.grad = torch.from_numpy(grad)
        params.append(param)
    optimizer = torch.optim.Adam(params, foreach=True)
    return optimizer.step


def build(workload: str) -> Callable[[], None]:
    """Return one training step of *workload*: forward, zero_grad, backward, step.

    For ``adam``, the step is ``optimizer.step()`` alone (``foreach=True``; the
    gradients stay set).
    """
    if workload == "adam":
        return _adam_update()
    model, make_optimizer = _model(workload)
    optimizer = make_optimizer(list(model.parameters()))
    x, t = bench_data.make(workload)
    tx = torch.from_numpy(x)
    if workload == "lstm":
        tx = tx.long()
    tt = torch.from_numpy(t).long()

    def step() -> None:
        loss = model(tx, tt)
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()

    return step
