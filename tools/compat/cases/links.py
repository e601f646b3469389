"""Compatibility cases: Link/Chain/ChainList/Sequential structure and copies."""

NO_GRAD = {'backward': False}


def _net(np, array_param=True):
    import chainer
    import chainer.links as L

    class Net(chainer.Chain):
        def __init__(self):
            super().__init__()
            with self.init_scope():
                self.b = L.Linear(2, 3)
                self.a = chainer.ChainList(L.Linear(3, 3), L.Linear(3, 1, nobias=True))
                if array_param:
                    self.p = chainer.Parameter(np.ones(2, 'f'))
            self.add_persistent('count', 3)

    return Net()


def case_namedparams_and_links_order(F, np, rng):
    def run():
        net = _net(np)
        names = [n for n, _ in net.namedparams()]
        links = [n for n, _ in net.namedlinks()]
        children = [c.name for c in net.children()]
        return np.array(names), np.array(links), np.array(children), np.array(
            [net.count_params()])
    return run, (), {}, NO_GRAD


def case_copy_modes(F, np, rng):
    # Without the array-initialized Parameter: Chainer 7.8.1's copy(mode='init') fails on
    # it ("'numpy.ndarray' object is not callable"); this project re-initializes it.
    def run():
        net = _net(np, array_param=False)
        out = []
        for mode in ('share', 'copy', 'init'):
            c = net.copy(mode=mode)
            out.append([c.b.W.array is net.b.W.array,
                        bool((c.b.W.array == net.b.W.array).all()),
                        c.b.W.grad is None])
        return np.array(out)
    return run, (), {}, NO_GRAD


def case_sequential_ops(F, np, rng):
    import chainer
    import chainer.links as L

    def run():
        np.random.seed(0)
        s = chainer.Sequential(L.Linear(3, 4), F.relu, L.Linear(4, 2))
        s2 = s.repeat(2, mode='copy')
        s.insert(1, F.tanh)
        s.append(F.sigmoid)
        x = np.random.RandomState(1).randn(2, 3).astype('f')
        y = s(x)
        return y, np.array([len(s), len(s2), s.index(F.relu)])
    return run, (), {}, NO_GRAD


def case_serialize_persistent_and_params(F, np, rng):
    import io

    import chainer

    def run():
        net = _net(np)
        buf = io.BytesIO()
        chainer.serializers.save_npz(buf, net)
        buf.seek(0)
        with np.load(buf) as data:
            return np.array(sorted(data.files)), np.array([int(data['count'])])
    return run, (), {}, NO_GRAD
