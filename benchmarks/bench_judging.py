"""Chapter 7: exact Kemeny-Young (integer program, CBC) and the other ranking functions."""

import numpy as np

from sotalib.judging import kemeny_young, rank_candidates

from ._harness import Case

_rng = np.random.default_rng(2024)
#: 12 candidates x 50 judges: candidate quality plus judge noise, so that the optimum is not trivial.
M12 = _rng.normal(np.linspace(0, 1, 12)[:, None], 1.0, size=(12, 50))
M15 = _rng.normal(np.linspace(0, 1, 15)[:, None], 1.0, size=(15, 50))
#: 12 candidates x 50 judges of pure noise: the hardest case for the integer program (many near-ties).
M12_noise = _rng.random((12, 50))
M100 = _rng.normal(np.linspace(0, 1, 100)[:, None], 1.0, size=(100, 50))
_ilp12 = kemeny_young(M12, engine="ilp")

CASES = [
    Case(
        "Kemeny-Young exact (ILP, CBC): 12 candidates x 50 judges",
        lambda: kemeny_young(M12, engine="ilp"),
        target=1.0,
        repeat=3,
        note=f"objective {_ilp12.objective:g}",
    ),
    Case(
        "Kemeny-Young exact (ILP, CBC): 12 x 50 pure noise",
        lambda: kemeny_young(M12_noise, engine="ilp"),
        target=3.0,
        repeat=3,
    ),
    Case(
        "Kemeny-Young exact (ILP, CBC): 15 candidates x 50 judges",
        lambda: kemeny_young(M15, engine="ilp"),
        target=3.0,
        repeat=1,
    ),
    Case(
        "Kemeny-Young heuristic: 12 candidates x 50 judges",
        lambda: kemeny_young(M12, engine="heuristic"),
        target=0.5,
        repeat=5,
        note=f"objective {kemeny_young(M12, engine='heuristic').objective:g} (exact {_ilp12.objective:g})",
    ),
    Case(
        "Kemeny-Young brute force: 8 candidates x 50 judges",
        lambda: kemeny_young(M12[:8], engine="brute-force"),
        target=2.0,
        repeat=3,
    ),
    Case(
        "average rank: 100 candidates x 50 judges", lambda: rank_candidates(M100, "average-rank"), target=0.05, repeat=5
    ),
    Case("Copeland: 100 candidates x 50 judges", lambda: rank_candidates(M100, "copeland"), target=0.1, repeat=5),
]
