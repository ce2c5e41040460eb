"""``sotalib datasets`` and ``sotalib check --dataset``."""

import json
import re
import subprocess
import sys
from pathlib import Path

from sotalib.cli import main


def test_datasets_lists_names_counts_and_sources(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    for name in ("drive-test-fov", "drive-test-all", "tpehg", "isic2016-test", "isic2017-test"):
        assert name in out
    assert "p=38  n=262" in out and "p=117  n=483" in out and "Kovács" in out
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    assert (d["isic2016-test"]["p"], d["isic2016-test"]["n"]) == (75, 304)
    assert len(d["drive-test-all"]["folds"]) == 20


def test_check_dataset_answers_as_the_authors_did_for_adapa2020(capsys):
    argv = ["check", "--dataset", "drive-test-fov", "--aggregation", "mos", "--score", "acc=0.945"]
    argv += ["--score", "sens=0.6994", "--score", "spec=0.9811", "--eps", "1e-4", "--json"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True
    argv[2] = "drive-test-all"
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is False


def test_check_dataset_errors(capsys):
    assert main(["check", "--dataset", "mnist", "--score", "acc=0.9", "--eps", "1e-4"]) == 2
    assert re.search("--dataset must be a named (benchmark or )?test set", capsys.readouterr().err)
    assert main(["check", "--dataset", "tpehg", "--p", "3", "--score", "acc=0.9", "--eps", "1e-4"]) == 2
    assert "fixes the experiment" in capsys.readouterr().err
    # a single test set with k-fold cross-validation of it
    assert main(
        ["check", "--dataset", "tpehg", "--k", "5", "--stratified", "--score", "acc=0.9", "--decimals", "2"]
    ) in (0,)


MLSCORECHECK_NAMES = ["stare-ah-all", "stare-vk-all", "chasedb1-manual1-all", "chasedb1-manual2-all"] + [
    f"diaretdb0-{s}-{c}"
    for s in ("train", "test")
    for c in ("neovascularisation", "hardexudates", "softexudates", "hemorrhages", "redsmalldots")
]


def test_datasets_lists_the_mlscorecheck_sets(capsys):
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    names = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    assert set(MLSCORECHECK_NAMES) <= set(names)
    assert "p=644,053  n=7,825,947  (20 folds)" in out  # stare-ah-all: 20 images of 423,500 pixels
    assert "FalseNegativeLab/mlscorecheck (commit 40ab6c9)" in out
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    assert set(MLSCORECHECK_NAMES) <= set(d)
    assert len(d["chasedb1-manual2-all"]["folds"]) == 28
    assert all(p + n == 999 * 960 for p, n in d["chasedb1-manual2-all"]["folds"])
    assert d["diaretdb0-test-hardexudates"]["folds"][0] == [67, 53]  # split 1: 120 test images


def test_check_dataset_takes_every_mlscorecheck_name(capsys):
    assert main(["datasets", "--json"]) == 0
    counts = {x["name"]: (x["p"], x["n"]) for x in json.loads(capsys.readouterr().out)["datasets"]}
    for name in MLSCORECHECK_NAMES:
        p, n = counts[name]
        tp, tn = p // 2, n - n // 20  # picked counts, as sens and spec rounded to 4 decimals
        argv = ["check", "--dataset", name, "--aggregation", "som", "--decimals", "4", "--json"]
        argv += ["--score", f"sens={tp / p:.4f}", "--score", f"spec={tn / n:.4f}"]
        assert main(argv + ["--score", f"acc={(tp + tn) / (p + n):.4f}"]) == 0, name
        out = json.loads(capsys.readouterr().out)
        assert out["consistent"] is True and out["details"]["som"]["note"] == f"totals p={p}, n={n}"
        assert main(argv + ["--score", f"acc={(tp + tn) / (p + n) + 0.01:.4f}"]) == 0, name
        assert json.loads(capsys.readouterr().out)["consistent"] is False


def test_check_dataset_chasedb1_from_picked_counts(capsys):
    # CHASE_DB1 observer 1 in all: p = 1,861,974, n = 24,991,146; pick tp = 1,500,000, tn = 24,500,000
    p, n, tp, tn = 1861974, 24991146, 1500000, 24500000
    scores = {"acc": (tp + tn) / (p + n), "sens": tp / p, "spec": tn / n}
    argv = ["check", "--dataset", "chasedb1-manual1-all", "--aggregation", "som", "--decimals", "4", "--json"]
    for k, v in scores.items():
        argv += ["--score", f"{k}={v:.4f}"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True
    # sens up by 0.01 moves acc by 0.01 * p / (p + n) = 0.0007, seven times what rounding to 4 decimals allows
    # (up by 0.001 would move it 0.00007, within the rounding: still consistent)
    argv[argv.index(f"sens={scores['sens']:.4f}")] = f"sens={scores['sens'] + 0.01:.4f}"
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is False


# ---------------------------------------------------------------------------
# HRF and DRISHTI-GS: one set of images holds 104-368 million pixels (the checks' wide path)
HRF_NAMES = [f"hrf-{g}{r}" for g in ("", "healthy-", "glaucoma-", "dr-") for r in ("fov", "all")]
DRISHTI_NAMES = [f"drishtigs-{s}-{t}-{k}of4" for s in ("train", "test") for t in ("od", "oc") for k in range(1, 5)]


def test_datasets_lists_hrf_and_drishti_gs(capsys):
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    assert set(HRF_NAMES + DRISHTI_NAMES) <= set(d)
    # HRF: 45 images of 3504 x 2336 = 8,185,344 pixels (Budai et al. 2013)
    assert d["hrf-all"]["p"] + d["hrf-all"]["n"] == 45 * 8_185_344 and len(d["hrf-all"]["folds"]) == 45
    assert all(p + n == 8_185_344 for p, n in d["hrf-glaucoma-all"]["folds"])
    # DRISHTI-GS: 50 training and 51 test images (Sivaswamy et al. 2014)
    assert len(d["drishtigs-train-oc-4of4"]["folds"]) == 50 and len(d["drishtigs-test-od-1of4"]["folds"]) == 51
    assert all("40ab6c9" in d[k]["source"] and "MIT" in d[k]["source"] for k in HRF_NAMES + DRISHTI_NAMES)
    assert main(["datasets"]) == 0
    assert "hrf-fov" in capsys.readouterr().out


def _argv(name, scores, *extra):
    argv = ["check", "--dataset", name, "--aggregation", "som", "--decimals", "4", *extra]
    for k, v in scores.items():
        argv += ["--score", f"{k}={v}"]
    return argv


def _pooled(p, n):
    """A true pooled confusion matrix and its scores to 4 decimals, and its exact accuracy."""
    tp, tn = p * 2 // 3, n - n // 37
    fp, fn = n - tn, p - tp
    acc = (tp + tn) / (p + n)
    scores = {"acc": f"{acc:.4f}", "sens": f"{tp / p:.4f}", "spec": f"{tn / n:.4f}"}
    scores["f1"] = f"{2 * tp / (2 * tp + fp + fn):.4f}"
    return scores, acc


def test_check_hrf_consistent_from_true_counts_and_not_when_perturbed(capsys):
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    p, n = d["hrf-fov"]["p"], d["hrf-fov"]["n"]
    scores, acc = _pooled(p, n)
    assert main(_argv("hrf-fov", scores, "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["consistent"] is True and out["details"]["som"]["note"] == f"totals p={p}, n={n}"
    assert main(_argv("hrf-fov", scores)) == 0
    assert "CONSISTENT" in capsys.readouterr().out
    # one unit off in the 4th decimal of the accuracy: no pooled (tp, tn) gives it with sens, spec and f1
    bad = dict(scores, acc=f"{acc + 1e-4:.4f}")
    assert main(_argv("hrf-fov", bad, "--json")) == 0  # a verdict, not an error: exit 0
    assert json.loads(capsys.readouterr().out)["consistent"] is False
    assert main(_argv("hrf-fov", bad)) == 0
    assert "INCONSISTENT" in capsys.readouterr().out


def test_check_hrf_through_the_installed_command():
    exe = Path(sys.executable).parent / "sotalib"
    scores, acc = _pooled(28_395_044, 282_712_163)  # hrf-fov
    for value, want in ((acc, True), (acc - 1e-4, False)):
        argv = _argv("hrf-fov", dict(scores, acc=f"{value:.4f}"), "--json")
        res = subprocess.run([str(exe), *argv], capture_output=True, text=True, check=False)
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert json.loads(res.stdout)["consistent"] is want
    # a misspelt name is an input error: exit 2, one line naming --dataset
    res = subprocess.run([str(exe), *_argv("hrf-fovv", scores)], capture_output=True, text=True, check=False)
    assert (
        res.returncode == 2
        and res.stdout == ""
        and re.search("--dataset must be a named (benchmark or )?test set", res.stderr)
    )
    assert len(res.stderr.strip().splitlines()) == 1


def test_check_drishti_gs_mean_of_scores(capsys):
    # every image's own confusion matrix: the mean of its scores is consistent with the 51 test images
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    folds = d["drishtigs-test-od-4of4"]["folds"]
    picked = [(p * 4 // 5, n - n // 100) for p, n in folds]
    mean = {
        "sens": sum(t / p for (t, _), (p, _) in zip(picked, folds)) / len(folds),
        "spec": sum(u / n for (_, u), (_, n) in zip(picked, folds)) / len(folds),
    }
    argv = ["check", "--dataset", "drishtigs-test-od-4of4", "--aggregation", "mos", "--decimals", "4", "--json"]
    for k, v in mean.items():
        argv += ["--score", f"{k}={v:.4f}"]
    assert main(argv) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is True


# ---------------------------------------------------------------------------
# DIARETDB1: image labelling (a single test set of images) and field-of-view segmentation (one fold per image)
def test_datasets_lists_diaretdb1(capsys):
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    # 28 training and 61 test images; every field of view holds 1,407,235 pixels
    assert (d["diaretdb1-test-hardexudates-10to11of12"]["p"], d["diaretdb1-test-hardexudates-10to11of12"]["n"]) == (
        16,
        45,
    )
    assert sum(d["diaretdb1-train-softexudates-1of12"]["folds"][0]) == 28
    seg = d["diaretdb1-test-hemorrhages-fov-10of12"]["folds"]
    assert 0 < len(seg) <= 61 and all(p > 0 and p + n == 1_407_235 for p, n in seg)
    assert not any(name.startswith("diaretdb1") and "-all" in name for name in d)  # the broken counts
    assert main(["datasets"]) == 0
    out = capsys.readouterr().out
    assert "diaretdb1-test-redsmalldots-fov-12of12" in out and "mlscorecheck's confidence in (189/255, 210/255]" in out


def test_check_diaretdb1_consistent_from_true_counts_and_not_when_perturbed(capsys):
    name = "diaretdb1-test-hardexudates-fov-10of12"
    assert main(["datasets", "--json"]) == 0
    d = {x["name"]: x for x in json.loads(capsys.readouterr().out)["datasets"]}
    p, n = d[name]["p"], d[name]["n"]
    scores, acc = _pooled(p, n)
    assert main(_argv(name, scores, "--json")) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["consistent"] is True and out["details"]["som"]["note"] == f"totals p={p}, n={n}"
    bad = dict(scores, acc=f"{acc + 1e-4:.4f}")
    assert main(_argv(name, bad, "--json")) == 0
    assert json.loads(capsys.readouterr().out)["consistent"] is False
    assert main(_argv(name, bad)) == 0
    assert "INCONSISTENT" in capsys.readouterr().out


def test_check_diaretdb1_through_the_installed_command():
    exe = Path(sys.executable).parent / "sotalib"
    # image labelling, the 61 test images, hard exudates at mlscorecheck's confidence 0.75: 16 positives, 45 not
    tp, tn = 13, 41
    for delta, want in ((0, True), (1e-4, False)):
        scores = {"acc": f"{(tp + tn) / 61 + delta:.4f}", "sens": f"{tp / 16:.4f}", "spec": f"{tn / 45:.4f}"}
        argv = ["check", "--dataset", "diaretdb1-test-hardexudates-10to11of12", "--decimals", "4", "--json"]
        for k, v in scores.items():
            argv += ["--score", f"{k}={v}"]
        res = subprocess.run([str(exe), *argv], capture_output=True, text=True, check=False)
        assert res.returncode == 0 and res.stderr == "", res.stderr
        assert json.loads(res.stdout)["consistent"] is want
    # the all-pixels counts are not offered: the name is an input error, exit 2, one line
    res = subprocess.run(
        [str(exe), "check", "--dataset", "diaretdb1-test-hardexudates-all", "--score", "acc=0.9", "--eps", "1e-4"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert (
        res.returncode == 2
        and res.stdout == ""
        and re.search("--dataset must be a named (benchmark or )?test set", res.stderr)
    )
    assert len(res.stderr.strip().splitlines()) == 1


def test_datasets_lists_the_names_containing_a_word_and_refuses_a_word_none_contains(capsys):
    assert main(["datasets", "hrf", "--json"]) == 0
    names = [d["name"] for d in json.loads(capsys.readouterr().out)["datasets"]]
    assert names and all("hrf" in name for name in names) and "hrf-fov" in names
    assert main(["datasets", "xyz"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "no named test set contains 'xyz'" in err[0]


def test_a_misspelt_dataset_is_answered_with_the_closest_names_not_all_of_them(capsys):
    assert main(["check", "--dataset", "hrf-fovv", "--score", "acc=0.9", "--eps", "1e-4"]) == 2
    err = capsys.readouterr().err
    assert "did you mean hrf-fov" in err and "drive-test-fov" not in err and len(err) < 400
