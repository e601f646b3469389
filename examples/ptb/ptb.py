"""A recurrent language model: two stacked LSTMs trained with truncated BPTT.

The words run through ``EmbedID -> LSTM -> LSTM -> Linear`` (with dropout between the
layers), and a custom updater on the Trainer unrolls the network ``--bproplen`` steps
before each backward pass and cuts the graph after it (truncated backpropagation
through time). The model is scored by its perplexity on held-out text and, at the end,
continues a prompt word by word.

By default it learns a corpus generated here from a small probabilistic grammar (subject
and verb agree in number across adjectives and prepositional phrases), so it runs
offline; ``--real-data`` trains on the Penn Treebank through
``chainer.datasets.get_ptb_words`` (downloaded once into Chainer's dataset cache).
Run ``python3 ptb.py --help`` for the options.
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

EOS = '<eos>'

# a tiny grammar: (singular, plural) forms for the words whose form depends on number
DETS = (['a', 'the', 'this', 'every'], ['the', 'some', 'these', 'two'])
NOUNS = (['cat', 'dog', 'bird', 'child', 'farmer', 'teacher'],
         ['cats', 'dogs', 'birds', 'children', 'farmers', 'teachers'])
ADJS = ['big', 'small', 'old', 'happy', 'quiet']
TRANSITIVE = (['sees', 'chases', 'likes', 'follows'], ['see', 'chase', 'like', 'follow'])
INTRANSITIVE = (['sleeps', 'runs', 'sings'], ['sleep', 'run', 'sing'])
PREPS = ['near', 'with', 'behind']


def noun_phrase(rng: np.random.RandomState, number: int) -> list[str]:
    """``det (adj) noun`` in the given number (0 singular, 1 plural)."""
    words = [rng.choice(DETS[number])]
    if rng.rand() < 0.4:
        words.append(rng.choice(ADJS))
    words.append(rng.choice(NOUNS[number]))
    return words


def sentence(rng: np.random.RandomState) -> list[str]:
    """``NP (PP) VP <eos>`` whose verb agrees with the subject's number."""
    number = rng.randint(2)
    words = noun_phrase(rng, number)
    if rng.rand() < 0.3:  # a prepositional phrase between subject and verb
        words += [rng.choice(PREPS)] + noun_phrase(rng, rng.randint(2))
    if rng.rand() < 0.6:
        words += [rng.choice(TRANSITIVE[number])] + noun_phrase(rng, rng.randint(2))
    else:
        words.append(rng.choice(INTRANSITIVE[number]))
    return words + [EOS]


def generated_corpus(n_words: tuple[int, int, int], seed: int
                     ) -> tuple[tuple[np.ndarray, ...], dict[str, int]]:
    """Train, validation and test word-id arrays from the grammar, and the vocabulary."""
    vocab: dict[str, int] = {}
    for group in (DETS, NOUNS, (ADJS,), TRANSITIVE, INTRANSITIVE, (PREPS,), ([EOS],)):
        for forms in group:
            for w in forms:
                vocab.setdefault(w, len(vocab))
    rng = np.random.RandomState(seed)
    splits = []
    for size in n_words:
        words: list[str] = []
        while len(words) < size:
            words += sentence(rng)
        splits.append(np.array([vocab[w] for w in words], dtype=np.int32))
    return tuple(splits), vocab


class ParallelSequentialIterator(ch.dataset.Iterator):
    """Reads ``batch_size`` positions of one long sequence in step; yields (word, next word).

    The positions start evenly spread over the sequence, so the state of each row of the
    LSTM carries over from one batch to the next.
    """

    def __init__(self, dataset: np.ndarray, batch_size: int, repeat: bool = True) -> None:
        self.dataset = dataset
        self.batch_size = batch_size
        self.repeat = repeat
        self.offsets = [i * len(dataset) // batch_size for i in range(batch_size)]
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False
        self._previous_epoch_detail = -1.0

    def __next__(self) -> list[tuple[np.int32, np.int32]]:
        length = len(self.dataset)
        if not self.repeat and self.iteration * self.batch_size >= length:
            raise StopIteration
        self._previous_epoch_detail = self.epoch_detail
        positions = [(offset + self.iteration) % length for offset in self.offsets]
        cur = self.dataset[positions]
        nxt = self.dataset[[(p + 1) % length for p in positions]]
        self.iteration += 1
        epoch = self.iteration * self.batch_size // length
        self.is_new_epoch = self.epoch < epoch
        self.epoch = epoch
        return list(zip(cur, nxt))

    @property
    def epoch_detail(self) -> float:
        return self.iteration * self.batch_size / len(self.dataset)

    @property
    def previous_epoch_detail(self) -> float | None:
        return None if self._previous_epoch_detail < 0 else self._previous_epoch_detail

    def reset(self) -> None:
        """Start again from the beginning (the evaluator calls this before each pass)."""
        self.iteration = 0
        self.epoch = 0
        self.is_new_epoch = False

    def serialize(self, serializer: Any) -> None:
        self.iteration = serializer('iteration', self.iteration)
        self.epoch = serializer('epoch', self.epoch)


class RNNLM(ch.Chain):
    """EmbedID -> LSTM -> LSTM -> Linear, dropout before each LSTM and the output layer."""

    def __init__(self, n_vocab: int, n_units: int, dropout: float = 0.3) -> None:
        super().__init__()
        self.dropout = dropout
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.l1 = L.LSTM(n_units, n_units)
            self.l2 = L.LSTM(n_units, n_units)
            self.l3 = L.Linear(n_units, n_vocab)
        for param in self.params():
            param.array[...] = np.random.uniform(-0.1, 0.1, param.shape)

    def reset_state(self) -> None:
        self.l1.reset_state()
        self.l2.reset_state()

    def forward(self, x: Any) -> ch.Variable:
        h = self.embed(x)
        h = self.l1(F.dropout(h, self.dropout))
        h = self.l2(F.dropout(h, self.dropout))
        return self.l3(F.dropout(h, self.dropout))


class BPTTUpdater(training.updaters.StandardUpdater):
    """Accumulates the loss over ``bprop_len`` steps, then backpropagates and truncates."""

    def __init__(self, train_iter: ParallelSequentialIterator, optimizer: ch.Optimizer,
                 bprop_len: int, device: Any) -> None:
        super().__init__(train_iter, optimizer, device=device)
        self.bprop_len = bprop_len

    def update_core(self) -> None:
        train_iter = self.get_iterator('main')
        optimizer = self.get_optimizer('main')
        loss = 0
        for _ in range(self.bprop_len):
            x, t = concat_examples(train_iter.__next__(), self.device)
            loss += optimizer.target(x, t)
        optimizer.target.cleargrads()
        loss.backward()
        loss.unchain_backward()  # truncate the graph: the state carries on, the history not
        optimizer.update()


def perplexity(log: dict[str, Any]) -> None:
    """LogReport postprocess: add perplexities computed from the mean losses."""
    for key, out in (('main/loss', 'perplexity'), ('validation/main/loss', 'val_perplexity')):
        if key in log:
            log[out] = float(np.exp(log[key]))


def evaluate(model: L.Classifier, data: np.ndarray, device: ch.backend.Device) -> float:
    """Perplexity of the whole sequence ``data`` read one word at a time (batch 1)."""
    rnn = model.predictor.copy()
    rnn.reset_state()
    total = 0.0
    with ch.using_config('train', False), ch.no_backprop_mode():
        for i in range(len(data) - 1):
            x = device.send(data[i:i + 1])
            t = device.send(data[i + 1:i + 2])
            total += float(F.softmax_cross_entropy(rnn(x), t).array)
    return float(np.exp(total / (len(data) - 1)))


def generate(model: L.Classifier, prompt: list[str], vocab: dict[str, int], length: int,
             rng: np.random.RandomState, device: ch.backend.Device) -> list[str]:
    """Feed the prompt, then sample ``length`` words from the model's softmax."""
    words = {i: w for w, i in vocab.items()}
    rnn = model.predictor.copy()
    rnn.reset_state()
    out = list(prompt)
    with ch.using_config('train', False), ch.no_backprop_mode():
        for w in prompt:
            y = rnn(device.send(np.array([vocab[w]], np.int32)))
        for _ in range(length):
            p = ch.backend.CpuDevice().send(F.softmax(y).array[0]).astype(np.float64)
            word = int(rng.choice(len(p), p=p / p.sum()))
            out.append(words[word])
            y = rnn(device.send(np.array([word], np.int32)))
    return out


def main(argv: list[str] | None = None) -> float:
    """Train, report the test perplexity, generate text; return the test perplexity."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=10)
    parser.add_argument('--batchsize', type=int, default=20)
    parser.add_argument('--bproplen', type=int, default=20, help='steps per truncated BPTT')
    parser.add_argument('--unit', type=int, default=100)
    parser.add_argument('--gradclip', type=float, default=5.0)
    parser.add_argument('--prompt', default=None, help='words to continue (space separated)')
    parser.add_argument('--real-data', action='store_true',
                        help='train on the Penn Treebank (chainer.datasets.get_ptb_words)')
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    parser.add_argument('--out', default='result')
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0...")
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args(argv)

    np.random.seed(args.seed)
    if args.real_data:
        train, val, test = ch.datasets.get_ptb_words()
        vocab = ch.datasets.get_ptb_words_vocabulary()
        if args.quick:
            train, val, test = train[:20000], val[:2000], test[:2000]
        prompt = args.prompt or 'the company said'
    else:
        sizes = (8000, 800, 800) if args.quick else (60000, 3000, 3000)
        (train, val, test), vocab = generated_corpus(sizes, args.seed)
        prompt = args.prompt or 'the old dogs'
    if args.quick:
        args.epochs, args.unit = 4, 64
    n_vocab = len(vocab)
    print(f'vocabulary: {n_vocab} words; train {len(train)}, validation {len(val)}, '
          f'test {len(test)} words')

    device = ch.get_device(args.device)
    device.use()
    model = L.Classifier(RNNLM(n_vocab, args.unit))
    model.compute_accuracy = False
    model.to_device(device)
    optimizer = ch.optimizers.Adam(alpha=0.01 if args.quick else 0.002).setup(model)
    optimizer.add_hook(ch.optimizer_hooks.GradientClipping(args.gradclip))

    train_iter = ParallelSequentialIterator(train, args.batchsize)
    val_iter = ParallelSequentialIterator(val, 1, repeat=False)
    updater = BPTTUpdater(train_iter, optimizer, args.bproplen, device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)

    eval_model = model.copy()  # shares the parameters, has its own LSTM state
    eval_rnn = eval_model.predictor
    trainer.extend(extensions.Evaluator(val_iter, eval_model, device=device,
                                        eval_hook=lambda _: eval_rnn.reset_state()))
    interval = (1, 'epoch')
    trainer.extend(extensions.LogReport(postprocess=perplexity, trigger=interval))
    trainer.extend(extensions.PrintReport(
        ['epoch', 'iteration', 'perplexity', 'val_perplexity', 'elapsed_time']),
        trigger=interval)
    trainer.extend(extensions.snapshot_object(model, 'model_epoch_{.updater.epoch}'),
                   trigger=(args.epochs, 'epoch'))
    trainer.run()

    test_ppl = evaluate(model, test, device)
    words = prompt.split()
    unknown = [w for w in words if w not in vocab]
    if unknown:
        print(f'prompt words not in the vocabulary, left out: {unknown}')
        words = [w for w in words if w in vocab] or [EOS]
    text = generate(model, words, vocab, 30, np.random.RandomState(args.seed), device)
    print('generated:', ' '.join(text).replace(' ' + EOS, ' .'))
    print(f'final test perplexity: {test_ppl:.3f}')
    return test_ppl


if __name__ == '__main__':
    main()
