"""Pretrained image classifiers of Chainer v7: VGG, ResNet and GoogLeNet."""
