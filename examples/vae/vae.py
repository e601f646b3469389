"""Variational autoencoder on binary 28x28 images.

An encoder maps an image to a diagonal Normal posterior q(z|x), a decoder maps a latent
code to Bernoulli pixel probabilities p(x|z), and training maximises the evidence lower
bound (ELBO) E_q[log p(x|z)] - KL(q(z|x) || p(z)), sampling z with the reparameterization
trick so that gradients flow through the sample. By default the images are generated
offline (filled rectangles, discs and crosses); ``--real-data`` uses binarised MNIST.
Run ``python3 vae.py --help`` for the options.
"""

from __future__ import annotations

import argparse
import os
import sys

import numpy as np
from PIL import Image

import chainer as ch
import chainer.distributions as D
import chainer.functions as F
import chainer.links as L
from chainer import datasets, training
from chainer.training import extensions

HERE = os.path.dirname(os.path.abspath(__file__))


def generate_shapes(n: int, rng: np.random.RandomState, size: int = 28) -> np.ndarray:
    """*n* binary images (float32, flattened to size*size) of one random filled shape each."""
    yy, xx = np.mgrid[:size, :size]
    images = np.zeros((n, size, size), dtype=np.float32)
    for i in range(n):
        kind = rng.randint(3)
        cy, cx = rng.randint(8, size - 8, size=2)
        r = rng.randint(4, 8)
        if kind == 0:  # rectangle with its own width and height
            h, w = rng.randint(3, 8, size=2)
            mask = (abs(yy - cy) <= h) & (abs(xx - cx) <= w)
        elif kind == 1:  # disc
            mask = (yy - cy) ** 2 + (xx - cx) ** 2 <= r * r
        else:  # cross of two bars of width 3
            mask = ((abs(yy - cy) <= 1) & (abs(xx - cx) <= r)) | (
                (abs(xx - cx) <= 1) & (abs(yy - cy) <= r))
        images[i][mask] = 1
    return images.reshape(n, size * size)


class VAE(ch.Chain):
    """MLP encoder to (mean, log std) of q(z|x), MLP decoder to Bernoulli logits of p(x|z)."""

    def __init__(self, n_in: int, n_latent: int, n_hidden: int) -> None:
        super().__init__()
        self.n_latent = n_latent
        with self.init_scope():
            self.enc_h = L.Linear(n_in, n_hidden)
            self.enc_mu = L.Linear(n_hidden, n_latent)
            self.enc_ln_sigma = L.Linear(n_hidden, n_latent)
            self.dec_h = L.Linear(n_latent, n_hidden)
            self.dec_out = L.Linear(n_hidden, n_in)

    def encode(self, x: ch.Variable | np.ndarray) -> D.Independent:
        """The approximate posterior q(z|x): a diagonal Normal per example."""
        h = F.tanh(self.enc_h(x))
        normal = D.Normal(self.enc_mu(h), log_scale=self.enc_ln_sigma(h))
        return D.Independent(normal, reinterpreted_batch_ndims=1)

    def decode(self, z: ch.Variable | np.ndarray) -> D.Independent:
        """The likelihood p(x|z): independent Bernoulli pixels given by their logits."""
        logit = self.dec_out(F.tanh(self.dec_h(z)))
        return D.Independent(D.Bernoulli(logit=logit), reinterpreted_batch_ndims=1)

    def prior(self, batch: int) -> D.Independent:
        """p(z): a standard Normal of n_latent dimensions for each of *batch* examples."""
        shape = (batch, self.n_latent)
        loc = self.xp.zeros(shape, dtype=np.float32)
        scale = self.xp.ones(shape, dtype=np.float32)
        return D.Independent(D.Normal(loc, scale=scale), reinterpreted_batch_ndims=1)

    def forward(self, x: ch.Variable | np.ndarray) -> ch.Variable:
        """Report and return the negative ELBO per example, with one reparameterized sample."""
        q_z = self.encode(x)
        z = q_z.sample()  # loc + scale * eps: differentiable in loc and scale
        reconstruction = -F.mean(self.decode(z).log_prob(x))
        kl = F.mean(ch.kl_divergence(q_z, self.prior(len(x))))
        loss = reconstruction + kl
        ch.report({'loss': loss, 'reconstr': reconstruction, 'kl': kl}, self)
        return loss


def save_grid(images: np.ndarray, rows: int, path: str, size: int = 28) -> None:
    """Tile (n, size*size) grey images with values in [0, 1] into *rows* rows, write a PNG."""
    cols = len(images) // rows
    tiles = images[:rows * cols].reshape(rows, cols, size, size)
    grid = tiles.transpose(0, 2, 1, 3).reshape(rows * size, cols * size)
    big = np.kron(grid, np.ones((3, 3)))  # 3x larger so the grid is easy to look at
    Image.fromarray((big * 255).clip(0, 255).astype(np.uint8)).save(path)


def main(argv: list[str] | None = None) -> float:
    """Train, draw reconstructions and samples; return the final validation loss."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument('--epochs', type=int, default=30)
    parser.add_argument('--batchsize', type=int, default=100)
    parser.add_argument('--latent', type=int, default=8, help='dimensions of z')
    parser.add_argument('--hidden', type=int, default=256)
    parser.add_argument('--out', default=os.path.join(HERE, 'result'))
    parser.add_argument('--device', default='@numpy', help="'@numpy', '@cupy:0' or -1, 0, ...")
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--real-data', action='store_true',
                        help='binarised MNIST through chainer.datasets.get_mnist (downloads)')
    parser.add_argument('--quick', action='store_true', help='a few seconds of training')
    args = parser.parse_args(argv)
    if args.quick:
        args.epochs = 10

    np.random.seed(args.seed)
    if args.real_data:
        train, test = datasets.get_mnist(withlabel=False)
        train = (train > 0.5).astype(np.float32)
        test = (test > 0.5).astype(np.float32)
        if args.quick:
            train, test = train[:3000], test[:500]
    else:
        rng = np.random.RandomState(args.seed)
        n_train, n_test = (2000, 500) if args.quick else (10000, 1000)
        train, test = generate_shapes(n_train, rng), generate_shapes(n_test, rng)

    device = ch.get_device(args.device)
    model = VAE(train.shape[1], args.latent, args.hidden)
    model.to_device(device)
    device.use()
    optimizer = ch.optimizers.Adam(alpha=1e-3).setup(model)

    train_iter = ch.iterators.SerialIterator(train, args.batchsize)
    test_iter = ch.iterators.SerialIterator(test, args.batchsize, repeat=False, shuffle=False)
    updater = training.StandardUpdater(train_iter, optimizer, device=device)
    trainer = training.Trainer(updater, (args.epochs, 'epoch'), out=args.out)
    trainer.extend(extensions.Evaluator(test_iter, model, device=device))
    trainer.extend(extensions.LogReport())
    trainer.extend(extensions.PrintReport(
        ['epoch', 'main/loss', 'validation/main/loss', 'main/reconstr', 'main/kl',
         'elapsed_time']))
    trainer.run()

    # reconstructions (posterior means decoded) of 10 validation images, and 30 samples of
    # the prior decoded to pixel probabilities
    with ch.using_config('train', False), ch.no_backprop_mode():
        x = device.send(test[:10])
        recon = model.decode(model.encode(x).mean).mean.array
        z = model.prior(30).sample().array
        samples = model.decode(z).mean.array
    recon, samples = ch.backend.CpuDevice().send((recon, samples))
    save_grid(np.concatenate([ch.backend.CpuDevice().send(x), recon]), 2,
              os.path.join(args.out, 'reconstruction.png'))
    save_grid(samples, 3, os.path.join(args.out, 'samples.png'))
    print(f'wrote {args.out}/reconstruction.png (top: input, bottom: reconstruction) and '
          f'{args.out}/samples.png')

    loss = float(trainer.observation['validation/main/loss'])
    print(f'final validation/main/loss: {loss:.4f}')
    return loss


if __name__ == '__main__':
    sys.exit(0 if np.isfinite(main()) else 1)
