"""A challenge whose ground truth is known (beyond the paper).

Nobody knows the true accuracy ``theta_j`` of a Kaggle team, so the SOTA
estimators of Section 5 cannot be checked on real leaderboards.  Here we build
a challenge where we *do* know it:

* a synthetic binary task (a fixed "world": Gaussian features, a nonlinear
  score with interactions, and label noise, so that no classifier is perfect);
* one training set of ``N_TRAIN`` items, on which we train ``N_CLASSIFIERS``
  scikit-learn classifiers from eight model families, with varied
  hyperparameters, seeds and feature subsets -- the "teams";
* a stream of ``N_BLOCKS * BLOCK`` fresh items (more than ``10**6``), cut into
  disjoint blocks of ``BLOCK = 3000`` items.  Each block is an independent
  test set of ``n = 3000``: the counts of correct predictions of every
  classifier on every block are *real* leaderboards (with whatever dependence
  the classifiers really have), and the total over all blocks is each
  classifier's true accuracy to within about ``3e-4``.

The first ``N_SAVED_SETS`` blocks are also kept item by item (correctness and
label, bit-packed), for chapters that need per-item outcomes (judging a
competition, consistency of rankings).

Everything is regenerated deterministically by :func:`build_groundtruth` (a
few minutes on two cores) and cached in ``sotalib/book/data/groundtruth.npz``;
:func:`load_groundtruth` reads the cache.
"""

from __future__ import annotations

import hashlib
import json
import warnings
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np

from .._rng import int_seed
from .._validate import check_int

__all__ = [
    "SEED",
    "BLOCK",
    "N_BLOCKS",
    "N_TRAIN",
    "N_FEATURES",
    "N_SAVED_SETS",
    "GroundTruth",
    "make_world",
    "sample_items",
    "classifier_specs",
    "build_groundtruth",
    "save_groundtruth",
    "load_groundtruth",
    "DATA_PATH",
]

#: Master seed of the challenge (world, training set, classifiers, test stream).
SEED = 20240601
#: Items in each independent test set.
BLOCK = 3000
#: Number of disjoint test sets in the fresh stream (BLOCK * N_BLOCKS > 10**6).
N_BLOCKS = 340
#: Items streamed per chunk (a multiple of BLOCK; bounds memory).
CHUNK_BLOCKS = 20
#: Training-set size.
N_TRAIN = 3000
#: Number of features (the classifiers see random subsets of them).
N_FEATURES = 12
#: Number of classifiers ("teams").
N_CLASSIFIERS = 240
#: Test sets kept item by item in the cache.
N_SAVED_SETS = 5

DATA_PATH = Path(__file__).parent / "data" / "groundtruth.npz"


# --------------------------------------------------------------------------- world
@dataclass(frozen=True, eq=False)
class World:
    """The data-generating process: ``P(y = 1 | x) = sigmoid(f(x) / scale)``.

    ``f(x) = beta . x + sum_k gamma_k x_{a_k} x_{b_k} + delta . sin(2 x) ``
    on standard-normal features ``x``; the noise ``scale`` caps the Bayes
    accuracy near 0.9.
    """

    beta: np.ndarray
    pairs: np.ndarray
    gamma: np.ndarray
    delta: np.ndarray
    scale: float

    def logit(self, x: np.ndarray) -> np.ndarray:
        f = x @ self.beta
        f += (x[:, self.pairs[:, 0]] * x[:, self.pairs[:, 1]]) @ self.gamma
        f += np.sin(2.0 * x) @ self.delta
        return f / self.scale

    def prob(self, x: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.logit(x)))


def make_world(rng=SEED) -> World:
    """The fixed synthetic task of the ground-truth challenge (``rng``: see :func:`sotalib._rng.int_seed`)."""
    seed = int_seed(rng)
    rng = np.random.default_rng([seed, 0])
    d = N_FEATURES
    beta = np.zeros(d)
    beta[:8] = rng.normal(0.0, 1.0, 8) * np.linspace(
        1.0, 0.3, 8
    )  # features 8-11 are pure noise
    pairs = np.array([[0, 1], [2, 3], [4, 5]])
    gamma = rng.normal(0.0, 0.5, len(pairs))
    delta = np.zeros(d)
    delta[6:9] = rng.normal(0.0, 0.5, 3)
    return World(beta=beta, pairs=pairs, gamma=gamma, delta=delta, scale=0.25)


def sample_items(
    world: World, size: int, rng: np.random.Generator
) -> tuple[np.ndarray, np.ndarray]:
    """Draw ``size`` items ``(x, y)`` from the world."""
    x = rng.standard_normal((size, N_FEATURES))
    y = (rng.random(size) < world.prob(x)).astype(np.int8)
    return x, y


# ----------------------------------------------------------------------- classifiers
_FAMILIES = (
    "logistic",
    "naive_bayes",
    "discriminant",
    "tree",
    "random_forest",
    "extra_trees",
    "boosting",
    "mlp",
)


def classifier_specs(count: int = N_CLASSIFIERS, rng=SEED) -> list[dict]:
    """Family, hyperparameters, seed and feature subset of each classifier.

    The ``k``-th spec depends only on ``(seed, k)``, where ``seed`` is
    :func:`sotalib._rng.int_seed` of ``rng``, so a shorter list is a prefix of a longer
    one (used by the reduced-size regeneration test).
    """
    seed = int_seed(rng)
    specs = []
    for k in range(count):
        rng = np.random.default_rng([seed, 1, k])
        family = _FAMILIES[k % len(_FAMILIES)]
        # every classifier sees the five strongest features and a random subset of the rest
        rest = rng.choice(
            np.arange(5, N_FEATURES),
            int(rng.integers(3, N_FEATURES - 4)),
            replace=False,
        )
        features = sorted(range(5)) + np.sort(rest).tolist()
        s = int(rng.integers(0, 2**31 - 1))
        if family == "logistic":
            params = {
                "C": float(10 ** rng.uniform(-3, 1)),
                "poly": bool(rng.random() < 0.5),
            }
        elif family == "naive_bayes":
            params = {"var_smoothing": float(10 ** rng.uniform(-9, -1))}
        elif family == "discriminant":
            params = {
                "kind": str(rng.choice(["lda", "qda"])),
                "reg": float(rng.uniform(0.0, 0.5)),
            }
        elif family == "tree":
            params = {
                "max_depth": int(rng.integers(3, 16)),
                "min_samples_leaf": int(rng.integers(1, 40)),
            }
        elif family in ("random_forest", "extra_trees"):
            params = {
                "n_estimators": int(rng.integers(5, 21)),
                "max_depth": int(rng.integers(4, 11)),
                "max_features": float(rng.uniform(0.2, 0.8)),
            }
        elif family == "boosting":
            params = {
                "max_iter": int(rng.integers(10, 61)),
                "learning_rate": float(10 ** rng.uniform(-1.3, -0.5)),
                "max_depth": int(rng.integers(2, 5)),
            }
        else:  # mlp
            params = {
                "hidden": int(rng.integers(4, 17)),
                "alpha": float(10 ** rng.uniform(-5, -1)),
            }
        name = f"{family}-{k:03d}"
        specs.append(
            {
                "name": name,
                "family": family,
                "features": features,
                "seed": s,
                "params": params,
            }
        )
    return specs


def _make_model(spec: dict):
    # scikit-learn is needed only to rebuild the cached challenge (python -m sotalib.book.cache groundtruth)
    from sklearn.discriminant_analysis import (
        LinearDiscriminantAnalysis,
        QuadraticDiscriminantAnalysis,
    )
    from sklearn.ensemble import (
        ExtraTreesClassifier,
        GradientBoostingClassifier,
        RandomForestClassifier,
    )
    from sklearn.linear_model import LogisticRegression
    from sklearn.naive_bayes import GaussianNB
    from sklearn.neural_network import MLPClassifier
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import PolynomialFeatures, StandardScaler
    from sklearn.tree import DecisionTreeClassifier

    p, s, fam = spec["params"], spec["seed"], spec["family"]
    if fam == "logistic":
        steps = (
            [PolynomialFeatures(2, include_bias=False)] if p["poly"] else []
        )
        return make_pipeline(
            *steps,
            StandardScaler(),
            LogisticRegression(C=p["C"], max_iter=2000),
        )
    if fam == "naive_bayes":
        return GaussianNB(var_smoothing=p["var_smoothing"])
    if fam == "discriminant":
        if p["kind"] == "lda":
            return LinearDiscriminantAnalysis(
                solver="lsqr", shrinkage=p["reg"]
            )
        return QuadraticDiscriminantAnalysis(reg_param=p["reg"])
    if fam == "tree":
        return DecisionTreeClassifier(
            max_depth=p["max_depth"],
            min_samples_leaf=p["min_samples_leaf"],
            random_state=s,
        )
    if fam == "random_forest":
        return RandomForestClassifier(
            n_estimators=p["n_estimators"],
            max_depth=p["max_depth"],
            max_features=p["max_features"],
            random_state=s,
            n_jobs=1,
        )
    if fam == "extra_trees":
        return ExtraTreesClassifier(
            n_estimators=p["n_estimators"],
            max_depth=p["max_depth"],
            max_features=p["max_features"],
            random_state=s,
            n_jobs=1,
        )
    if fam == "boosting":
        return GradientBoostingClassifier(
            n_estimators=p["max_iter"],
            learning_rate=p["learning_rate"],
            max_depth=p["max_depth"],
            subsample=0.8,
            random_state=s,
        )
    return make_pipeline(
        StandardScaler(),
        MLPClassifier(
            hidden_layer_sizes=(p["hidden"],),
            alpha=p["alpha"],
            max_iter=200,
            random_state=s,
        ),
    )


# ---------------------------------------------------------------------- the result
@dataclass(frozen=True, eq=False)
class GroundTruth:
    """The ground-truth challenge.

    Attributes
    ----------
    names, families : tuple of str
        One entry per classifier ``j = 1..m``.
    specs : tuple of dict
        Hyperparameters, seed and feature subset of each classifier.
    block : int
        Items per test set (``n = 3000``).
    n_items : int
        Fresh items on which the true accuracies are measured (``block * n_blocks``).
    counts : ndarray, shape (n_blocks, m)
        Correct predictions of each classifier on each disjoint test set: the
        leaderboards, as counts out of ``block``.
    true_correct : ndarray, shape (m,)
        Correct predictions over all ``n_items`` items.
    correct : ndarray of bool, shape (n_saved_sets, m, block)
        Per-item correctness on the first ``n_saved_sets`` test sets.
    labels : ndarray of int8, shape (n_saved_sets, block)
        The true labels of those items (predictions follow from ``correct``).
    bayes_accuracy : float
        Accuracy of the Bayes classifier (the ceiling of every team), estimated
        on the same stream.
    seed : int
        Master seed.
    """

    names: tuple
    families: tuple
    specs: tuple
    block: int
    n_items: int
    counts: np.ndarray
    true_correct: np.ndarray
    correct: np.ndarray
    labels: np.ndarray
    bayes_accuracy: float
    seed: int

    @property
    def m(self) -> int:
        """Number of classifiers."""
        return len(self.names)

    @property
    def n_blocks(self) -> int:
        """Number of independent test sets."""
        return self.counts.shape[0]

    @property
    def true_accuracy(self) -> np.ndarray:
        """``theta_j``: accuracy over all ``n_items`` fresh items."""
        return self.true_correct / self.n_items

    def true_accuracy_excluding(self, b: int) -> np.ndarray:
        """``theta_j`` measured on all items except test set ``b`` (independent of leaderboard ``b``)."""
        return (self.true_correct - self.counts[b]) / (
            self.n_items - self.block
        )

    def leaderboard(self, b: int) -> np.ndarray:
        """Accuracies ``theta_hat_j`` on test set ``b``."""
        return self.counts[b] / self.block

    def predictions(self, s: int) -> np.ndarray:
        """Predicted labels, shape ``(m, block)``, on saved test set ``s``."""
        y = self.labels[s].astype(np.int8)
        return np.where(self.correct[s], y, 1 - y).astype(np.int8)

    @property
    def true_best(self) -> float:
        """``max_j theta_j``: the state of the art of this challenge."""
        return float(self.true_accuracy.max())


def build_groundtruth(
    n_classifiers: int = N_CLASSIFIERS,
    n_blocks: int = N_BLOCKS,
    *,
    rng=SEED,
    n_saved_sets: int = N_SAVED_SETS,
    verbose: bool = False,
) -> GroundTruth:
    """Train the classifiers and score them on the fresh stream (deterministic).

    The world, the training set, each classifier (through its spec) and each
    chunk of the stream have their own seeds derived from the master seed, so a
    reduced build (fewer classifiers, fewer blocks) reproduces a prefix of the
    full one.

    Parameters
    ----------
    n_classifiers : int
        Number of classifiers (``>= 1``).
    n_blocks : int
        Number of test sets of ``BLOCK`` items (``>= 1``).
    rng : int, numpy.random.Generator or None
        The master seed (see :func:`sotalib._rng.int_seed`); default ``SEED``, the book's challenge.
    n_saved_sets : int
        Test sets kept item by item (at most ``n_blocks``).
    """
    n_classifiers = check_int("n_classifiers", n_classifiers, low=1)
    n_blocks = check_int("n_blocks", n_blocks, low=1)
    n_saved_sets = check_int(
        "n_saved_sets", n_saved_sets, low=0, high=n_blocks
    )
    seed = int_seed(rng)
    world = make_world(seed)
    x_train, y_train = sample_items(
        world, N_TRAIN, np.random.default_rng([seed, 2])
    )
    specs = classifier_specs(n_classifiers, seed)
    models = []
    for spec in specs:
        model = _make_model(spec)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model.fit(x_train[:, spec["features"]], y_train)
        models.append(model)
        if verbose:
            print("trained", spec["name"], flush=True)

    counts = np.zeros((n_blocks, n_classifiers), dtype=np.int32)
    correct = np.zeros((n_saved_sets, n_classifiers, BLOCK), dtype=bool)
    labels = np.zeros((n_saved_sets, BLOCK), dtype=np.int8)
    bayes = 0
    for c0 in range(0, n_blocks, CHUNK_BLOCKS):
        nb = min(CHUNK_BLOCKS, n_blocks - c0)
        # Each chunk's items depend only on (seed, chunk index): reduced builds share a prefix.
        x, y = sample_items(
            world,
            CHUNK_BLOCKS * BLOCK,
            np.random.default_rng([seed, 3, c0 // CHUNK_BLOCKS]),
        )
        x, y = x[: nb * BLOCK], y[: nb * BLOCK]
        bayes += int(np.sum((world.logit(x) > 0) == (y == 1)))
        for j, (spec, model) in enumerate(zip(specs, models)):
            ok = model.predict(x[:, spec["features"]]) == y
            counts[c0 : c0 + nb, j] = ok.reshape(nb, BLOCK).sum(axis=1)
            for s in range(c0, min(c0 + nb, n_saved_sets)):
                correct[s, j] = ok[(s - c0) * BLOCK : (s - c0 + 1) * BLOCK]
        for s in range(c0, min(c0 + nb, n_saved_sets)):
            labels[s] = y[(s - c0) * BLOCK : (s - c0 + 1) * BLOCK]
        if verbose:
            print("scored chunk", c0 // CHUNK_BLOCKS, flush=True)
    n_items = n_blocks * BLOCK
    return GroundTruth(
        names=tuple(s["name"] for s in specs),
        families=tuple(s["family"] for s in specs),
        specs=tuple(specs),
        block=BLOCK,
        n_items=n_items,
        counts=counts,
        true_correct=counts.sum(axis=0).astype(np.int64),
        correct=correct,
        labels=labels,
        bayes_accuracy=bayes / n_items,
        seed=seed,
    )


def _checksum(gt: GroundTruth) -> str:
    h = hashlib.sha256()
    for a in (
        gt.counts.astype(np.int32),
        np.packbits(gt.correct, axis=-1),
        gt.labels.astype(np.int8),
    ):
        h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()


def save_groundtruth(gt: GroundTruth, path: str | Path) -> Path:
    """Write the cache: counts as uint16, per-item correctness and labels bit-packed."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    meta = {
        "names": list(gt.names),
        "families": list(gt.families),
        "specs": list(gt.specs),
        "block": gt.block,
        "n_items": gt.n_items,
        "bayes_accuracy": gt.bayes_accuracy,
        "seed": gt.seed,
        "sha256": _checksum(gt),
    }
    np.savez_compressed(
        path,
        meta=np.array(json.dumps(meta)),
        counts=gt.counts.astype(np.uint16),
        correct_bits=np.packbits(gt.correct, axis=-1),
        label_bits=np.packbits(gt.labels.astype(bool), axis=-1),
        shape=np.array(gt.correct.shape, dtype=np.int64),
    )
    return path


@lru_cache(maxsize=2)
def _load(path: str) -> GroundTruth:
    with np.load(path, allow_pickle=False) as z:
        meta = json.loads(str(z["meta"]))
        s, m, block = (int(v) for v in z["shape"])
        counts = z["counts"].astype(np.int32)
        correct = (
            np.unpackbits(z["correct_bits"], axis=-1, count=block)
            .astype(bool)
            .reshape(s, m, block)
        )
        labels = (
            np.unpackbits(z["label_bits"], axis=-1, count=block)
            .astype(np.int8)
            .reshape(s, block)
        )
    for a in (counts, correct, labels):
        a.setflags(write=False)
    true_correct = counts.sum(axis=0).astype(np.int64)
    true_correct.setflags(write=False)
    gt = GroundTruth(
        names=tuple(meta["names"]),
        families=tuple(meta["families"]),
        specs=tuple(meta["specs"]),
        block=int(meta["block"]),
        n_items=int(meta["n_items"]),
        counts=counts,
        true_correct=true_correct,
        correct=correct,
        labels=labels,
        bayes_accuracy=float(meta["bayes_accuracy"]),
        seed=int(meta["seed"]),
    )
    if _checksum(gt) != meta["sha256"]:
        raise ValueError(
            f"groundtruth cache {path} is corrupt (checksum mismatch); regenerate it with "
            "python -m sotalib.book.cache groundtruth --out sotalib/book/data"
        )
    return gt


def load_groundtruth(path: str | Path | None = None) -> GroundTruth:
    """Load the cached ground-truth challenge (arrays are read-only).

    Regenerate the cache with ``python -m sotalib.book.cache groundtruth --out sotalib/book/data`` (a few minutes).
    """
    return _load(str(Path(path) if path is not None else DATA_PATH))
