"""DCGAN: a deep convolutional generative adversarial network on 32x32 color images.

The generator turns a noise vector into an image with Deconvolution2D layers and batch
normalization; the discriminator tells real from generated images with strided
Convolution2D layers. A custom updater steps both optimizers on each batch (the
non-saturating GAN losses written with softplus), and an extension draws a grid of
images generated from fixed noise every few iterations. By default the training images are
generated offline (a colored disc and a colored square on a dark background);
``--real-data`` uses CIFAR-10. Run ``python3 dcgan.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from PIL import Image

import chainer as ch
import chainer.functions as F
import chainer.links as L
from chainer import datasets, training
from chainer.training import extensions

HERE = os.path.dirname(os.path.abspath(__file__))


# saturated colors: red, green, blue, yellow, magenta, cyan, orange, white (in [-1, 1])
PALETTE = np.array([[1, -1, -1], [-1, 1, -1], [-1, -1, 1], [1, 1, -1], [1, -1, 1],
                    [-1, 1, 1], [1, 0, -1], [1, 1, 1]], dtype=np.float32)


def generate_blobs(n: int, rng: np.random.RandomState, size: int = 32) -> np.ndarray:
    """*n* images (n, 3, size, size) in [-1, 1]: a colored disc and a colored square each."""
    yy, xx = np.mgrid[:size, :size]
    images = np.full((n, 3, size, size), -1, dtype=np.float32)
    for i in range(n):
        cy, cx = rng.randint(7, size - 7, size=2)
        r = rng.randint(4, 8)
        disc = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        sy, sx = rng.randint(3, size - 3, size=2)
        h = rng.randint(2, 5)
        square = (abs(yy - sy) <= h) & (abs(xx - sx) <= h)
        for mask in (square, disc):  # the disc in front
            images[i][:, mask] = PALETTE[rng.randint(len(PALETTE))][:, None]
    return images


class Generator(ch.Chain):
    """z -> Linear to 4x4 maps -> three Deconvolution2D (x2 each, BN + ReLU) -> 32x32 tanh."""

    def __init__(self, n_z: int, ch0: int) -> None:
        super().__init__()
        self.n_z, self.ch0 = n_z, ch0
        w = ch.initializers.Normal(0.02)
        with self.init_scope():
            self.l0 = L.Linear(n_z, 4 * 4 * ch0, initialW=w)
            self.dc1 = L.Deconvolution2D(ch0, ch0 // 2, 4, stride=2, pad=1, initialW=w)
            self.dc2 = L.Deconvolution2D(ch0 // 2, ch0 // 4, 4, stride=2, pad=1, initialW=w)
            self.dc3 = L.Deconvolution2D(ch0 // 4, 3, 4, stride=2, pad=1, initialW=w)
            self.bn0 = L.BatchNormalization(4 * 4 * ch0)
            self.bn1 = L.BatchNormalization(ch0 // 2)
            self.bn2 = L.BatchNormalization(ch0 // 4)

    def make_noise(self, batch: int) -> np.ndarray:
        """Uniform noise in [-1, 1) of shape (batch, n_z) on the generator's device."""
        return self.xp.random.uniform(-1, 1, (batch, self.n_z)).astype(np.float32)

    def forward(self, z: ch.Variable | np.ndarray) -> ch.Variable:
        h = F.relu(self.bn0(self.l0(z)))
        h = F.reshape(h, (len(z), self.ch0, 4, 4))
        h = F.relu(self.bn1(self.dc1(h)))
        h = F.relu(self.bn2(self.dc2(h)))
        return F.tanh(self.dc3(h))


class Discriminator(ch.Chain):
    """Three stride-2 Convolution2D (leaky ReLU, BN on the inner two) and a Linear logit."""

    def __init__(self, ch0: int) -> None:
        super().__init__()
        w = ch.initializers.Normal(0.02)
        with self.init_scope():
            self.c1 = L.Convolution2D(3, ch0 // 4, 4, stride=2, pad=1, initialW=w)
            self.c2 = L.Convolution2D(ch0 // 4, ch0 // 2, 4, stride=2, pad=1, initialW=w)
            self.c3 = L.Convolution2D(ch0 // 2, ch0, 4, stride=2, pad=1, initialW=w)
            self.l4 = L.Linear(4 * 4 * ch0, 1, initialW=w)
            self.bn2 = L.BatchNormalization(ch0 // 2)
            self.bn3 = L.BatchNormalization(ch0)

    def forward(self, x: ch.Variable | np.ndarray) -> ch.Variable:
        h = F.leaky_relu(self.c1(x))
        h = F.leaky_relu(self.bn2(self.c2(h)))
        h = F.leaky_relu(self.bn3(self.c3(h)))
        return self.l4(h)


class DCGANUpdater(training.StandardUpdater):
    """One discriminator step and one generator step per batch of real images."""

    def __init__(self, iterator: ch.dataset.Iterator, gen_opt: ch.Optimizer,
                 dis_opt: ch.Optimizer, device: ch.backend.Device) -> None:
        super().__init__(iterator, {'gen': gen_opt, 'dis': dis_opt}, device=device)

    def update_core(self) -> None:
        gen_opt = self.get_optimizer('gen')
        dis_opt = self.get_optimizer('dis')
        gen, dis = gen_opt.target, dis_opt.target

        batch = self.get_iterator('main').next()
        x_real = self.converter(batch, self.device)
        x_fake = gen(gen.make_noise(len(batch)))

        # discriminator: real -> 1, fake -> 0, i.e. -log D(x) - log(1 - D(G(z))); the fake
        # images enter as plain arrays, so this step leaves the generator alone
        y_real = dis(x_real)
        y_fake = dis(x_fake.array)
        dis_loss = F.mean(F.softplus(-y_real)) + F.mean(F.softplus(y_fake))
        dis.cleargrads()
        dis_loss.backward()
        dis_opt.update()

        # generator (non-saturating): -log D(G(z)), through the updated discriminator
        gen_loss = F.mean(F.softplus(-dis(x_fake)))
        gen.cleargrads()
        gen_loss.backward()
        gen_opt.update()

        ch.report({'loss': dis_loss}, dis)
        ch.report({'loss': gen_loss}, gen)


def save_grid(images: np.ndarray, rows: int, path: str) -> None:
    """Tile (n, 3, h, w) images in [-1, 1] into *rows* rows and write them as a PNG."""
    n, c, h, w = images.shape
    cols = n // rows
    tiles = images[:rows * cols].reshape(rows, cols, c, h, w)
    grid = tiles.transpose(0, 3, 1, 4, 2).reshape(rows * h, cols * w, c)
    pixels = ((grid + 1) * 127.5).clip(0, 255).astype(np.uint8)
    Image.fromarray(pixels).resize((cols * w * 2, rows * h * 2), Image.NEAREST).save(path)


def sample_images(gen: Generator, z: np.ndarray, out: str) -> training.Extension:
    """An extension writing the images *gen* makes from the fixed noise *z* to a PNG."""

    @training.make_extension()
    def draw(trainer: training.Trainer) -> None:
        with ch.using_config('train', False), ch.no_backprop_mode():
            x = ch.backend.CpuDevice().send(gen(z).array)
        name = f'samples_{trainer.updater.iteration:05d}.png'
        save_grid(x, 5, os.path.join(out, name))

    return draw


def main(argv: list[str] | None = None) -> float:
    """Train the GAN, drawing samples as it goes; return the final discriminator loss."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--iterations', type=int, default=1500)
    parser.add_argument('--batchsize', type=int, default=32)
    parser.add_argument('--lr', type=float, default=1e-3,
                        help='Adam step size of both networks (beta1 is 0.5)')
    parser.add_argument('--n-z', type=int, default=32, help='dimensions of the noise')
    parser.add_argument('--channels', type=int, default=64,
                        help='feature maps at 4x4 (halved at each larger size)')
    parser.add_argument('--snapshot-interval', type=int, default=300,
                        help='draw the sample grid every this many iterations')
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0, ...")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--real-data', action='store_true',
                        help='CIFAR-10 through chainer.datasets.get_cifar10 (downloads)')
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    args = parser.parse_args(argv)
    if args.quick:
        args.iterations, args.snapshot_interval = 100, 50

    np.random.seed(args.seed)
    if args.real_data:
        train, _ = datasets.get_cifar10(withlabel=False, scale=2.0)
        train = train - 1  # [0, 2] -> [-1, 1]
    else:
        n = 2000 if args.quick else 10000
        train = generate_blobs(n, np.random.RandomState(args.seed))

    device = ch.get_device(args.device)
    gen, dis = Generator(args.n_z, args.channels), Discriminator(args.channels)
    gen.to_device(device)
    dis.to_device(device)
    device.use()

    def adam(model: ch.Link) -> ch.Optimizer:
        optimizer = ch.optimizers.Adam(alpha=args.lr, beta1=0.5)
        optimizer.setup(model)
        return optimizer

    train_iter = ch.iterators.SerialIterator(train, args.batchsize)
    updater = DCGANUpdater(train_iter, adam(gen), adam(dis), device)
    trainer = training.Trainer(updater, (args.iterations, 'iteration'), out=args.out)
    z = gen.make_noise(25)  # the same noise for every grid, to watch the images change
    trainer.extend(sample_images(gen, z, args.out),
                   trigger=(args.snapshot_interval, 'iteration'))
    log_interval = (max(1, args.iterations // 10), 'iteration')
    log_report = extensions.LogReport(trigger=log_interval)
    trainer.extend(log_report)
    trainer.extend(extensions.PrintReport(['epoch', 'iteration', 'gen/loss', 'dis/loss',
                                           'elapsed_time']), trigger=log_interval)
    trainer.run()

    print(f'wrote the sample grids {args.out}/samples_*.png')
    # the means over the last tenth of the run
    gen_loss, dis_loss = (float(log_report.log[-1][key]) for key in ('gen/loss', 'dis/loss'))
    print(f'final gen/loss: {gen_loss:.4f}')
    print(f'final dis/loss: {dis_loss:.4f}')
    return dis_loss


if __name__ == '__main__':
    sys.exit(0 if np.isfinite(main()) else 1)
