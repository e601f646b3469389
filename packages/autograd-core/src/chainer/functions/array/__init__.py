"""Array manipulation functions.

The functions live in the modules of this package (one per function, as in
Chainer v7) and are exported by :mod:`chainer.functions`.
"""
