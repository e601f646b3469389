"""Word embeddings with word2vec: skip-gram or CBOW trained with negative sampling.

Each training example is a centre word and the ``--window`` words on either side of it.
Skip-gram predicts every context word from the centre word's embedding; CBOW
(``--model cbow``) predicts the centre word from the mean of its context's embeddings.
Instead of a softmax over the vocabulary, ``L.NegativeSampling`` scores the true word
against ``--negative-size`` words drawn from the unigram distribution (to the power 0.75).

By default the corpus is generated here: each sentence talks about one of a few topics
(animals, food, weather, ...) and mixes that topic's words with common function words,
so words of the same topic share contexts and should end up close together. The final
metric is the share of each topic word's five nearest neighbours (by cosine similarity)
that belong to its own topic (chance is about 0.15). ``--real-data`` trains on the Penn
Treebank (``chainer.datasets.get_ptb_words``) and reports the validation loss instead.
Run ``python3 word2vec.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer import reporter, training
from chainer.training import extensions

TOPICS = {
    'animal': ['cat', 'dog', 'horse', 'cow', 'sheep', 'goat', 'pig', 'mouse'],
    'food': ['bread', 'cheese', 'apple', 'soup', 'rice', 'cake', 'milk', 'egg'],
    'weather': ['rain', 'snow', 'wind', 'cloud', 'storm', 'sun', 'fog', 'frost'],
    'music': ['guitar', 'piano', 'drum', 'violin', 'song', 'melody', 'choir', 'flute'],
    'city': ['street', 'bridge', 'tower', 'market', 'station', 'square', 'park', 'harbor'],
    'sport': ['ball', 'goal', 'match', 'team', 'coach', 'score', 'race', 'referee'],
}
FUNCTION_WORDS = ['the', 'a', 'and', 'of', 'is', 'in', 'with', 'to']


def generated_corpus(n_words: int, seed: int) -> tuple[np.ndarray, dict[str, int]]:
    """Sentences of 6-12 words, each about one topic: 60% topic words, 40% function words."""
    vocab = {w: i for i, w in enumerate(
        [w for words in TOPICS.values() for w in words] + FUNCTION_WORDS + ['<eos>'])}
    rng = np.random.RandomState(seed)
    topics = list(TOPICS.values())
    words: list[str] = []
    while len(words) < n_words:
        topic = topics[rng.randint(len(topics))]
        for _ in range(rng.randint(6, 13)):
            words.append(rng.choice(topic) if rng.rand() < 0.6 else rng.choice(FUNCTION_WORDS))
        words.append('<eos>')
    return np.array([vocab[w] for w in words], np.int32), vocab


def windows(corpus: np.ndarray, window: int) -> ch.datasets.TupleDataset:
    """(centre word, its 2 * window context words) for every position with a full window."""
    positions = np.arange(window, len(corpus) - window)
    offsets = np.concatenate([np.arange(-window, 0), np.arange(1, window + 1)])
    return ch.datasets.TupleDataset(corpus[positions], corpus[positions[:, None] + offsets])


class Word2Vec(ch.Chain):
    """An embedding table and a negative-sampling loss; skip-gram or CBOW."""

    def __init__(self, n_vocab: int, n_units: int, counts: np.ndarray, negative_size: int,
                 model: str) -> None:
        super().__init__()
        self.model = model
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units,
                                   initialW=ch.initializers.Uniform(1. / n_units))
            self.loss_func = L.NegativeSampling(n_units, counts, negative_size)
        self.loss_func.W.array[...] = 0

    def forward(self, centre: Any, context: Any) -> ch.Variable:
        if self.model == 'skipgram':  # every context word from the centre word
            h = self.embed(centre)
            h = F.broadcast_to(h[:, None, :], (context.shape[0], context.shape[1], h.shape[1]))
            h, t = F.reshape(h, (-1, h.shape[2])), context.reshape(-1)
        else:  # the centre word from the mean of the context
            h, t = F.mean(self.embed(context), axis=1), centre
        loss = self.loss_func(h, t) / len(t)
        reporter.report({'loss': loss}, self)
        return loss


def nearest(embeddings: np.ndarray, word: int, k: int) -> list[int]:
    """The k words whose embeddings have the highest cosine similarity to ``word``'s."""
    unit = embeddings / (np.linalg.norm(embeddings, axis=1, keepdims=True) + 1e-8)
    similarity = unit @ unit[word]
    similarity[word] = -np.inf
    return [int(i) for i in np.argsort(-similarity)[:k]]


def topic_precision(embeddings: np.ndarray, vocab: dict[str, int], k: int = 5) -> float:
    """Share of each topic word's k nearest neighbours that are in the same topic."""
    hits = []
    for words in TOPICS.values():
        ids = {vocab[w] for w in words}
        for w in ids:
            hits.append(len(ids.intersection(nearest(embeddings, w, k))) / k)
    return float(np.mean(hits))


def main(argv: list[str] | None = None) -> float:
    """Train, print neighbours, return the final metric."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--model', choices=('skipgram', 'cbow'), default='skipgram')
    parser.add_argument('--unit', type=int, default=50, help='embedding size')
    parser.add_argument('--window', type=int, default=3)
    parser.add_argument('--negative-size', type=int, default=5)
    parser.add_argument('--batchsize', type=int, default=500)
    parser.add_argument('--epochs', type=int, default=10)
    parser.add_argument('--real-data', action='store_true',
                        help='train on the Penn Treebank (chainer.datasets.get_ptb_words)')
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    parser.add_argument('--out', default='result')
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0...")
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args(argv)

    np.random.seed(args.seed)
    if args.real_data:
        train, val, _ = ch.datasets.get_ptb_words()
        vocab = ch.datasets.get_ptb_words_vocabulary()
        if args.quick:
            train, val = train[:100000], val[:10000]
        queries = ['monday', 'stock', 'japan', 'president', 'buy']
    else:
        corpus, vocab = generated_corpus(30000 if args.quick else 200000, args.seed)
        split = len(corpus) * 9 // 10
        train, val = corpus[:split], corpus[split:]
        queries = ['cat', 'bread', 'snow', 'piano', 'bridge', 'the']
    if args.quick:
        args.epochs = 3
    counts = np.bincount(train, minlength=len(vocab))
    counts[counts == 0] = 1  # every word needs a nonzero sampling weight
    print(f'{args.model}: vocabulary {len(vocab)} words, {len(train)} training words')

    device = ch.get_device(args.device)
    device.use()
    model = Word2Vec(len(vocab), args.unit, counts, args.negative_size, args.model)
    model.to_device(device)
    optimizer = ch.optimizers.Adam(alpha=0.01).setup(model)

    train_iter = ch.iterators.SerialIterator(windows(train, args.window), args.batchsize)
    val_iter = ch.iterators.SerialIterator(windows(val, args.window), args.batchsize,
                                           repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(val_iter, model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'elapsed_time']))
    trainer.run()

    embeddings = ch.backend.CpuDevice().send(model.embed.W.array)
    words = {i: w for w, i in vocab.items()}
    for query in queries:
        if query in vocab:
            neighbours = nearest(embeddings, vocab[query], 5)
            print(f'{query:>10}: ' + ' '.join(words[i] for i in neighbours))
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, 'word2vec.txt'), 'w') as f:  # the word2vec text format
        f.write(f'{len(words)} {args.unit}\n')
        for i in range(len(words)):
            f.write(words[i] + ' ' + ' '.join(f'{v:.6f}' for v in embeddings[i]) + '\n')

    if args.real_data:
        value = float(trainer.observation['validation/main/loss'])
        print(f'final validation/main/loss: {value:.4f}')
    else:
        value = topic_precision(embeddings, vocab)
        print(f'final topic precision@5: {value:.4f}')
    return value


if __name__ == '__main__':
    main()
