"""The cached per-item predictions behind the judging chapter."""

import numpy as np

from sotalib.book.ch07_judging import CLASSIFIERS, N_TASKS, N_TEST, TASKS, load_task_predictions


def test_cache_shape_and_plausible_accuracies():
    tp = load_task_predictions()
    assert tp.correct.shape == (N_TASKS, len(CLASSIFIERS), N_TEST) and tp.correct.dtype == bool
    assert tp.classifiers == CLASSIFIERS and tp.tasks == tuple(t[0] for t in TASKS)
    acc = tp.accuracy()
    # every classifier beats chance on every task, none is perfect (label noise flip_y > 0)
    assert np.all(acc > 0.55) and np.all(acc < 0.99)
    # the tasks get harder down the list: the best accuracy falls from "easy" to "very hard"
    assert acc[0].max() > acc[-1].max()
    # different classifiers make different errors
    assert np.mean(tp.correct[1, 0] != tp.correct[1, -1]) > 0.05
