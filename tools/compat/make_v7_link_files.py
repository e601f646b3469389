"""Write the Chainer 7.8.1 link snapshots of ``tests-integration/data/v7_links/``.

Run with the interpreter of a Chainer 7.8.1 env (the benchmark's, see
tools/bench/envs.py)::

    .bench/chainer781/bin/python tools/compat/make_v7_link_files.py

Two models are built with fixed seeds, trained for two SGD updates (so that
no parameter keeps its initial value) and saved with ``save_npz`` (the CNN
also with ``save_hdf5``):

- ``cnn``: a small CNN over images and word IDs (Convolution2D with a lazy input
  size, a grouped Convolution2D, PReLU, a lazy Linear, EmbedID with
  ``ignore_label``);
- ``zoo``: one of each other connection / activation link (deconvolutions,
  depthwise, dilated, local, deformable and N-d convolutions, MLPConvolution2D,
  Inception, Bilinear, Highway, Scale, Bias, Maxout, Swish,
  SimplifiedDropconnect), a Linear under SpectralNormalization (whose singular
  vector is a persistent value) and the loss links CRF1d and
  BinaryHierarchicalSoftmax.

``<model>_expected.npz`` holds the inputs and the outputs of the saved model in
test mode: tests-integration/test_v7_link_files.py loads the files into this
project and checks that it computes the same outputs.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer.link_hooks import SpectralNormalization

OUT = Path(__file__).resolve().parents[2] / 'tests-integration' / 'data' / 'v7_links'


class CNN(chainer.Chain):
    """Images (n, 3, 8, 8) and word IDs (n, 4) -> scores (n, 5)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(None, 4, 3, pad=1)
            self.conv2 = L.Convolution2D(4, 6, 3, stride=2, groups=2)
            self.act = L.PReLU((6,))
            self.fc = L.Linear(None, 5)
            self.embed = L.EmbedID(7, 5, ignore_label=-1)

    def forward(self, x, ids):
        h = F.relu(self.conv1(x))
        h = self.act(self.conv2(h))
        return self.fc(h) + F.sum(self.embed(ids), axis=1)


def cnn_inputs(rng):
    x = rng.uniform(-1, 1, (3, 3, 8, 8)).astype(numpy.float32)
    ids = numpy.array([[0, 1, 2, -1], [3, 4, 5, 6], [6, -1, -1, 0]], numpy.int32)
    return x, ids


class Zoo(chainer.Chain):
    """One of each link; every output depends on the parameters."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.deconv2d = L.Deconvolution2D(3, 4, 3, stride=2, pad=1, groups=1)
            self.deconvnd = L.DeconvolutionND(2, 3, 2, 3, outsize=(10, 10))
            self.conv3d = L.Convolution3D(2, 3, 2)
            self.convnd = L.ConvolutionND(1, None, 2, 3, pad=1)
            self.depthwise = L.DepthwiseConvolution2D(3, 2, 3, pad=1)
            self.dilated = L.DilatedConvolution2D(3, 2, 3, pad=2, dilate=2)
            self.local = L.LocalConvolution2D(3, 2, 8, 3)
            self.deform = L.DeformableConvolution2D(3, 2, 3, pad=1)
            self.mlpconv = L.MLPConvolution2D(3, (4, 2), 3, pad=1)
            self.inception = L.Inception(3, 2, 2, 2, 2, 2, 2)
            self.bilinear = L.Bilinear(4, 3, 2)
            self.highway = L.Highway(4)
            self.scale = L.Scale(1, (4,), bias_term=True)
            self.bias = L.Bias(1, (4,))
            self.maxout = L.Maxout(4, 3, 2)
            self.swish = L.Swish(None)
            self.dropconnect = L.SimplifiedDropconnect(4, 3)
            self.sn = L.Linear(4, 3)
            self.crf = L.CRF1d(3)
            self.hsm = L.BinaryHierarchicalSoftmax(4, ((0, 1), ((2, 3), 4)))
        self.sn.add_hook(SpectralNormalization(use_gamma=True))

    def forward(self, img, seq, vol, vec, vec3, t):
        outs = [
            self.deconv2d(img), self.deconvnd(img), self.conv3d(vol), self.convnd(seq),
            self.depthwise(img), self.dilated(img), self.local(img),
            self.deform(img), self.mlpconv(img), self.inception(img),
            self.bilinear(vec, vec3), self.highway(vec), self.scale(vec), self.bias(vec),
            self.maxout(vec), self.swish(vec), self.dropconnect(vec, train=False),
            self.sn(vec),
        ]
        xs = [F.tanh(self.maxout(vec))[:n] for n in (3, 3, 2)]
        ys = [numpy.array(y, numpy.int32) for y in ([0, 1, 2], [2, 2, 0], [1, 0])]
        outs.append(F.reshape(self.crf(xs, ys), (1,)))
        score, path = self.crf.argmax(xs)
        outs.append(score)
        outs.extend(F.cast(p, numpy.float32) for p in path)
        outs.append(F.reshape(self.hsm(vec, t), (1,)))
        return outs


def zoo_inputs(rng):
    img = rng.uniform(-1, 1, (3, 3, 8, 8)).astype(numpy.float32)
    seq = rng.uniform(-1, 1, (3, 3, 5)).astype(numpy.float32)
    vol = rng.uniform(-1, 1, (3, 2, 3, 4, 3)).astype(numpy.float32)
    vec = rng.uniform(-1, 1, (3, 4)).astype(numpy.float32)
    vec3 = rng.uniform(-1, 1, (3, 3)).astype(numpy.float32)
    t = numpy.array([0, 4, 2], numpy.int32)
    return img, seq, vol, vec, vec3, t


def train(model, inputs):
    """Two SGD updates on the sum of squares of every output."""
    optimizer = chainer.optimizers.SGD(lr=0.01).setup(model)
    # Float inputs as Variables: 7.8.1's Deconvolution2D cannot backpropagate from an
    # input given as a plain array.
    variables = [chainer.Variable(x) if x.dtype.kind == 'f' else x for x in inputs]
    for _ in range(2):
        outs = model(*variables)
        outs = outs if isinstance(outs, (list, tuple)) else [outs]
        loss = sum(F.sum(o * o) for o in outs if o.dtype.kind == 'f')
        model.cleargrads()
        loss.backward()
        optimizer.update()


def write(name, model, inputs, hdf5=False):
    train(model, inputs)
    chainer.serializers.save_npz(str(OUT / f'{name}.npz'), model)
    if hdf5:
        chainer.serializers.save_hdf5(str(OUT / f'{name}.h5'), model)
    with chainer.using_config('train', False), chainer.no_backprop_mode():
        outs = model(*inputs)
    outs = outs if isinstance(outs, (list, tuple)) else [outs]
    arrays = {f'input_{i}': x for i, x in enumerate(inputs)}
    arrays.update({f'output_{i}': y.array for i, y in enumerate(outs)})
    numpy.savez(str(OUT / f'{name}_expected.npz'), **arrays)
    print(f'{name}: {len(list(model.params()))} parameters, {len(outs)} outputs')


def main() -> int:
    if chainer.__version__ != '7.8.1':
        print(f'run this with Chainer 7.8.1, not {chainer.__version__}', file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    numpy.random.seed(2)
    write('cnn', CNN(), cnn_inputs(numpy.random.RandomState(0)), hdf5=True)
    numpy.random.seed(3)
    write('zoo', Zoo(), zoo_inputs(numpy.random.RandomState(1)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
