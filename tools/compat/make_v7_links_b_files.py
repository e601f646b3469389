"""Write the Chainer 7.8.1 model files of ``tests-integration/data/v7_links_b/``.

Run with the interpreter of a Chainer 7.8.1 env (the benchmark's, see
tools/bench/envs.py)::

    .bench/chainer781/bin/python tools/compat/make_v7_links_b_files.py

Three small models are trained for a few SGD updates on data fixed by seeds,
saved with ``save_npz`` and run once more on fixed inputs; the outputs go to
``expected.npz``. tests-integration/test_v7_links_b_files.py builds the same
models here, loads the files and compares the outputs.

- ``cnn.npz``: convolutions with ``BatchNormalization`` (one of a given size,
  one sized lazily from ``axis``, one fine-tuned so that ``N`` is saved) and a
  lazy ``Linear``; outputs in test mode and in training mode.
- ``lstm_lm.npz``: an LSTM language model (``EmbedID``, two ``LSTM``, one of
  lazy input size, ``Linear``); outputs of a 4-step sequence in test mode.
- ``zoo.npz``: the other normalization and recurrent links (batch
  renormalization, decorrelated batch, group and layer normalization, the GRU,
  MGU, peephole and n-step LSTM links, the tree-LSTMs); their outputs.
"""

from __future__ import annotations

from pathlib import Path

import numpy

import chainer
import chainer.functions as F
import chainer.links as L
from chainer import optimizers

OUT = Path(__file__).resolve().parents[2] / 'tests-integration' / 'data' / 'v7_links_b'
VOCAB = 12


class CNN(chainer.Chain):
    """conv - BN(size) - relu - conv - BN(axis, lazy) - relu - BN(finetuned) - Linear(lazy)."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(3, 4, 3, pad=1)
            self.bn1 = L.BatchNormalization(4)
            self.conv2 = L.Convolution2D(4, 6, 3, stride=2)
            self.bn2 = L.BatchNormalization(axis=(0, 2, 3))
            self.bn3 = L.BatchNormalization(6, decay=0.5, use_gamma=False)
            self.fc = L.Linear(None, 5)

    def forward(self, x, finetune=False):
        h = F.relu(self.bn1(self.conv1(x)))
        h = F.relu(self.bn2(self.conv2(h)))
        return self.fc(self.bn3(h, finetune=finetune))


class LM(chainer.Chain):
    """EmbedID - LSTM - LSTM (lazy input size) - Linear, one step per call."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(VOCAB, 6)
            self.l1 = L.LSTM(6, 5)
            self.l2 = L.LSTM(None, 4)
            self.out = L.Linear(4, VOCAB)

    def reset_state(self):
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, word):
        return self.out(self.l2(self.l1(self.embed(word))))


class Zoo(chainer.Chain):
    """One of each remaining normalization and recurrent link."""

    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.brn = L.BatchRenormalization(4, rmax=2., dmax=1.)
            self.dbn = L.DecorrelatedBatchNormalization(4, groups=2)
            self.gn = L.GroupNormalization(2)
            self.ln = L.LayerNormalization()
            self.gru = L.StatefulGRU(4, 3)
            self.sgru = L.StatelessGRU(4, 3)
            self.mgu = L.StatefulMGU(4, 3)
            self.peep = L.StatefulPeepholeLSTM(4, 3)
            self.nstep = L.NStepLSTM(2, 4, 3, 0.0)
            self.bigru = L.NStepBiGRU(1, 4, 2, 0.0)
            self.tree = L.ChildSumTreeLSTM(4, 3)
            self.nary = L.NaryTreeLSTM(4, 3, n_ary=2)

    def outputs(self, x, seqs):
        """The outputs of every link on the batch ``x`` (6, 4) and the sequences."""
        self.gru.reset_state()
        self.mgu.reset_state()
        self.peep.reset_state()
        h = self.gn(self.dbn(self.brn(x)))
        out = {'norm': self.ln(h)}
        out['gru'] = self.gru(x)
        out['gru2'] = self.gru(x[::-1])
        out['sgru'] = self.sgru(out['gru'], x)
        out['mgu'] = self.mgu(x)
        out['peep'] = self.peep(x)
        out['peep2'] = self.peep(x * 2)
        hy, cy, ys = self.nstep(None, None, seqs)
        out['nstep_hy'], out['nstep_cy'] = hy, cy
        out['nstep_ys'] = F.concat(ys, axis=0)
        hy, ys = self.bigru(None, seqs)
        out['bigru_hy'], out['bigru_ys'] = hy, F.concat(ys, axis=0)
        c1, h1 = self.tree(x)
        c2, h2 = self.tree(c1, h1, x)
        out['tree_c'], out['tree_h'] = self.tree(c1, c2, h1, h2, x)
        out['nary_c'], out['nary_h'] = self.nary(c1, c2, h1, h2, x)
        return out


def _train(model, loss_fn, steps=3):
    optimizer = optimizers.SGD(lr=0.1)
    optimizer.setup(model)
    for step in range(steps):
        model.cleargrads()
        loss = loss_fn(step)
        loss.backward()
        optimizer.update()


def make_cnn(expected):
    rng = numpy.random.RandomState(0)
    model = CNN()
    xs = rng.randn(3, 4, 3, 7, 7).astype(numpy.float32)
    ts = rng.randint(0, 5, (3, 4)).astype(numpy.int32)
    _train(model, lambda i: F.softmax_cross_entropy(model(xs[i]), ts[i]))
    model(xs[0], finetune=True)  # bn3 gets N = 1 and the mean of this batch
    chainer.serializers.save_npz(str(OUT / 'cnn.npz'), model)
    x = rng.randn(2, 3, 7, 7).astype(numpy.float32)
    with chainer.using_config('train', False):
        expected['cnn_test'] = model(x).array
    expected['cnn_train'] = model(x).array
    expected['cnn_x'] = x


def make_lm(expected):
    rng = numpy.random.RandomState(1)
    model = LM()
    words = rng.randint(0, VOCAB, (3, 5, 2)).astype(numpy.int32)

    def loss(i):
        model.reset_state()
        total = 0
        for t in range(4):
            total += F.softmax_cross_entropy(model(words[i, t]), words[i, t + 1])
        return total

    _train(model, loss)
    chainer.serializers.save_npz(str(OUT / 'lstm_lm.npz'), model)
    sequence = rng.randint(0, VOCAB, (4, 3)).astype(numpy.int32)
    model.reset_state()
    with chainer.using_config('train', False):
        expected['lm_logits'] = numpy.stack([model(w).array for w in sequence])
    expected['lm_words'] = sequence


def make_zoo(expected):
    rng = numpy.random.RandomState(2)
    model = Zoo()
    x = rng.randn(6, 4).astype(numpy.float32)
    seqs = [rng.randn(n, 4).astype(numpy.float32) for n in (2, 4, 1)]

    def loss(i):
        out = model.outputs(x + i, seqs)
        return sum(F.sum(v * v) for v in out.values())

    _train(model, loss)
    chainer.serializers.save_npz(str(OUT / 'zoo.npz'), model)
    with chainer.using_config('train', False):
        for key, value in model.outputs(x, seqs).items():
            expected['zoo_' + key] = value.array
    expected['zoo_x'] = x
    for i, s in enumerate(seqs):
        expected[f'zoo_seq{i}'] = s


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    numpy.random.seed(0)
    expected = {}
    make_cnn(expected)
    make_lm(expected)
    make_zoo(expected)
    numpy.savez(str(OUT / 'expected.npz'), **expected)
    print(f'chainer {chainer.__version__}: wrote {sorted(p.name for p in OUT.iterdir())}')


if __name__ == '__main__':
    main()
