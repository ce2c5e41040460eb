"""What every consistency verdict has in common, and its JSON form.

Every verdict of this subpackage -- one test set or Score of Means
(:class:`SingleResult`), Mean of Scores on known folds (:class:`MosResult`),
Mean of Scores over every k-fold configuration (:class:`KFoldMosResult`) and
a whole report (:class:`ReportVerdict`) -- exposes the same four attributes,
also the first four keys of its ``to_dict()``:

consistent : bool
    Some confusion matrix (or per-fold matrices) reproduces every reported
    value.  ``False`` is a proof: no confusion matrix gives the reported values.
evidence : list
    Witnesses of consistency (empty when inconsistent): ``(tp, tn)`` pairs for a
    test set or Score of Means, per-fold ``((tp_1, tn_1), ...)`` for Mean of Scores.
configurations_tested : int or None
    Fold configurations the verdict covers (1 for a known experiment; None:
    too many to count -- the verdict still covers them all).
details : dict
    How the verdict was reached (specific to the test; JSON-safe).
"""

from __future__ import annotations

import math

__all__: list[str] = []  # an internal helper of the verdicts; nothing public


def json_safe(obj):
    """``obj`` with tuples as lists, numpy scalars and arrays as Python ones, non-finite floats as None."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if hasattr(obj, "tolist") and callable(obj.tolist):  # numpy arrays and scalars
        return json_safe(obj.tolist())
    return obj
