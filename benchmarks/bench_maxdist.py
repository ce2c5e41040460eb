"""Chapter 2: the exact distribution of the iid sample maximum."""

from sotalib import iid_max_distribution

from ._harness import Case


def _summary(n, m, theta):
    return lambda: iid_max_distribution(n, m, theta).summary()


CASES = [
    Case("iid max: n=3,000 m=1,000 theta=0.9 (Table 3 row 1)", _summary(3000, 1000, 0.9), target=0.05, repeat=5),
    Case("iid max: m = n = 10^6, theta=0.9", _summary(10**6, 10**6, 0.9), target=1.0, repeat=3),
    Case("iid max: m = n = 10^7, theta=1e-6", _summary(10**7, 10**7, 1e-6), target=1.0, repeat=3),
]
