"""Recursive sentiment: a binary Tree-LSTM that labels every phrase of a parse tree.

Each node of a binary tree gets a hidden and a cell state: a leaf from its word's
embedding, an inner node from its two children's states through ``F.tree_lstm`` (an
N-ary Tree-LSTM unit with one forget gate per child). A linear layer reads each node's
hidden state and predicts the node's sentiment: negative, neutral or positive.

The trees differ in shape, so the training loop is written out by hand: the nodes of a
batch of trees are sorted by height, and all nodes of one height are computed together
from the states of their children (computed at lower heights). The trees are generated:
leaves are positive, negative or neutral words or a negator (``not``, ``never``); a
negator on the left flips the sentiment of the phrase on its right, a neutral phrase
takes its sibling's sentiment, and of two opposite phrases the right one wins (as in
"dull at first but great"). The final metric is the accuracy at the roots of held-out
trees; the accuracy over all nodes is printed too. Run ``python3 recursive_sentiment.py
--help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import time
from typing import Any

import numpy as np

import chainer as ch
import chainer.functions as F
import chainer.links as L

POSITIVE = ['good', 'great', 'fine', 'lovely', 'clever', 'warm']
NEGATIVE = ['bad', 'dull', 'ugly', 'weak', 'cold', 'silly']
NEUTRAL = ['the', 'film', 'plot', 'was', 'and', 'it', 'cast', 'at', 'first']
NEGATORS = ['not', 'never']
WORDS = POSITIVE + NEGATIVE + NEUTRAL + NEGATORS
NEG, NEUTRAL_LABEL, POS = 0, 1, 2

# a leaf is (label, word id); an inner node is (label, left, right)
Tree = tuple[int, int] | tuple[int, 'Tree', 'Tree']


def combine(left: Tree, right: Tree) -> int:
    """The sentiment rule: negation flips, neutral gives way, the right one wins a conflict."""
    if len(left) == 2 and WORDS[left[1]] in NEGATORS:
        return 2 - right[0]
    if left[0] == NEUTRAL_LABEL:
        return right[0]
    if right[0] == NEUTRAL_LABEL:
        return left[0]
    return right[0]


def random_tree(rng: np.random.RandomState, n_leaves: int) -> Tree:
    """A random binary tree over ``n_leaves`` words, labelled at every node by the rule."""
    if n_leaves == 1:
        word = int(rng.randint(len(WORDS) - len(NEGATORS)))  # negators only via the branch below
        label = POS if WORDS[word] in POSITIVE else NEG if WORDS[word] in NEGATIVE else 1
        return (label, word)
    if rng.rand() < 0.25:  # (negator, phrase)
        left: Tree = (NEUTRAL_LABEL, WORDS.index(rng.choice(NEGATORS)))
        right = random_tree(rng, n_leaves - 1)
    else:
        k = rng.randint(1, n_leaves)
        left, right = random_tree(rng, k), random_tree(rng, n_leaves - k)
    return (combine(left, right), left, right)


def words_of(tree: Tree) -> list[str]:
    return [WORDS[tree[1]]] if len(tree) == 2 else words_of(tree[1]) + words_of(tree[2])


def flatten(trees: list[Tree]) -> dict[str, Any]:
    """Node arrays of a batch of trees, sorted by height: words, children, labels, roots.

    ``levels`` holds, per height, the [start, end) range of that height's nodes; children
    always come before their parents.
    """
    words, lefts, rights, labels, heights, roots = [], [], [], [], [], []

    def visit(t: Tree) -> tuple[int, int]:
        if len(t) == 2:
            left = right = -1
            height = 0
        else:
            left, hl = visit(t[1])
            right, hr = visit(t[2])
            height = 1 + max(hl, hr)
        words.append(t[1] if len(t) == 2 else -1)
        lefts.append(left)
        rights.append(right)
        labels.append(t[0])
        heights.append(height)
        return len(words) - 1, height

    for t in trees:
        roots.append(visit(t)[0])
    order = np.argsort(heights, kind='stable')
    position = np.empty(len(order), np.int64)
    position[order] = np.arange(len(order))
    remap = lambda ids: np.array([position[i] if i >= 0 else -1 for i in ids])[order]  # noqa: E731
    sorted_heights = np.array(heights)[order]
    bounds = np.searchsorted(sorted_heights, np.arange(sorted_heights[-1] + 2))
    return {'words': np.array(words, np.int32)[order], 'left': remap(lefts),
            'right': remap(rights), 'labels': np.array(labels, np.int32)[order],
            'roots': position[roots], 'levels': list(zip(bounds[:-1], bounds[1:]))}


class TreeLSTMSentiment(ch.Chain):
    """Leaf embeddings, a binary Tree-LSTM over the inner nodes, a classifier at each node."""

    def __init__(self, n_vocab: int, n_units: int, n_label: int = 3) -> None:
        super().__init__()
        self.n_units = n_units
        with self.init_scope():
            self.embed = L.EmbedID(n_vocab, n_units)
            self.leaf = L.Linear(n_units, 5 * n_units)  # gates a, i, o, f_left, f_right
            self.W_left = L.Linear(n_units, 5 * n_units)
            self.W_right = L.Linear(n_units, 5 * n_units, nobias=True)
            self.out = L.Linear(n_units, n_label)

    def forward(self, nodes: dict[str, Any]) -> ch.Variable:
        """Logits of every node, in the order of ``nodes``."""
        xp = self.xp
        start, end = nodes['levels'][0]
        e = F.dropout(self.embed(xp.asarray(nodes['words'][start:end])), 0.2)
        zeros = xp.zeros((end - start, self.n_units), np.float32)
        c, h = F.tree_lstm(zeros, zeros, self.leaf(e))
        for start, end in nodes['levels'][1:]:
            left = xp.asarray(nodes['left'][start:end])
            right = xp.asarray(nodes['right'][start:end])
            x = self.W_left(h[left]) + self.W_right(h[right])
            c_new, h_new = F.tree_lstm(c[left], c[right], x)
            c, h = F.concat([c, c_new], axis=0), F.concat([h, h_new], axis=0)
        return self.out(F.dropout(h, 0.2))


def evaluate(model: TreeLSTMSentiment, trees: list[Tree], batch: int = 200
             ) -> tuple[float, float]:
    """Accuracy at the roots and over all nodes."""
    roots = nodes = n_roots = n_nodes = 0
    with ch.using_config('train', False), ch.no_backprop_mode():
        for i in range(0, len(trees), batch):
            flat = flatten(trees[i:i + batch])
            pred = ch.backend.CpuDevice().send(model(flat).array).argmax(axis=1)
            correct = pred == flat['labels']
            roots += int(correct[flat['roots']].sum())
            nodes += int(correct.sum())
            n_roots, n_nodes = n_roots + len(flat['roots']), n_nodes + len(correct)
    return roots / n_roots, nodes / n_nodes


def main(argv: list[str] | None = None) -> float:
    """Train with a hand-written loop; return the final root accuracy on held-out trees."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--batchsize', type=int, default=25)
    parser.add_argument('--unit', type=int, default=64)
    parser.add_argument('--max-leaves', type=int, default=10)
    parser.add_argument('--train-size', type=int, default=3000)
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    parser.add_argument('--out', default='result')
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0...")
    parser.add_argument('--seed', type=int, default=0)
    args = parser.parse_args(argv)

    np.random.seed(args.seed)
    n_test = 1000
    if args.quick:
        args.epochs, args.train_size, n_test = 2, 500, 300
    rng = np.random.RandomState(args.seed)
    make = lambda n: [random_tree(rng, rng.randint(2, args.max_leaves + 1))  # noqa: E731
                      for _ in range(n)]
    train, test = make(args.train_size), make(n_test)
    print(f'{len(train)} training trees, {len(test)} test trees, root labels '
          f'(neg, neutral, pos): {np.bincount([t[0] for t in train], minlength=3)}')

    device = ch.get_device(args.device)
    device.use()
    model = TreeLSTMSentiment(len(WORDS), args.unit)
    model.to_device(device)
    optimizer = ch.optimizers.Adam(alpha=0.005).setup(model)
    optimizer.add_hook(ch.optimizer_hooks.WeightDecay(1e-5))

    start = time.time()
    print('epoch  train/loss  test/root_accuracy  test/node_accuracy  elapsed_time')
    for epoch in range(1, args.epochs + 1):
        order = rng.permutation(len(train))
        losses = []
        for i in range(0, len(order), args.batchsize):
            flat = flatten([train[j] for j in order[i:i + args.batchsize]])
            loss = F.softmax_cross_entropy(model(flat), device.send(flat['labels']))
            model.cleargrads()
            loss.backward()
            optimizer.update()
            losses.append(float(loss.array))
        root_acc, node_acc = evaluate(model, test)
        print(f'{epoch:<6} {np.mean(losses):<11.4f} {root_acc:<19.4f} {node_acc:<19.4f} '
              f'{time.time() - start:.1f}')

    os.makedirs(args.out, exist_ok=True)
    ch.serializers.save_npz(os.path.join(args.out, 'model.npz'), model)
    names = ['negative', 'neutral', 'positive']
    for tree in test[:4]:
        with ch.using_config('train', False), ch.no_backprop_mode():
            flat = flatten([tree])
            pred = int(model(flat).array[flat['roots'][0]].argmax())
        print(f'{" ".join(words_of(tree))!r}: {names[pred]} (truth {names[tree[0]]})')
    print(f'test node accuracy: {node_acc:.4f}')
    print(f'final test/root_accuracy: {root_acc:.4f}')
    return root_acc


if __name__ == '__main__':
    main()
