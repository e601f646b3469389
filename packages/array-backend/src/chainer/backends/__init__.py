"""Backend modules: :mod:`chainer.backends.cuda` (CuPy) and the CPU helpers."""
