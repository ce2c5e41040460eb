"""The Melanoma challenge's published facts and the leaderboard reconstructed from them.

Three challenges are analysed in Section 5 of Mollersen & Holsbo.  The real
leaderboards of the two accuracy challenges (Obesity and Cassava) ship with the
project and are read by :mod:`sotalib.book.ch04_real_challenges`, where the paper's
numbers about them are kept (and tested against the real boards).  No full
leaderboard of the third, Melanoma (ranked by AUC), is public, so this module holds

* :data:`FACTS` -- the numbers the paper publishes about it;
* :func:`reconstruct` -- a *reconstructed* leaderboard that agrees with those
  facts (every published count of teams above a threshold, the winner, ``m``
  and ``n``).  Everything between and below the published anchors is invented
  and labelled as such;
* :func:`load_challenge` -- the real leaderboard when the environment variable
  ``SOTALIB_LEADERBOARD_MELANOMA`` points to a Kaggle leaderboard CSV, the
  reconstruction otherwise.

Only the book uses this module; it is not part of the public API.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

import numpy as np

from ..multiplicity import Leaderboard, read_kaggle_leaderboard

__all__ = [
    "ChallengeFacts",
    "FACTS",
    "MELANOMA_KNOTS",
    "reconstruct",
    "load_challenge",
]


@dataclass(frozen=True)
class ChallengeFacts:
    """What the paper publishes about a challenge (Section 5)."""

    name: str
    slug: str
    metric: str
    n: int
    m: int
    classes: int
    top: tuple
    #: (threshold, number of teams with score > threshold) as published
    above: tuple = ()
    #: (low, high, number of teams inside) of the single-classifier interval of the maximum
    interval: tuple | None = None
    prevalence: float | None = None
    paper: dict = field(default_factory=dict)
    note: str = ""
    #: where each published fact is printed (fact -> paper, section or line)
    sources: dict = field(default_factory=dict)


FACTS = {
    "melanoma": ChallengeFacts(
        name="SIIM-ISIC Melanoma Classification",
        slug="siim-isic-melanoma-classification",
        metric="auc",
        n=7687,
        m=3050,
        classes=2,
        top=(0.9490,),
        above=((0.9352, 427), (0.8992, 2013)),
        prevalence=584 / 33126,
        paper={
            "shrink_estimate": 0.8992,
            "shrink_teams_above": 2013,
            "shrink_share_above": "almost two thirds",
            "shrink_share_bounds": (0.60, 2 / 3),
        },
        note="Section 5.2.3; prevalence from the training set (584 of 33,126). The paper does not state m. "
        "'2013 teams' above 0.8992 being 'almost two thirds of the classifiers' puts m just above "
        "2013 / (2/3) = 3,020; m = 3,050 (2013/3050 = 66.0%) is the choice here. Kaggle lists 3,308 "
        "teams (the second version: '880th out of 3300' on the public leaderboard); the difference, "
        "about 260 teams, is read as teams at or below chance (AUC <= 0.5), which the analysis, like "
        "Obesity's, does not count -- an assumption.",
        sources={
            "top": "JMLR Section 5.2.3: 'achieving an AUC of 0.9490'",
            "above 0.9352": "second version (arXiv v2), Section 5: 'there are 427 teams with AUC > 0.9352'",
            "above 0.8992": "JMLR Section 5.2.3: 'There are 2013 teams with performance above the new "
            "SOTA candidate' (0.8992)",
            "m": "JMLR Section 5.2.3: 'Almost two thirds of the classifiers have performances above the "
            "new SOTA estimate'",
            "n": "JMLR Section 5.2.3: test set (7,687)",
            "prevalence": "JMLR Section 5.2.3: training (33,126), 584 melanomas (Rotemberg et al. 2021)",
        },
    ),
}


#: Invented knots of the Melanoma reconstruction below the published anchors: (rank, AUC).
MELANOMA_KNOTS = ((2400, 0.88), (2750, 0.83), (2950, 0.73))


def _melanoma(f: ChallengeFacts) -> np.ndarray:
    """The Melanoma reconstruction: a smooth quantile function through the published counts.

    Team ``k`` (``k = 1`` the winner) gets ``Q(log k)``, rounded to four
    decimals like Kaggle's display, where ``Q`` is the monotone cubic
    (PCHIP) interpolant through the knots (rank, AUC)

    * ``(1, 0.9490)`` -- the winner (published);
    * ``(427.5, 0.9352)`` -- 427 teams above 0.9352 (published, second version);
    * ``(2013.5, 0.8992)`` -- 2,013 teams above 0.8992 (published);
    * :data:`MELANOMA_KNOTS` and ``(m + 0.5, 0.52)`` -- invented: a lower
      tail thinning out toward chance (the paper's Figure 11 shows few
      teams below 0.6).

    Interpolating in ``log k`` makes the gaps between neighbours widen
    toward the top, as on real leaderboards.  Rounding can put a team on
    the wrong side of a published threshold (four teams here); those are
    clipped to the nearest grid value on the right side, so every published
    count holds exactly.  Everything between the knots is invented.
    """
    from scipy.interpolate import PchipInterpolator

    (t1, c1), (t2, c2) = sorted(
        f.above, reverse=True
    )  # (0.9352, 427), (0.8992, 2013)
    top = f.top[0]
    ks = np.array(
        [1.0, c1 + 0.5, c2 + 0.5, *(k for k, _ in MELANOMA_KNOTS), f.m + 0.5]
    )
    qs = np.array([top, t1, t2, *(q for _, q in MELANOMA_KNOTS), 0.52])
    q = PchipInterpolator(np.log(ks), qs)(np.log(np.arange(1, f.m + 1)))
    s = np.round(q, 4)
    e = 1e-4
    s[0] = top
    s[1:c1] = np.clip(s[1:c1], round(t1 + e, 4), round(top - e, 4))
    s[c1:c2] = np.clip(s[c1:c2], round(t2 + e, 4), t1)
    s[c2:] = np.clip(s[c2:], 0.5 + e, t2)
    return s


def reconstruct(name: str) -> Leaderboard:
    """A leaderboard whose upper tail agrees with the published facts (a RECONSTRUCTION).

    The published anchors (the winner, counts of teams above thresholds,
    ``m``) are reproduced exactly; between and below them the scores follow a
    smooth invented curve (:func:`_melanoma`).
    """
    if name not in FACTS:
        raise ValueError(f"name must be one of {sorted(FACTS)}, got {name!r}")
    f = FACTS[name]
    parts = [_melanoma(f)]
    scores = np.sort(np.concatenate(parts))[::-1]
    return Leaderboard(
        scores=scores,
        source=f"reconstruction of {f.name}",
        reconstruction=True,
    )


def load_challenge(name: str) -> Leaderboard:
    """The real leaderboard if ``SOTALIB_LEADERBOARD_<NAME>`` names a Kaggle CSV, else the reconstruction."""
    if name not in FACTS:
        raise ValueError(f"name must be one of {sorted(FACTS)}, got {name!r}")
    path = os.environ.get(f"SOTALIB_LEADERBOARD_{name.upper()}")
    if path:
        return read_kaggle_leaderboard(path)
    return reconstruct(name)
