"""Recurrent neural network functions: LSTM-family cells and the stacked n-step RNNs.

The functions live in the modules of this package (one per function, as in
Chainer v7) and are exported by :mod:`chainer.functions`.
"""
