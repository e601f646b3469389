"""Compatibility cases: activation functions."""


def case_relu(F, np, rng):
    return F.relu, (rng.randn(3, 4).astype('f'),), {}


def case_elu(F, np, rng):
    return F.elu, (rng.randn(3, 4).astype('f'),), {'alpha': 0.7}


def case_softmax_axis2(F, np, rng):
    return F.softmax, (rng.randn(2, 3, 4).astype('f'),), {'axis': 2}
