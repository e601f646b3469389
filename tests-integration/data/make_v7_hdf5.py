"""Write v7_mlp.h5 and v7_mlp_opt.h5 with Chainer 7.8.1 and h5py (not run by tests).

Usage, with Chainer 7.8.1 and h5py: ``python make_v7_hdf5.py OUT_DIR``. The model and the
Adam state are those of ``v7_mlp.model`` / ``v7_mlp.opt`` (the same MLP after the same three
updates), saved with ``save_hdf5`` (gzip level 4); the model has an uninitialized extra
link, saved by v7 as an empty dataset. It prints the loss after one more update.
"""

import os
import sys

import numpy

import chainer
import chainer.functions as F
import chainer.links as L


class Net(chainer.Chain):
    def __init__(self):
        super().__init__()
        with self.init_scope():
            self.l1 = L.Linear(4, 5)
            self.l2 = L.Linear(5, 3)
            self.lazy = L.Linear(None, 2)

    def forward(self, x):
        return self.l2(F.relu(self.l1(x)))


if __name__ == '__main__':
    out = sys.argv[1]
    numpy.random.seed(1)
    model = L.Classifier(Net())
    optimizer = chainer.optimizers.Adam().setup(model)
    x = numpy.random.RandomState(0).randn(6, 4).astype(numpy.float32)
    t = numpy.array([0, 1, 2, 0, 1, 2], numpy.int32)
    for _ in range(3):
        optimizer.update(model, x, t)
    chainer.serializers.save_hdf5(os.path.join(out, 'v7_mlp.h5'), model)
    chainer.serializers.save_hdf5(os.path.join(out, 'v7_mlp_opt.h5'), optimizer)
    optimizer.update(model, x, t)
    print(repr(float(model(x, t).array)))
