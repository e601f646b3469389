"""Compatibility cases: evaluation functions (no gradients: backward is off)."""

NB = {'backward': False}


def _labels(rng, n, c, ignore=None, dtype='i'):
    t = rng.randint(0, c, n).astype(dtype)
    if ignore is not None:
        t[::3] = ignore
    return t


# accuracy

def case_accuracy(F, np, rng):
    return F.accuracy, (rng.randn(10, 4).astype('f'), _labels(rng, 10, 4)), {}, NB


def case_accuracy_ignore(F, np, rng):
    return (F.accuracy, (rng.randn(10, 4).astype('f'), _labels(rng, 10, 4, -1)),
            {'ignore_label': -1}, NB)


def case_accuracy_ignore_other_label(F, np, rng):
    t = _labels(rng, 10, 4)
    return F.accuracy, (rng.randn(10, 4).astype('f'), t), {'ignore_label': 2}, NB


def case_accuracy_all_ignored(F, np, rng):
    t = np.full(5, -1, 'i')
    return F.accuracy, (rng.randn(5, 3).astype('f'), t), {'ignore_label': -1}, NB


def case_accuracy_ties(F, np, rng):
    y = np.array([[1., 1., 0.], [0., 2., 2.], [3., 3., 3.], [0., 0., 1.]], 'f')
    t = np.array([1, 1, 0, 2], 'i')
    return F.accuracy, (y, t), {}, NB


def case_accuracy_spatial(F, np, rng):
    return (F.accuracy, (rng.randn(2, 3, 4, 5).astype('f'),
                         rng.randint(0, 3, (2, 4, 5)).astype('i')), {}, NB)


def case_accuracy_spatial_ignore(F, np, rng):
    t = rng.randint(-1, 3, (2, 4, 5)).astype('i')
    return F.accuracy, (rng.randn(2, 3, 4, 5).astype('f'), t), {'ignore_label': -1}, NB


def case_accuracy_3d(F, np, rng):
    return (F.accuracy, (rng.randn(4, 3, 2).astype('f'),
                         rng.randint(0, 3, (4, 2)).astype('i')), {}, NB)


def case_accuracy_f16(F, np, rng):
    return F.accuracy, (rng.randn(10, 4).astype('e'), _labels(rng, 10, 4)), {}, NB


def case_accuracy_f64(F, np, rng):
    return F.accuracy, (rng.randn(10, 4), _labels(rng, 10, 4)), {}, NB


def case_accuracy_int64(F, np, rng):
    return F.accuracy, (rng.randn(10, 4).astype('f'), _labels(rng, 10, 4, dtype='q')), {}, NB


def case_accuracy_perfect(F, np, rng):
    y = np.eye(4, dtype='f')
    return F.accuracy, (y, np.arange(4, dtype='i')), {}, NB


def case_accuracy_bad_shape(F, np, rng):
    return F.accuracy, (rng.randn(10, 4).astype('f'), _labels(rng, 9, 4)), {}, NB


# Fixed: no labels and no ignore_label give NaN (was 0).
def case_accuracy_empty(F, np, rng):
    return F.accuracy, (np.zeros((0, 3), 'f'), np.zeros(0, 'i')), {}, NB


# binary_accuracy

def case_binary_accuracy(F, np, rng):
    return (F.binary_accuracy, (rng.randn(10).astype('f'), rng.randint(0, 2, 10).astype('i')),
            {}, NB)


def case_binary_accuracy_2d(F, np, rng):
    return (F.binary_accuracy, (rng.randn(4, 3).astype('f'),
                                rng.randint(0, 2, (4, 3)).astype('i')), {}, NB)


def case_binary_accuracy_ignore(F, np, rng):
    t = rng.randint(-1, 2, 12).astype('i')
    return F.binary_accuracy, (rng.randn(12).astype('f'), t), {}, NB


def case_binary_accuracy_zero_logit(F, np, rng):
    y = np.array([0., 0., -0., 1e-7, -1e-7], 'f')
    t = np.array([1, 0, 1, 1, 0], 'i')
    return F.binary_accuracy, (y, t), {}, NB


def case_binary_accuracy_all_ignored(F, np, rng):
    return F.binary_accuracy, (rng.randn(4).astype('f'), np.full(4, -1, 'i')), {}, NB


def case_binary_accuracy_f64(F, np, rng):
    return F.binary_accuracy, (rng.randn(6), rng.randint(0, 2, 6).astype('i')), {}, NB


# precision / recall / f1 / classification_summary

# Fixed: precision, recall and fbeta are float64 whatever y's dtype (were y's dtype), and
# label_num=None counts ignore_label too (recall_ignore: 4 classes, not 3).
def case_classification_summary(F, np, rng):
    return (F.classification_summary, (rng.randn(20, 4).astype('f'), _labels(rng, 20, 4)),
            {}, NB)


def case_classification_summary_label_num(F, np, rng):
    return (F.classification_summary, (rng.randn(20, 3).astype('f'), _labels(rng, 20, 3)),
            {'label_num': 5}, NB)


def case_classification_summary_beta(F, np, rng):
    return (F.classification_summary, (rng.randn(20, 4).astype('f'), _labels(rng, 20, 4)),
            {'beta': 0.5}, NB)


def case_classification_summary_ignore(F, np, rng):
    t = _labels(rng, 20, 4, ignore=-1)
    return F.classification_summary, (rng.randn(20, 4).astype('f'), t), {}, NB


def case_classification_summary_ignore_other(F, np, rng):
    t = _labels(rng, 20, 4)
    return (F.classification_summary, (rng.randn(20, 4).astype('f'), t),
            {'ignore_label': 0}, NB)


def case_classification_summary_missing_class(F, np, rng):
    # class 3 never predicted nor present: 0/0 for its precision and recall
    y = rng.randn(12, 4).astype('f')
    y[:, 3] = -10
    t = rng.randint(0, 3, 12).astype('i')
    return F.classification_summary, (y, t), {}, NB


def case_classification_summary_spatial(F, np, rng):
    return (F.classification_summary, (rng.randn(2, 3, 4, 5).astype('f'),
                                       rng.randint(-1, 3, (2, 4, 5)).astype('i')), {}, NB)


def case_classification_summary_f16(F, np, rng):
    return (F.classification_summary, (rng.randn(15, 3).astype('e'), _labels(rng, 15, 3)),
            {}, NB)


def case_classification_summary_f64(F, np, rng):
    return (F.classification_summary, (rng.randn(15, 3), _labels(rng, 15, 3)), {}, NB)


def case_precision(F, np, rng):
    return F.precision, (rng.randn(20, 4).astype('f'), _labels(rng, 20, 4)), {}, NB


def case_precision_label_num_ignore(F, np, rng):
    t = _labels(rng, 20, 3, ignore=-1)
    return (F.precision, (rng.randn(20, 3).astype('f'), t), {'label_num': 4}, NB)


def case_recall(F, np, rng):
    return F.recall, (rng.randn(20, 4).astype('f'), _labels(rng, 20, 4)), {}, NB


def case_recall_ignore(F, np, rng):
    t = _labels(rng, 20, 4, ignore=3)
    return F.recall, (rng.randn(20, 4).astype('f'), t), {'ignore_label': 3}, NB


def case_f1_score(F, np, rng):
    return F.f1_score, (rng.randn(20, 4).astype('f'), _labels(rng, 20, 4)), {}, NB


def case_f1_score_label_num(F, np, rng):
    return F.f1_score, (rng.randn(20, 3).astype('f'), _labels(rng, 20, 3)), {'label_num': 3}, NB


# r2_score

def case_r2_score(F, np, rng):
    t = rng.randn(10, 3).astype('f')
    p = (t + 0.3 * rng.randn(10, 3)).astype('f')
    return F.r2_score, (p, t), {}, NB


def case_r2_score_raw(F, np, rng):
    t = rng.randn(10, 3).astype('f')
    p = (t + 0.3 * rng.randn(10, 3)).astype('f')
    return F.r2_score, (p, t), {'multioutput': 'raw_values'}, NB


def case_r2_score_1d(F, np, rng):
    t = rng.randn(10).astype('f')
    p = (t + 0.5 * rng.randn(10)).astype('f')
    return F.r2_score, (p, t), {}, NB


def case_r2_score_1d_raw(F, np, rng):
    t = rng.randn(10).astype('f')
    p = (t + 0.5 * rng.randn(10)).astype('f')
    return F.r2_score, (p, t), {'multioutput': 'raw_values'}, NB


def case_r2_score_3d(F, np, rng):
    t = rng.randn(5, 2, 3).astype('f')
    p = (t + 0.5 * rng.randn(5, 2, 3)).astype('f')
    return F.r2_score, (p, t), {'multioutput': 'raw_values'}, NB


def case_r2_score_negative(F, np, rng):
    t = rng.randn(8, 2).astype('f')
    p = rng.randn(8, 2).astype('f') * 3
    return F.r2_score, (p, t), {}, NB


def case_r2_score_constant_true(F, np, rng):
    # zero total variance: perfect prediction and imperfect one
    t = np.ones((4, 2), 'f')
    p = np.array([[1., 1.], [1., 2.], [1., 1.], [1., 0.]], 'f')
    return F.r2_score, (p, t), {'multioutput': 'raw_values'}, NB


def case_r2_score_f64(F, np, rng):
    t = rng.randn(10, 3)
    p = t + 0.3 * rng.randn(10, 3)
    return F.r2_score, (p, t), {}, NB


def case_r2_score_f16(F, np, rng):
    t = rng.randn(10, 3).astype('e')
    p = (t + 0.3 * rng.randn(10, 3)).astype('e')
    return F.r2_score, (p, t), {}, NB


def case_r2_score_sample_weight(F, np, rng):
    t = rng.randn(10).astype('f')
    return F.r2_score, (t, t), {'sample_weight': np.ones(10, 'f')}, NB


def case_r2_score_bad_multioutput(F, np, rng):
    t = rng.randn(10).astype('f')
    return F.r2_score, (t, t), {'multioutput': 'variance_weighted'}, NB
