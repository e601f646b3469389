"""BinaryHierarchicalSoftmax: the hierarchical softmax over a binary tree of words."""

from __future__ import annotations

import heapq
import itertools
from typing import TYPE_CHECKING, Any

import numpy

import chainer
from chainer import backend, device_resident, functions, initializers
from chainer.link import Link
from chainer.variable import Parameter, as_array

if TYPE_CHECKING:
    from typing import TypeAlias

    from chainer.device_resident import DeviceResidentsVisitor
    from chainer.types import DTypeSpec, VariableOrArray
    from chainer.variable import Variable

    # a tree of word IDs: a leaf (an ID) or a pair of trees
    Tree: TypeAlias = 'int | tuple[Tree, Tree]'


class TreeParser:
    """Numbers the internal nodes of a binary tree and records each leaf's path.

    A tree is a leaf (an int, the word ID) or a pair of trees. Internal nodes
    are numbered in pre-order (the root is 0), as in v7, so the rows of a
    saved ``W`` keep their meaning.

    Args:
        tree: the tree (its root must be a pair).

    Raises:
        ValueError: when an internal node does not have exactly two children, the
            root is a leaf, or a leaf is not a non-negative int or appears twice.
    """

    def __init__(self, tree: Tree) -> None:
        if not isinstance(tree, tuple):
            raise ValueError('the tree of BinaryHierarchicalSoftmax must have at least one '
                             'internal node (a pair)')
        self._size = 0
        self._paths: dict[int, list[int]] = {}
        self._codes: dict[int, list[float]] = {}
        # Iterative pre-order walk: (subtree, path of node ids, codes) per item.
        stack: list[tuple[Any, list[int], list[float]]] = [(tree, [], [])]
        while stack:
            node, path, code = stack.pop()
            if isinstance(node, tuple):
                if len(node) != 2:
                    raise ValueError('All internal nodes must have two child nodes')
                index = self._size
                self._size += 1
                left, right = node
                stack.append((right, path + [index], code + [-1.0]))
                stack.append((left, path + [index], code + [1.0]))
            else:
                leaf = _leaf_id(node)
                if leaf in self._paths:
                    raise ValueError(f'the word ID {leaf} appears twice in the tree')
                self._paths[leaf] = path
                self._codes[leaf] = code

    def size(self) -> int:
        """The number of internal nodes (the rows of ``W``)."""
        return self._size

    def get_paths(self) -> dict[int, list[int]]:
        """Leaf ID -> the internal nodes from the root to the leaf."""
        return self._paths

    def get_codes(self) -> dict[int, list[float]]:
        """Leaf ID -> the direction taken at each node: 1 (left) or -1 (right)."""
        return self._codes


def _leaf_id(node: Any) -> int:
    if isinstance(node, (bool, numpy.bool_)) or not isinstance(node, (int, numpy.integer)) \
            or node < 0:
        raise ValueError(f'a leaf of the tree must be a non-negative int (a word ID), '
                         f'not {node!r}')
    return int(node)


class BinaryHierarchicalSoftmaxFunction(device_resident.DeviceResident):
    """The loss of :class:`BinaryHierarchicalSoftmax` for a fixed tree.

    Holds, for the leaves sorted by ID, their concatenated paths (``paths``,
    node IDs), the directions (``codes``, +1 / -1) and the start of each leaf's
    path (``begins``, with one more entry at the end).

    Args:
        tree: the tree (see :class:`TreeParser`).
        dtype: the dtype of ``codes``.
    """

    def __init__(self, tree: Tree, dtype: DTypeSpec | None = None) -> None:
        super().__init__()
        parser = TreeParser(tree)
        paths = parser.get_paths()
        codes = parser.get_codes()
        n_leaves = max(paths) + 1
        lengths = numpy.array([len(paths.get(i, ())) for i in range(n_leaves)])
        self.begins = numpy.concatenate(([0], numpy.cumsum(lengths))).astype(numpy.int32)
        self.paths = numpy.array(
            list(itertools.chain.from_iterable(paths.get(i, ()) for i in range(n_leaves))),
            dtype=numpy.int32)
        self.codes = numpy.array(
            list(itertools.chain.from_iterable(codes.get(i, ()) for i in range(n_leaves))),
            dtype=chainer.get_dtype(dtype))
        self.parser_size = parser.size()

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Let ``visitor`` move the tables."""
        super().device_resident_accept(visitor)
        self.begins = visitor.visit_array(self.begins)
        self.paths = visitor.visit_array(self.paths)
        self.codes = visitor.visit_array(self.codes)

    def __call__(self, x: VariableOrArray, t: VariableOrArray, W: VariableOrArray) -> Any:
        """The loss ``sum_i sum_{n in path(t_i)} softplus(-code_n W[n] . x_i)``.

        Args:
            x: inputs of shape ``(batch, in_size)``.
            t: word IDs of shape ``(batch,)``.
            W: the node vectors, ``(n_nodes, in_size)``.

        Raises:
            ValueError: when ``x`` and ``t`` disagree in length or a word ID is
                not a leaf of the tree.
        """
        t = as_array(t)
        xp = backend.get_array_module(t)
        if x.ndim != 2 or t.ndim != 1 or len(x) != len(t):
            raise ValueError('BinaryHierarchicalSoftmax takes x of shape (batch, in_size) '
                             f'and t of shape (batch,), not {x.shape} and {t.shape}')
        n_leaves = len(self.begins) - 1
        if xp is numpy and t.size and (t.min() < 0 or t.max() >= n_leaves):
            raise ValueError(f'word IDs must be leaves of the tree, in [0, {n_leaves}); '
                             f'got {t.min()}..{t.max()}')
        t = t.astype(numpy.int64, copy=False)
        starts = self.begins[t]
        lengths = self.begins[t + 1] - starts
        total = int(lengths.sum())
        rows = xp.repeat(xp.arange(len(t)), lengths)
        first = xp.repeat(xp.cumsum(lengths) - lengths, lengths)
        index = xp.repeat(starts, lengths) + (xp.arange(total) - first)
        nodes = self.paths[index]
        codes = self.codes[index].astype(x.dtype, copy=False)
        wx = functions.sum(functions.get_item(W, nodes) * functions.get_item(x, rows),
                           axis=1)
        return functions.sum(functions.softplus(-codes * wx))


class BinaryHierarchicalSoftmax(Link):
    """Hierarchical softmax over a binary tree (Morin and Bengio, 2005).

    The probability of word ``t`` is the product, along the path from the root
    to the leaf ``t``, of ``sigmoid(+-W[n] . x)`` (+ going left, - going right).
    Calling the link gives the negative log-likelihood summed over the batch.
    ``W`` has one row per internal node, initialized uniformly in [-1, 1].

    Args:
        in_size: the size of the input vectors.
        tree: the tree: a word ID (leaf) or a pair of trees; see
            :meth:`create_huffman_tree`.
        dtype: the dtype of ``W`` (``chainer.config.dtype`` by default).
    """

    def __init__(self, in_size: int, tree: Tree, dtype: DTypeSpec | None = None) -> None:
        super().__init__()
        dtype = chainer.get_dtype(dtype)
        self._func = BinaryHierarchicalSoftmaxFunction(tree, dtype)
        with self.init_scope():
            self.W = Parameter(initializers.Uniform(1, dtype),
                               (self._func.parser_size, in_size))

    def device_resident_accept(self, visitor: DeviceResidentsVisitor) -> None:
        """Visit the parameters and the tree tables."""
        super().device_resident_accept(visitor)
        self._func.device_resident_accept(visitor)

    @staticmethod
    def create_huffman_tree(word_counts: dict[Any, Any]) -> Any:
        """Build a Huffman tree from word frequencies (frequent words get short paths).

        Args:
            word_counts: word -> count.

        Returns:
            The tree: nested pairs whose leaves are the words (a single word
            alone gives that word).

        Raises:
            ValueError: for empty ``word_counts``.
        """
        if len(word_counts) == 0:
            raise ValueError('Empty vocabulary')
        order = itertools.count()
        heap = [(count, next(order), word) for word, count in word_counts.items()]
        heapq.heapify(heap)
        while len(heap) > 1:
            count1, _, first = heapq.heappop(heap)
            count2, _, second = heapq.heappop(heap)
            heapq.heappush(heap, (count1 + count2, next(order), (first, second)))
        return heap[0][2]

    def forward(self, x: VariableOrArray, t: VariableOrArray) -> Variable:
        """The negative log-likelihood of the words ``t`` given ``x``, summed over the batch.

        Args:
            x: inputs of shape ``(batch, in_size)``.
            t: word IDs of shape ``(batch,)``.
        """
        return self._func(x, t, self.W)
