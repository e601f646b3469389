"""Text classification: three encoders of a sentence and a linear classifier on top.

``--model bow`` averages the word embeddings (a bag of embeddings), ``--model cnn`` runs a
convolution of width 3 over them and takes the maximum over time, ``--model lstm`` reads
them with ``L.NStepLSTM`` and uses its final hidden state. The sentences of a batch have
different lengths: the converter pads them with -1, which ``EmbedID(ignore_label=-1)``
embeds as zeros; the CNN masks the padding out of its maximum and the LSTM gets the
unpadded sequences.

The data are generated "reviews": neutral filler words around one to three opinion words
(``good``, ``awful``, ...), each negated by a preceding ``not`` or ``never`` three times
in ten. A review is positive when its opinions, after negation, add up to more than zero.
Word order matters only through negation, so the bag of embeddings falls short of the
other two. Chainer has no loader for a text-classification corpus; to train on real
data, read e.g. the IMDb or SST sentences into lists of word ids and labels in place of
``generated_reviews``. Run ``python3 text_classification.py --help`` for the options.
"""

from __future__ import annotations

import argparse
from typing import Any

import numpy as np

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer import training
from chainer.dataset import concat_examples
from chainer.training import extensions

POSITIVE = ['good', 'great', 'excellent', 'wonderful', 'fun', 'brilliant', 'moving', 'best']
NEGATIVE = ['bad', 'awful', 'terrible', 'boring', 'dull', 'poor', 'silly', 'worst']
NEGATORS = ['not', 'never']
NEUTRAL = ['the', 'a', 'movie', 'film', 'plot', 'actor', 'was', 'is', 'it', 'and', 'story',
           'this', 'very', 'really', 'of', 'music', 'ending', 'cast', 'quite', 'so']


def generated_reviews(n: int, rng: np.random.RandomState
                      ) -> tuple[list[tuple[np.ndarray, np.int32]], list[str]]:
    """``n`` (word ids, label) pairs and the vocabulary (a list of words)."""
    words = NEUTRAL + NEGATORS + POSITIVE + NEGATIVE
    ids = {w: i for i, w in enumerate(words)}
    data = []
    while len(data) < n:
        sentence = list(rng.choice(NEUTRAL, size=rng.randint(4, 12)))
        score = 0
        for _ in range(rng.randint(1, 4)):
            positive = rng.rand() < 0.5
            phrase = [rng.choice(POSITIVE if positive else NEGATIVE)]
            polarity = 1 if positive else -1
            if rng.rand() < 0.3:
                phrase.insert(0, rng.choice(NEGATORS))
                polarity = -polarity
            score += polarity
            at = rng.randint(len(sentence) + 1)
            sentence[at:at] = phrase
        if score != 0:
            data.append((np.array([ids[w] for w in sentence], np.int32),
                         np.int32(score > 0)))
    return data, words


class BOWEncoder(ch.Chain):
    """The mean of the word embeddings, then a tanh layer."""

    def __init__(self, n_vocab: int, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units, ignore_label=-1)
            self.l1 = L.Linear(n_units, n_units)

    def forward(self, xs: Any) -> ch.Variable:
        lengths = (xs >= 0).sum(axis=1, keepdims=True).astype(np.float32)
        h = F.sum(self.embed(xs), axis=1) / lengths
        return F.tanh(self.l1(h))


class CNNEncoder(ch.Chain):
    """A width-3 convolution over the embeddings, max-pooled over the real positions."""

    def __init__(self, n_vocab: int, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units, ignore_label=-1)
            self.conv = L.Convolution1D(n_units, n_units, 3, pad=1)

    def forward(self, xs: Any) -> ch.Variable:
        h = F.relu(self.conv(F.transpose(self.embed(xs), (0, 2, 1))))  # (B, units, T)
        padding = (xs < 0)[:, None, :].astype(np.float32) * -1e4
        return F.max(h + padding, axis=2)


class LSTMEncoder(ch.Chain):
    """An NStepLSTM over the unpadded sentences; its last layer's final hidden state."""

    def __init__(self, n_vocab: int, n_units: int, n_layers: int = 1) -> None:
        super().__init__()
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units, ignore_label=-1)
            self.lstm = L.NStepLSTM(n_layers, n_units, n_units, 0.1)

    def forward(self, xs: Any) -> ch.Variable:
        lengths = [int(n) for n in (xs >= 0).sum(axis=1)]
        exs = self.embed(xs)
        hy, _, _ = self.lstm(None, None, [exs[i, :n] for i, n in enumerate(lengths)])
        return hy[-1]


ENCODERS = {'bow': BOWEncoder, 'cnn': CNNEncoder, 'lstm': LSTMEncoder}


class TextClassifier(ch.Chain):
    """An encoder, dropout and a linear layer to the class scores."""

    def __init__(self, encoder: ch.Chain, n_units: int, n_class: int) -> None:
        super().__init__()
        with self.init_scope():
            self.encoder = encoder
            self.output = L.Linear(n_units, n_class)

    def forward(self, xs: Any) -> ch.Variable:
        return self.output(F.dropout(self.encoder(xs), 0.2))


@ch.dataset.converter()
def convert(batch: list[tuple[np.ndarray, np.int32]], device: ch.backend.Device
            ) -> tuple[Any, Any]:
    """Pad the sentences with -1 into one (batch, longest) array; stack the labels."""
    return concat_examples(batch, device, padding=-1)


def main(argv: list[str] | None = None) -> float:
    """Train, classify a few reviews, return the final test accuracy."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--model', choices=sorted(ENCODERS), default='cnn')
    parser.add_argument('--epochs', type=int, default=10)
    parser.add_argument('--batchsize', type=int, default=64)
    parser.add_argument('--unit', type=int, default=64)
    parser.add_argument('--train-size', type=int, default=10000)
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    parser.add_argument('--out', default='result')
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0...")
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args(argv)

    np.random.seed(args.seed)
    if args.quick:
        args.epochs, args.train_size = 3, 2000
    rng = np.random.RandomState(args.seed)
    train, words = generated_reviews(args.train_size, rng)
    test, _ = generated_reviews(1000, rng)
    print(f'{args.model}: {len(train)} training and {len(test)} test reviews, '
          f'{len(words)} words, {np.mean([t for _, t in train]):.2f} positive')

    device = ch.get_device(args.device)
    device.use()
    encoder = ENCODERS[args.model](len(words), args.unit)
    model = L.Classifier(TextClassifier(encoder, args.unit, 2))
    model.to_device(device)
    optimizer = ch.optimizers.Adam(alpha=0.003).setup(model)
    optimizer.add_hook(ch.optimizer_hooks.WeightDecay(1e-5))

    train_iter = ch.iterators.SerialIterator(train, args.batchsize)
    test_iter = ch.iterators.SerialIterator(test, 200, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, converter=convert, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.extend(extensions.snapshot_object(model, 'model_epoch_{.updater.epoch}'),
                   trigger=(args.epochs, 'epoch'))
    trainer.run()

    examples = ['the movie was not good', 'never boring and the music is great',
                'a silly plot but the best cast', 'it was not bad']
    ids = {w: i for i, w in enumerate(words)}
    xs, _ = convert([(np.array([ids[w] for w in s.split() if w in ids], np.int32), 0)
                     for s in examples], device)
    with ch.using_config('train', False), ch.no_backprop_mode():
        p = F.softmax(model.predictor(xs)).array[:, 1]
    for sentence, positive in zip(examples, ch.backend.CpuDevice().send(p)):
        print(f'{positive:.2f} positive: {sentence}')
    accuracy = float(trainer.observation['validation/main/accuracy'])
    print(f'final validation/main/accuracy: {accuracy:.4f}')
    return accuracy


if __name__ == '__main__':
    main()
