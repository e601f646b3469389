"""Shared by the tests: export a model, check it with onnx.checker, run it in
onnxruntime and compare with Chainer's own forward."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy
import onnx
import onnxruntime

import chainer
import onnx_chainer

MIN = onnx_chainer.MINIMUM_OPSET_VERSION
MAX = onnx_chainer.MAXIMUM_OPSET_VERSION


def opsets(first: int = MIN, changes: Iterable[int] = ()) -> list[int]:
    """The opsets a test runs at: ``first``, each opset where the converter's output
    changes (``changes``), the default and the newest; not every opset, to keep CI short."""
    chosen = {first, MAX, onnx_chainer.DEFAULT_OPSET_VERSION, *changes}
    return sorted(v for v in chosen if first <= v <= MAX)


def run_onnx(model_proto: onnx.ModelProto, feeds: dict[str, numpy.ndarray]) -> list[numpy.ndarray]:
    """Run ``model_proto`` in onnxruntime on the CPU."""
    session = onnxruntime.InferenceSession(model_proto.SerializeToString(),
                                           providers=['CPUExecutionProvider'])
    return session.run(None, feeds)


def _as_list(y: Any) -> list[Any]:
    if isinstance(y, dict):
        return list(y.values())
    if isinstance(y, (list, tuple)):
        return list(y)
    return [y]


def check_export(model: Any, args: Any, opset_version: int, rtol: float = 1e-5,
                 atol: float = 1e-5, train: bool = False, **kwargs: Any) -> onnx.ModelProto:
    """Export ``model`` at ``opset_version``, check it, and assert onnxruntime's outputs
    equal Chainer's. Returns the ONNX model."""
    proto, inputs, outputs = onnx_chainer.export(
        model, args, opset_version=opset_version, train=train, return_named_inout=True,
        **kwargs)
    onnx.checker.check_model(proto, full_check=True)
    initializers = {t.name for t in proto.graph.initializer}
    feeds = {v.name: numpy.asarray(inputs[v.name].array) for v in proto.graph.input
             if v.name not in initializers}
    got = run_onnx(proto, feeds)
    expected = [chainer.backend.CpuDevice().send(v.array) for v in outputs.values()]
    assert len(got) == len(expected)
    for g, e in zip(got, expected):
        assert g.shape == e.shape, (g.shape, e.shape)
        numpy.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
    return proto


class Apply(chainer.Chain):
    """A model computing ``fn(*inputs)``, or ``fn(model, *inputs)`` when given links
    (registered as the model's children, so their parameters export as ``param_<name>_W``)
    or ``with_model=True``."""

    def __init__(self, fn: Any, *, with_model: bool | None = None,
                 **links: chainer.Link) -> None:
        super().__init__()
        with self.init_scope():
            for name, link in links.items():
                setattr(self, name, link)
        self.fn = fn
        self.with_model = bool(links) if with_model is None else with_model

    def forward(self, *xs: Any) -> Any:
        return self.fn(self, *xs) if self.with_model else self.fn(*xs)


def op_types(proto: onnx.ModelProto) -> list[str]:
    """The operators of the graph's nodes, in order."""
    return [n.op_type for n in proto.graph.node]
