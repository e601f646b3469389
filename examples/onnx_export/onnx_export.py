"""Export a trained Chainer convnet to ONNX and run it in ONNX Runtime.

A small convnet (Convolution2D, BatchNormalization, max pooling, Linear) learns to tell
apart the shapes on generated 28x28 images (a rectangle, a disc or a cross; MNIST digits
with ``--real-data``). ``onnx_chainer.export`` then writes it to ``model.onnx`` with a
dynamic batch axis (``input_shapes=('batch', 1, 28, 28)``), ``onnx_chainer.export_testcase``
writes a folder with the model and an input/output pair, and ONNX Runtime runs the exported
model on batches of other sizes, whose outputs are compared with Chainer's.
Run ``python3 onnx_export.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
import onnx
import onnxruntime as ort
from onnx import numpy_helper

import chainer as ch
import chainer.functions as F
import chainer.links as L
import onnx_chainer
from chainer import datasets, training
from chainer.training import extensions

HERE = os.path.dirname(os.path.abspath(__file__))
SHAPES = ('rectangle', 'disc', 'cross')


def generate_shapes(n: int, rng: np.random.RandomState,
                    size: int = 28) -> tuple[np.ndarray, np.ndarray]:
    """*n* noisy grey images (n, 1, size, size) of one shape each, and the shape's class."""
    yy, xx = np.mgrid[:size, :size]
    labels = rng.randint(len(SHAPES), size=n).astype(np.int32)
    images = rng.uniform(0, 0.3, (n, 1, size, size)).astype(np.float32)
    for image, kind in zip(images, labels):
        cy, cx = rng.randint(8, size - 8, size=2)
        r = rng.randint(4, 8)
        if kind == 0:
            h, w = rng.randint(3, 8, size=2)
            mask = (abs(yy - cy) <= h) & (abs(xx - cx) <= w)
        elif kind == 1:
            mask = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        else:
            mask = ((abs(yy - cy) <= 1) & (abs(xx - cx) <= r)) | (
                (abs(xx - cx) <= 1) & (abs(yy - cy) <= r))
        image[0][mask] = rng.uniform(0.7, 1)
    return images, labels


class ConvNet(ch.Chain):
    """conv-BN-ReLU-pool twice, then a hidden Linear layer and the class scores."""

    def __init__(self, n_out: int) -> None:
        super().__init__()
        with self.init_scope():
            self.conv1 = L.Convolution2D(1, 8, 3, pad=1)
            self.bn1 = L.BatchNormalization(8)
            self.conv2 = L.Convolution2D(8, 16, 3, pad=1)
            self.bn2 = L.BatchNormalization(16)
            self.fc3 = L.Linear(16 * 7 * 7, 64)
            self.fc4 = L.Linear(64, n_out)

    def forward(self, x: ch.Variable | np.ndarray) -> ch.Variable:
        h = F.max_pooling_2d(F.relu(self.bn1(self.conv1(x))), 2)
        h = F.max_pooling_2d(F.relu(self.bn2(self.conv2(h))), 2)
        return self.fc4(F.relu(self.fc3(h)))


def main(argv: list[str] | None = None) -> float:
    """Train, export, run in ONNX Runtime; return the largest difference from Chainer."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=5)
    parser.add_argument('--batchsize', type=int, default=50)
    parser.add_argument('--opset', type=int, default=None,
                        help='ONNX opset (default: onnx_chainer.DEFAULT_OPSET_VERSION)')
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0, ...")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--real-data', action='store_true',
                        help='MNIST through chainer.datasets.get_mnist (downloads)')
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs = 2

    np.random.seed(args.seed)
    if args.real_data:
        train, test = datasets.get_mnist(ndim=3)
        if args.quick:
            train, test = train[:2000], test[:500]
        n_out = 10
    else:
        rng = np.random.RandomState(args.seed)
        n_train, n_test = (1000, 300) if args.quick else (5000, 1000)
        train = datasets.TupleDataset(*generate_shapes(n_train, rng))
        test = datasets.TupleDataset(*generate_shapes(n_test, rng))
        n_out = len(SHAPES)

    # 1. train (briefly) so that the exported weights mean something
    device = ch.get_device(args.device)
    net = ConvNet(n_out)
    model = L.Classifier(net)
    model.to_device(device)
    device.use()
    optimizer = ch.optimizers.Adam().setup(model)
    train_iter = ch.iterators.SerialIterator(train, args.batchsize)
    test_iter = ch.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/accuracy',
         'validation/main/accuracy', 'elapsed_time']))
    trainer.run()

    # 2. export the predictor (not the Classifier and its loss) on the CPU; the model runs
    # once in test mode (BatchNormalization uses its running statistics) on a sample input
    net.to_device('@numpy')
    x_test, t_test = ch.dataset.concat_examples(test[:64])
    path = os.path.join(args.out, 'model.onnx')
    onnx_chainer.export(net, x_test[:1], filename=path, opset_version=args.opset,
                        input_names=['x'], output_names=['scores'],
                        input_shapes=('batch', 1, 28, 28), no_testcase=True)
    proto = onnx.load(path)
    onnx.checker.check_model(proto)
    dims = proto.graph.input[0].type.tensor_type.shape.dim
    shape = [d.dim_param or d.dim_value for d in dims]
    ops = sorted({node.op_type for node in proto.graph.node})
    print(f'wrote {path}: opset {proto.opset_import[0].version}, input x{shape}, ops {ops}')

    testcase = os.path.join(args.out, 'testcase')
    onnx_chainer.export_testcase(net, x_test[:4], testcase, opset_version=args.opset,
                                 input_names=['x'], output_names=['scores'])
    print(f'wrote {testcase}/model.onnx and {testcase}/test_data_set_0/{{input,output}}_0.pb')

    # 3. run in ONNX Runtime on batches of several sizes, compare with Chainer's forward
    session = ort.InferenceSession(path, providers=['CPUExecutionProvider'])
    diff = 0.0
    with ch.using_config('train', False), ch.no_backprop_mode():
        for batch in (1, 7, 64):
            expected = net(x_test[:batch]).array
            (got,) = session.run(['scores'], {'x': x_test[:batch]})
            diff = max(diff, float(np.abs(got - expected).max()))
            print(f'batch {batch:2d}: ONNX Runtime output {got.shape}, '
                  f'max abs difference from Chainer {np.abs(got - expected).max():.3g}')
    accuracy = float((got.argmax(axis=1) == t_test[:len(got)]).mean())
    print(f'accuracy of the ONNX model on {len(got)} validation images: {accuracy:.3f}')

    # the test case replays too: its stored input gives its stored output
    data = os.path.join(testcase, 'test_data_set_0')
    x_pb = numpy_helper.to_array(onnx.load_tensor(os.path.join(data, 'input_0.pb')))
    y_pb = numpy_helper.to_array(onnx.load_tensor(os.path.join(data, 'output_0.pb')))
    replay = ort.InferenceSession(os.path.join(testcase, 'model.onnx'),
                                  providers=['CPUExecutionProvider'])
    (y_run,) = replay.run(None, {replay.get_inputs()[0].name: x_pb})
    diff = max(diff, float(np.abs(y_run - y_pb).max()))
    print(f'test case: max abs difference {np.abs(y_run - y_pb).max():.3g}')

    print(f'final max abs difference: {diff:.3g}')
    return diff


if __name__ == '__main__':
    sys.exit(0 if main() < 1e-4 else 1)
