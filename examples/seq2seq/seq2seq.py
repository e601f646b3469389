"""Sequence to sequence: an LSTM encoder-decoder that learns a made-up translation.

The encoder (``EmbedID`` and ``L.NStepLSTM``) reads a whole batch of source sentences of
different lengths at once; its final hidden and cell states start the decoder (another
``L.NStepLSTM``), which is trained with teacher forcing to emit the target sentence and
an end-of-sentence mark. Translations are decoded greedily (the likeliest word at each
step) and scored with BLEU (up to 4-grams, brevity penalty, computed here) and the share
of sentences translated exactly.

The data are generated: a source sentence is 3 to ``--max-length`` words of a small
source vocabulary; its "translation" is the sentence reversed, every word replaced by
its counterpart in a target vocabulary, and every ``sa`` followed by an extra ``ta``
(so the target can be longer than the source). Run ``python3 seq2seq.py --help``.
"""

from __future__ import annotations

import argparse
import collections
import math
from collections.abc import Sequence
from typing import Any

import numpy as np

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer import reporter, training
from chainer.training import extensions

UNK, EOS = 0, 1  # ids shared by both vocabularies


def make_vocabularies(n_words: int) -> tuple[list[str], list[str]]:
    """Source words 'sa', 'sb', ... and target words 'ta', 'tb', ... after <unk>, <eos>."""
    letters = [chr(ord('a') + i) for i in range(n_words)]
    return (['<unk>', '<eos>'] + ['s' + c for c in letters],
            ['<unk>', '<eos>'] + ['t' + c for c in letters])


def translate_rule(source: np.ndarray) -> np.ndarray:
    """The made-up translation: reverse, map sX -> tX (same id), add 'ta' after each 'sa'."""
    out: list[int] = []
    for w in source[::-1]:
        out.append(int(w))
        if w == 2:  # 'sa' -> 'ta ta'
            out.append(2)
    return np.array(out, np.int32)


def generated_pairs(n: int, n_words: int, max_length: int, rng: np.random.RandomState
                    ) -> list[tuple[np.ndarray, np.ndarray]]:
    """``n`` (source, target) pairs of word-id arrays."""
    pairs = []
    for _ in range(n):
        source = rng.randint(2, 2 + n_words, size=rng.randint(3, max_length + 1))
        source = source.astype(np.int32)
        pairs.append((source, translate_rule(source)))
    return pairs


def sequence_embed(embed: L.EmbedID, xs: Sequence[Any]) -> list[ch.Variable]:
    """Embed a list of sequences in one call and split the result back."""
    lengths = [len(x) for x in xs]
    sections = np.cumsum(lengths[:-1]).tolist()
    ex = embed(F.concat(xs, axis=0))
    return list(F.split_axis(ex, sections, 0))


class Seq2seq(ch.Chain):
    """Encoder-decoder of stacked NStepLSTMs; the decoder starts from the encoder's state."""

    def __init__(self, n_layers: int, n_source: int, n_target: int, n_units: int) -> None:
        super().__init__()
        with self.init_scope():
            self.embed_x = L.EmbedID(n_source, n_units)
            self.embed_y = L.EmbedID(n_target, n_units)
            self.encoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.decoder = L.NStepLSTM(n_layers, n_units, n_units, 0.1)
            self.W = L.Linear(n_units, n_target)

    def forward(self, xs: list[Any], ys: list[Any]) -> ch.Variable:
        xp = self.xp
        eos = xp.array([EOS], np.int32)
        ys_in = [F.concat([eos, y], axis=0) for y in ys]  # <eos> starts the decoding
        ys_out = [F.concat([y, eos], axis=0) for y in ys]  # and is the last word to emit
        hx, cx, _ = self.encoder(None, None, sequence_embed(self.embed_x, xs))
        _, _, os = self.decoder(hx, cx, sequence_embed(self.embed_y, ys_in))
        logits = self.W(F.concat(os, axis=0))
        loss = F.softmax_cross_entropy(logits, F.concat(ys_out, axis=0))
        accuracy = F.accuracy(logits, F.concat(ys_out, axis=0))
        reporter.report({'loss': loss, 'accuracy': accuracy}, self)
        return loss

    def translate(self, xs: list[Any], max_length: int = 30) -> list[np.ndarray]:
        """Greedy decoding of a batch; each result is cut at its first <eos>."""
        xp = self.xp
        with ch.using_config('train', False), ch.no_backprop_mode():
            h, c, _ = self.encoder(None, None, sequence_embed(self.embed_x, xs))
            words = xp.full(len(xs), EOS, np.int32)
            result = []
            for _ in range(max_length):
                inputs = F.split_axis(self.embed_y(words), len(xs), 0)
                h, c, os = self.decoder(h, c, inputs)
                words = xp.argmax(self.W(F.concat(os, axis=0)).array, axis=1).astype(np.int32)
                result.append(words)
        out = []
        for row in ch.backend.CpuDevice().send(xp.stack(result, axis=1)):
            ends = np.flatnonzero(row == EOS)
            out.append(row[:ends[0]] if len(ends) else row)
        return out


def bleu(references: Sequence[Sequence[int]], hypotheses: Sequence[Sequence[int]],
         max_n: int = 4) -> float:
    """Corpus BLEU with one reference per sentence (add-one smoothing for n > 1)."""
    matches, totals = [0] * max_n, [0] * max_n
    ref_len = hyp_len = 0
    for ref, hyp in zip(references, hypotheses):
        ref, hyp = list(ref), list(hyp)
        ref_len, hyp_len = ref_len + len(ref), hyp_len + len(hyp)
        for n in range(1, max_n + 1):
            ref_ngrams = collections.Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
            hyp_ngrams = collections.Counter(tuple(hyp[i:i + n]) for i in range(len(hyp) - n + 1))
            matches[n - 1] += sum((hyp_ngrams & ref_ngrams).values())
            totals[n - 1] += max(len(hyp) - n + 1, 0)
    if hyp_len == 0 or matches[0] == 0:
        return 0.0
    log_precision = sum(math.log((m + (n > 0)) / (t + (n > 0)))
                        for n, (m, t) in enumerate(zip(matches, totals))) / max_n
    brevity = min(0.0, 1 - ref_len / hyp_len)
    return math.exp(log_precision + brevity)


class TranslationScore(training.Extension):
    """Decodes the held-out pairs, reports ``validation/bleu`` and ``validation/exact``."""

    trigger = (1, 'epoch')
    priority = training.PRIORITY_WRITER

    def __init__(self, model: Seq2seq, pairs: list[tuple[np.ndarray, np.ndarray]],
                 device: ch.backend.Device, batch: int = 200) -> None:
        self.model, self.pairs, self.device, self.batch = model, pairs, device, batch

    def scores(self) -> tuple[float, float]:
        hypotheses = []
        for i in range(0, len(self.pairs), self.batch):
            xs = [self.device.send(x) for x, _ in self.pairs[i:i + self.batch]]
            hypotheses += self.model.translate(xs)
        references = [y for _, y in self.pairs]
        exact = np.mean([len(h) == len(r) and bool((h == r).all())
                         for h, r in zip(hypotheses, references)])
        return bleu(references, hypotheses), float(exact)

    def __call__(self, trainer: training.Trainer) -> None:
        score, exact = self.scores()
        reporter.report({'validation/bleu': score, 'validation/exact': exact})


def main(argv: list[str] | None = None) -> float:
    """Train, show translations, return the final BLEU on held-out pairs."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=6)
    parser.add_argument('--batchsize', type=int, default=64)
    parser.add_argument('--unit', type=int, default=128)
    parser.add_argument('--layer', type=int, default=1)
    parser.add_argument('--words', type=int, default=10, help='source vocabulary size')
    parser.add_argument('--max-length', type=int, default=8)
    parser.add_argument('--train-size', type=int, default=3000)
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    parser.add_argument('--out', default='result')
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0...")
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args(argv)

    np.random.seed(args.seed)
    if args.quick:
        args.epochs, args.train_size, args.max_length, args.unit = 3, 1200, 5, 64
    rng = np.random.RandomState(args.seed)
    source_words, target_words = make_vocabularies(args.words)
    train = generated_pairs(args.train_size, args.words, args.max_length, rng)
    test = generated_pairs(200 if args.quick else 500, args.words, args.max_length, rng)
    print(f'{len(train)} training pairs, {len(test)} held-out pairs, '
          f'{len(source_words)} source and {len(target_words)} target words')

    device = ch.get_device(args.device)
    device.use()
    model = Seq2seq(args.layer, len(source_words), len(target_words), args.unit)
    model.to_device(device)
    optimizer = ch.optimizers.Adam(alpha=0.003).setup(model)

    @ch.dataset.converter()
    def convert(batch: list[tuple[np.ndarray, np.ndarray]], device: ch.backend.Device
                ) -> tuple[list, list]:
        """Keep the variable-length sequences as lists (NStepLSTM takes them so)."""
        return ([device.send(x) for x, _ in batch], [device.send(y) for _, y in batch])

    train_iter = ch.iterators.SerialIterator(train, args.batchsize)
    updater = training.StandardUpdater(train_iter, optimizer, converter=convert, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    score = TranslationScore(model, test, device)
    trainer.extend(score)
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'main/accuracy', 'validation/bleu', 'validation/exact',
         'elapsed_time']))
    trainer.run()

    for x, y in test[:3]:
        (h,) = model.translate([device.send(x)])
        print('source:   ', ' '.join(source_words[i] for i in x))
        print('reference:', ' '.join(target_words[i] for i in y))
        print('output:   ', ' '.join(target_words[i] for i in h))
    value, exact = score.scores()
    print(f'exact-match accuracy: {exact:.4f}')
    print(f'final validation/bleu: {value:.4f}')
    return value


if __name__ == '__main__':
    main()
