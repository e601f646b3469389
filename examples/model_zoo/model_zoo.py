"""Classify an image with a model of Chainer's vision model zoo.

``chainer.links.ResNet50Layers``, ``VGG16Layers`` or ``GoogLeNet`` (``--model``) reads an
image, preprocesses it with the model's own ``prepare`` (resize to 224x224, RGB to BGR,
subtract the ImageNet mean) and prints the five most probable of the 1,000 ImageNet
classes. Offline, by default, the model has random weights (``pretrained_model=None``) and
the image is drawn at run time, so the classes mean nothing: the example shows the
pipeline. ``--pretrained`` loads the converted Caffe weights through the model's own
loader, and ``--labels`` names the classes. Run ``python3 model_zoo.py --help``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
from PIL import Image, ImageDraw

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer.links.model.vision import googlenet, resnet, vgg

HERE = os.path.dirname(os.path.abspath(__file__))

# model name -> (class, its module's prepare, the layer holding the class probabilities)
MODELS = {
    'resnet50': (L.ResNet50Layers, resnet.prepare),
    'vgg16': (L.VGG16Layers, vgg.prepare),
    'googlenet': (L.GoogLeNet, googlenet.prepare),
}


def draw_image(path: str, size: int = 256) -> Image.Image:
    """Draw a small test picture (a red ball on grass under a blue sky), save it, return it."""
    image = Image.new('RGB', (size, size), (110, 170, 230))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, size * 2 // 3, size, size], fill=(60, 140, 50))
    r = size // 6
    cx, cy = size // 2, size * 2 // 3 - r // 2
    draw.ellipse([cx - r, cy - r, cx + r, cy + r], fill=(200, 30, 30), outline=(90, 10, 10))
    image.save(path)
    return image


def load_model(name: str, pretrained: bool, weights: str | None, out: str) -> ch.Chain:
    """The zoo model *name*: random weights, the cache's converted weights or a file.

    A ``.caffemodel`` file is first converted to NPZ (in *out*) with the model's
    ``convert_caffemodel_to_npz``, which needs protobuf.
    """
    cls = MODELS[name][0]
    if weights and weights.endswith('.caffemodel'):
        npz = os.path.join(out, f'{name}.npz')
        print(f'converting {weights} to {npz}')
        cls.convert_caffemodel_to_npz(weights, npz)
        weights = npz
    if weights:
        return cls(pretrained_model=weights)
    return cls(pretrained_model='auto' if pretrained else None)


def main(argv: list[str] | None = None) -> float:
    """Classify the image; return the top-1 probability."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--model', choices=sorted(MODELS), default='resnet50')
    parser.add_argument('--image', help='an image file (default: one drawn at run time)')
    parser.add_argument('--pretrained', action='store_true',
                        help="the model's converted weights from the dataset cache "
                             "(pretrained_model='auto'; see the README)")
    parser.add_argument('--weights', help='an NPZ (or .caffemodel) file of the weights')
    parser.add_argument('--labels',
                        help='the 1,000 class names, one a line in class order '
                             '(e.g. synset_words.txt)')
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0, ...")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--quick', action='store_true',
                        help='the same single forward pass (the default run is short)')
    args = parser.parse_args(argv)

    os.makedirs(args.out, exist_ok=True)
    np.random.seed(args.seed)  # the random weights
    if args.image:
        image = Image.open(args.image)
    else:
        path = os.path.join(args.out, 'input.png')
        image = draw_image(path)
        print(f'drew {path}')

    start = time.perf_counter()
    model = load_model(args.model, args.pretrained, args.weights, args.out)
    print(f'{type(model).__name__}: {sum(p.size for p in model.params()):,} parameters '
          f'({"random" if not (args.pretrained or args.weights) else "loaded"} weights, '
          f'{time.perf_counter() - start:.1f} s)')
    device = ch.get_device(args.device)
    model.to_device(device)
    device.use()

    # the model's prepare: resize to 224x224, RGB -> BGR, channels first, minus the mean
    prepare = MODELS[args.model][1]
    x = prepare(image)[None]
    start = time.perf_counter()
    with ch.using_config('train', False), ch.no_backprop_mode():
        prob = model(device.send(x), layers=['prob'])['prob']
    prob = F.reshape(prob, (len(x), -1)).array
    prob = ch.backend.CpuDevice().send(prob)[0]
    print(f'forward pass of {x.shape}: {time.perf_counter() - start:.2f} s')

    labels = None
    if args.labels:
        with open(args.labels) as f:
            labels = [line.strip() for line in f if line.strip()]
    top = np.argsort(prob)[::-1][:5]
    print('top-5 classes:')
    for rank, k in enumerate(top, 1):
        name = f'  {labels[k]}' if labels else ''
        print(f'  {rank}. class {k:3d}  p = {prob[k]:.4f}{name}')

    p1 = float(prob[top[0]])
    print(f'final top-1 probability: {p1:.4f}')
    return p1


if __name__ == '__main__':
    sys.exit(0 if 0 < main() <= 1 else 1)
