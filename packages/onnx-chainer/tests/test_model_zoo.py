"""Whole models: the vision zoo with random weights and an LSTM language model, exported,
run in onnxruntime and compared with Chainer."""

from __future__ import annotations

import numpy
import onnx
import pytest
from _onnx_check import run_onnx

import chainer
import chainer.functions as F
import chainer.links as L
import onnx_chainer


def _compare(model, x, rtol, atol, **kwargs):
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        proto, inputs, outputs = onnx_chainer.export(
            model, x, return_named_inout=True, **kwargs)
    onnx.checker.check_model(proto)
    init = {t.name for t in proto.graph.initializer}
    feeds = {v.name: numpy.asarray(inputs[v.name].array) for v in proto.graph.input
             if v.name not in init}
    got = run_onnx(proto, feeds)
    diffs = []
    for g, (name, e) in zip(got, outputs.items()):
        numpy.testing.assert_allclose(g, e.array, rtol=rtol, atol=atol, err_msg=name)
        diffs.append(float(numpy.max(numpy.abs(g - e.array))))
    return proto, max(diffs)


@pytest.mark.slow
@pytest.mark.parametrize('make,last', [
    (lambda: L.ResNet50Layers(pretrained_model=None), 'fc6'),
    (lambda: L.VGG16Layers(pretrained_model=None), 'fc8'),
    (lambda: L.GoogLeNet(pretrained_model=None), 'loss3_fc'),
], ids=['ResNet50Layers', 'VGG16Layers', 'GoogLeNet'])
def test_vision_zoo(make, last):
    numpy.random.seed(0)
    model = make()
    x = numpy.random.uniform(-1, 1, (1, 3, 224, 224)).astype(numpy.float32)
    # the probabilities of 1000 classes (~1e-3 each): tight in absolute terms
    proto, diff = _compare(model, x, rtol=1e-4, atol=1e-6, output_names={'prob': 'prob'})
    assert [o.name for o in proto.graph.output] == ['prob']
    assert diff < 1e-6
    # the logits (random weights make them large): within 1e-5 of their largest value,
    # the rounding of float32 sums over thousands of terms in another order
    with chainer.using_config('train', False):
        scale = float(numpy.abs(model(x, layers=[last])[last].array).max())
    _compare(lambda x: model(x, layers=[last]), x, rtol=1e-4, atol=1e-5 * scale)


class RNNLM(chainer.Chain):
    """The PTB example's language model: embed, two LSTMs, a linear decoder."""

    def __init__(self, n_vocab=50, n_units=16):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.l3 = L.Linear(n_units, n_vocab)

    def forward(self, words):
        self.l1.reset_state()
        self.l2.reset_state()
        ys = []
        for t in range(words.shape[1]):
            h = self.embed(words[:, t])
            h = self.l2(self.l1(h))
            ys.append(self.l3(h))
        return F.stack(ys, axis=1)


@pytest.mark.parametrize('opset', [onnx_chainer.MINIMUM_OPSET_VERSION + 2,
                                   onnx_chainer.DEFAULT_OPSET_VERSION,
                                   onnx_chainer.MAXIMUM_OPSET_VERSION])
def test_lstm_language_model(opset):
    numpy.random.seed(1)
    model = RNNLM()
    words = numpy.random.randint(0, 50, (3, 5)).astype(numpy.int32)
    _, diff = _compare(model, words, rtol=1e-5, atol=1e-5, opset_version=opset)
    assert diff < 1e-5
