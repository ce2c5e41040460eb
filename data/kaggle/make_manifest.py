"""Vendor the MLE-Dojo leaderboards the book's estimators handle, and write ``manifest.csv``.

Usage (from the project root, with a checkout of the source at the pinned commit)::

    python data/kaggle/make_manifest.py PATH/TO/MLE-Dojo

``PATH/TO/MLE-Dojo`` holds ``mledojo/competitions/<slug>/info/{public,private}_leaderboard.csv``,
``description.txt`` and ``utils/metric.py``.  The classification below was made by reading each
competition's ``utils/metric.py`` (the code, not the name of the metric); the test-set sizes, class
counts and prevalences were read from ``description.txt`` and are quoted.  The board files are copied
byte for byte (they already are ``rank,score``); the script recomputes every count in the manifest
from them.
"""

from __future__ import annotations

import csv
import hashlib
import re
import sys
from pathlib import Path

from sotalib.multiplicity import possible_n

COMMIT = "667a8fd0e959eb47f140ce7e621f831fdb55e5dd"
HERE = Path(__file__).resolve().parent

AUC_CODE = "sklearn roc_auc_score of one binary label column against one score column"
ACC_CODE = "sklearn accuracy_score of one label column"
ACC_MEAN = "mean of (y_true == y_pred) over one label column"

# slug -> (metric, metric as the description states it, metric as metric.py computes it, conversion)
HANDLED: dict[str, tuple[str, str, str, str]] = {}
for _slug in (
    "GiveMeSomeCredit acquire-valued-shoppers-challenge amazon-employee-access-challenge cat-in-the-dat "
    "cat-in-the-dat-ii detecting-insults-in-social-commentary dont-call-me-turkey dont-overfit-ii "
    "facebook-recruiting-iv-human-or-bot homesite-quote-conversion instant-gratification "
    "llm-detect-ai-generated-text microsoft-malware-prediction playground-series-s3e12 playground-series-s3e17 "
    "playground-series-s3e2 playground-series-s3e23 playground-series-s3e24 playground-series-s3e3 "
    "playground-series-s3e4 playground-series-s3e7 playground-series-s4e1 predicting-red-hat-business-value "
    "rsna-miccai-brain-tumor-radiogenomic-classification santander-customer-satisfaction "
    "santander-customer-transaction-prediction seti-breakthrough-listen stumbleupon "
    "tabular-playground-series-aug-2022 tabular-playground-series-mar-2021 tabular-playground-series-may-2022 "
    "tabular-playground-series-nov-2021 tabular-playground-series-oct-2021 tabular-playground-series-sep-2021 "
    "unimelb word2vec-nlp-tutorial aerial-cactus-identification histopathologic-cancer-detection "
    "random-acts-of-pizza invasive-species-monitoring"
).split():
    HANDLED[_slug] = ("auc", "area under the ROC curve", AUC_CODE, "none")
HANDLED["the-icml-2013-whale-challenge-right-whale-redux"] = (
    "auc",
    "area under the ROC curve",
    "sklearn roc_curve then auc (trapezoidal area) of one binary label column: the ROC AUC",
    "none",
)
HANDLED["DontGetKicked"] = (
    "gini",
    "Gini score",
    "2 * roc_auc_score - 1 of one binary label column (IsBadBuy)",
    "auc = (1 + score) / 2",
)
HANDLED["porto-seguro-safe-driver-prediction"] = (
    "gini",
    "Normalized Gini Coefficient",
    "gini(actual, pred) / gini(actual, actual) on a binary target: 2 * AUC - 1 when no predictions tie",
    "auc = (1 + score) / 2",
)
for _slug, _code in {
    "cassava-leaf-disease-classification": ACC_CODE,
    "forest-cover-type-kernels-only": ACC_CODE,
    "ml2021spring-hw2": ACC_CODE,
    "movie-review-sentiment-analysis-kernels-only": ACC_CODE,
    "playground-series-s4e2": ACC_CODE,
    "playground-series-s4e6": ACC_CODE,
    "poker-rule-induction": ACC_CODE,
    "spaceship-titanic": ACC_CODE,
    "tabular-playground-series-apr-2021": ACC_CODE,
    "tabular-playground-series-dec-2021": ACC_CODE,
    "tabular-playground-series-feb-2022": ACC_CODE,
    "cdiscount-image-classification-challenge": ACC_MEAN,
    "titanic": ACC_MEAN,
    "paddy-disease-classification": "(y_true == y_pred).sum() / len(y_true) over one label column",
    "iwildcam-2020-fgvc7": ACC_MEAN,
    "wsdm-cup-multilingual-chatbot-arena": "(y_true == y_pred).sum() / len(y_true) over one label column",
}.items():
    HANDLED[_slug] = ("accuracy", "", _code, "none")
HANDLED["allstate-purchase-prediction-challenge"] = (
    "accuracy",
    "all-or-none accuracy: the percent of customers whose whole purchased plan is predicted",
    "100 * (y_true == y_pred).sum() / len(y_true) of the 7-option plan string; the board prints fractions",
    "none (the board is in [0, 1], metric.py in percent)",
)
HANDLED["imaterialist-challenge-furniture-2018"] = (
    "accuracy",
    "error averaged across all images (1 label per image)",
    "mean of (y_true != y_pred): top-1 error = 1 - accuracy",
    "accuracy = 1 - score",
)
HANDLED["inaturalist-2019-fgvc6"] = (
    "accuracy",
    "top-1 classification error",
    "mean of (first predicted label != y_true): top-1 error = 1 - accuracy",
    "accuracy = 1 - score",
)
HANDLED["plant-seedlings-classification"] = (
    "accuracy",
    "MeanFScore, which at Kaggle is actually a micro-averaged F1-score",
    "sklearn f1_score(average='micro') of one label column: equals accuracy with one label per image",
    "none (micro F1 = accuracy)",
)
HANDLED["playground-series-s3e22"] = (
    "accuracy",
    "micro-averaged F1-Score",
    "sklearn f1_score(average='micro') of one label column: equals accuracy with one label per row",
    "none (micro F1 = accuracy)",
)
_ACC_STATED = {
    "cassava-leaf-disease-classification": "categorization accuracy",
    "forest-cover-type-kernels-only": "multi-class classification accuracy",
    "ml2021spring-hw2": "catagorization accuracy",
    "movie-review-sentiment-analysis-kernels-only": "classification accuracy (the percent of labels that are predicted correctly)",
    "playground-series-s4e2": "accuracy score",
    "playground-series-s4e6": "accuracy score",
    "poker-rule-induction": "categorization accuracy (the percent of hands that you correctly classify)",
    "spaceship-titanic": "classification accuracy, the percentage of predicted labels that are correct",
    "tabular-playground-series-apr-2021": "the percentage of passengers you correctly predict ... accuracy",
    "tabular-playground-series-dec-2021": "multi-class classification accuracy",
    "tabular-playground-series-feb-2022": "categorization accuracy",
    "cdiscount-image-classification-challenge": "not stated (the description's Metric heading is empty)",
    "titanic": "the percentage of passengers you correctly predict ... accuracy",
    "paddy-disease-classification": "categorization accuracy",
    "iwildcam-2020-fgvc7": "categorization accuracy",
    "wsdm-cup-multilingual-chatbot-arena": "categorization accuracy",
}
for _slug, _txt in _ACC_STATED.items():
    HANDLED[_slug] = (HANDLED[_slug][0], _txt, *HANDLED[_slug][2:])
HANDLED["GiveMeSomeCredit"] = ("auc", "AUC", AUC_CODE, "none")
HANDLED["unimelb"] = ("auc", "area under the receiver operator curve (AUC)", AUC_CODE, "none")

# slug -> (classes, source)
CLASSES = {
    "cassava-leaf-disease-classification": (
        5,
        "external: labels 0-4 of the competition's data (4 diseases and healthy)",
    ),
    "forest-cover-type-kernels-only": (
        7,
        "description: 'a predicted cover type (an integer between 1 and 7, inclusive)'",
    ),
    "ml2021spring-hw2": (
        39,
        "external: the 39 TIMIT phoneme classes of the course's homework (not in the description)",
    ),
    "movie-review-sentiment-analysis-kernels-only": (
        5,
        "description: 'The sentiment labels are: 0 - negative ... 4 - positive'",
    ),
    "playground-series-s4e2": (7, "external: the 7 NObeyesdad weight classes of the source data"),
    "playground-series-s4e6": (3, "external: Target in {Graduate, Dropout, Enrolled} of the source data"),
    "poker-rule-induction": (10, "external: poker hands 0-9 (nothing in hand to royal flush)"),
    "spaceship-titanic": (2, "description: Transported True/False"),
    "tabular-playground-series-apr-2021": (2, "description: 'predict a 0 or 1 value for the Survived target'"),
    "tabular-playground-series-dec-2021": (7, "external: the 7 Cover_Type classes of the forest cover data"),
    "tabular-playground-series-feb-2022": (10, "external: the 10 bacteria species of the competition's data"),
    "cdiscount-image-classification-challenge": (
        5270,
        "external: the competition's category list holds 5,270 categories (description: 'more than 5000 categories')",
    ),
    "titanic": (2, "description: 'predict a 0 or 1 value'"),
    "paddy-disease-classification": (10, "description: 'ten classes (nine disease categories and normal leaf)'"),
    "iwildcam-2020-fgvc7": (
        267,
        "external, uncertain: the categories listed with the iWildCam 2020 annotations (fewer occur in the test set)",
    ),
    "wsdm-cup-multilingual-chatbot-arena": (2, "description: winner in {model_a, model_b}"),
    "allstate-purchase-prediction-challenge": (
        2304,
        "external: every combination of the 7 options A-G (3*2*4*3*2*4*4); chance is not 1/classes: "
        "the last quoted plan already scores about 0.53",
    ),
    "imaterialist-challenge-furniture-2018": (128, "description: '128 furniture and home goods classes'"),
    "inaturalist-2019-fgvc6": (1010, "description: 'a refined set of 1,010 species'"),
    "plant-seedlings-classification": (12, "description: '12 species'"),
    "playground-series-s3e22": (3, "external: outcome in {lived, died, euthanized} of the source data"),
}

# slug -> (n, exact?, quoted sentence of the description)
N_STATED = {
    "stumbleupon": (3171, "yes", "test.tsv is the test/evaluation set and contains 3,171 urls."),
    "unimelb": (
        2176,
        "yes",
        "The test dataset, unimelb_test.csv, contains 2,176 grant applications from 2009 to mid 2010.",
    ),
    "word2vec-nlp-tutorial": (
        25000,
        "yes",
        "You should submit a comma-separated file with 25,000 rows plus a header row.",
    ),
    "dont-overfit-ii": (19750, "yes", "test.csv - the test set. 19,750 rows."),
    "llm-detect-ai-generated-text": (
        9000,
        "no",
        "the hidden test set contains around 9,000 essays, both student-written and LLM-generated.",
    ),
    "invasive-species-monitoring": (1531, "yes", "test.7z - the testing set (contains 1531 images)"),
    "cassava-leaf-disease-classification": (15000, "no", "Expect to see roughly 15,000 images in the test set."),
    "forest-cover-type-kernels-only": (
        565892,
        "yes",
        "You must predict the Cover_Type for every row in the test set (565,892 observations).",
    ),
    "ml2021spring-hw2": (451552, "yes", "451552 testing samples"),
    "poker-rule-induction": (1000000, "yes", "test.csv - Contains 1,000,000 poker hands for testing."),
    "spaceship-titanic": (
        4300,
        "no",
        "Personal records for the remaining one-third (~4300) of the passengers, to be used as test data.",
    ),
    "tabular-playground-series-apr-2021": (
        100000,
        "yes",
        "You should submit a csv file with exactly 100,000 rows plus a header row.",
    ),
    "titanic": (418, "yes", "You should submit a csv file with exactly 418 entries plus a header row."),
    "paddy-disease-classification": (
        3469,
        "yes",
        "classify each paddy image in the given test dataset of 3,469 (25%) images",
    ),
    "iwildcam-2020-fgvc7": (62894, "yes", "the WCS test set includes 62,894 images from 111 locations"),
    "cdiscount-image-classification-challenge": (
        1768182,
        "yes",
        "test.bson - (Size: 14.5 GB) Contains a list of 1,768,182 products",
    ),
    "imaterialist-challenge-furniture-2018": (
        12800,
        "yes",
        "It consists of 194,828 training images, 6,400 validation images, and 12,800 testing images.",
    ),
}

# slug -> (split, quoted source)
SPLIT = {
    "rsna-miccai-brain-tumor-radiogenomic-classification": (
        "public about 1/5 of the rerun test set, private the rest (separate cohorts)",
        "The competition data consists of three cohorts: Training, Validation (Public), and Testing (Private). "
        "NOTE: the total size of the rerun test set (Public and Private) is approximately five times the size of "
        "the Public test set.",
    ),
}

# slug -> (prevalence, quoted source)
PREVALENCE = {
    "unimelb": (
        0.225,
        "midpoint of the description's 'With only 20-25% of applications being successful' "
        "(all applications, not the test set)",
    ),
}

# Boards whose public file holds no public scores (every row 0.0).
EMPTY_PUBLIC = {
    "detecting-insults-in-social-commentary": "public file: 50 rows all 0.0 (no public scores)",
    "wsdm-cup-multilingual-chatbot-arena": "public file: 889 rows all 0.0 (no public scores)",
}

# slug -> what metric.py computes, for the competitions left out
EXCLUDED: dict[str, str] = {
    "20-newsgroups-ciphertext-challenge": "macro-averaged F1 over classes",
    "AI4Code": "Kendall tau over cell orders (inversion count)",
    "afsis-soil-properties": "mean column-wise RMSE over 5 targets",
    "airbnb-recruiting-new-user-bookings": "ranking metric (MAP@k / NDCG)",
    "airbus-ship-detection": "F2 score averaged over IoU thresholds",
    "alaska2-image-steganalysis": "weighted AUC (TPR band 0-0.4 weighted 2, 0.4-1 weighted 1)",
    "allstate-claims-severity": "mean absolute error",
    "aptos2019-blindness-detection": "quadratic weighted kappa",
    "ashrae-energy-prediction": "RMSLE (root mean squared log error)",
    "avazu-ctr-prediction": "log loss (cross-entropy)",
    "battlefin-s-big-data-combine-forecasting-challenge": "mean absolute error",
    "benchmark-bond-trade-price-challenge": "weighted mean absolute error",
    "bengaliai-cv19": "weighted mean of macro recalls over three components",
    "bigquery-geotab-intersection-congestion": "RMSE / MSE",
    "bike-sharing-demand": "RMSLE (root mean squared log error)",
    "billion-word-imputation": "edit (Levenshtein) distance",
    "bioresponse": "log loss (cross-entropy)",
    "bms-molecular-translation": "edit (Levenshtein) distance",
    "bnp-paribas-cardif-claims-management": "log loss (cross-entropy)",
    "chaii-hindi-and-tamil-question-answering": "Jaccard similarity",
    "champs-scalar-coupling": "mean over coupling types of log mean absolute error",
    "commonlitreadabilityprize": "RMSE / MSE",
    "conways-reverse-game-of-life-2020": "mean absolute error over cells",
    "covid19-global-forecasting-week-1": "RMSLE (root mean squared log error), averaged over two targets",
    "covid19-global-forecasting-week-2": "RMSLE (root mean squared log error), averaged over two targets",
    "covid19-global-forecasting-week-3": "RMSLE (root mean squared log error), averaged over two targets",
    "covid19-global-forecasting-week-4": "RMSLE (root mean squared log error), averaged over two targets",
    "crowdflower-weather-twitter": "RMSE / MSE",
    "demand-forecasting-kernels-only": "SMAPE",
    "denoising-dirty-documents": "RMSE / MSE",
    "dog-breed-identification": "log loss (cross-entropy)",
    "dogs-vs-cats-redux-kernels-edition": "log loss (cross-entropy)",
    "draper-satellite-image-chronology": "Spearman correlation",
    "facebook-recruiting-iii-keyword-extraction": "mean per-row F1 of tag sets",
    "facial-keypoints-detection": "RMSE / MSE",
    "feedback-prize-english-language-learning": "mean column-wise RMSE over 6 targets",
    "flavours-of-physics-kernels-only": "weighted AUC over TPR bands, on a filtered subset (min_ANNmuon > 0.4)",
    "freesound-audio-tagging-2019": "label-weighted label-ranking average precision (multi-label)",
    "global-wheat-detection": "mean average precision over IoU thresholds",
    "google-quest-challenge": "Spearman correlation",
    "grupo-bimbo-inventory-demand": "RMSLE (root mean squared log error)",
    "h-and-m-personalized-fashion-recommendations": "ranking metric (MAP@k / NDCG)",
    "herbarium-2020-fgvc7": "macro-averaged F1 over classes",
    "herbarium-2021-fgvc8": "macro-averaged F1 over classes",
    "herbarium-2022-fgvc9": "macro-averaged F1 over classes",
    "hms-harmful-brain-activity-classification": "KL divergence",
    "home-data-for-ml-course": "RMSE / MSE",
    "home-depot-product-search-relevance": "RMSE / MSE",
    "hotel-id-2021-fgvc8": "ranking metric (MAP@k / NDCG)",
    "hubmap-kidney-segmentation": "mean Dice coefficient",
    "icecube-neutrinos-in-deep-ice": "mean angular error",
    "icr-identify-age-related-conditions": "log loss (cross-entropy)",
    "imet-2020-fgvc7": "F-score over multi-label attributes",
    "integer-sequence-learning": "accuracy over an open answer set (next integer of a sequence): no number of "
    "classes, chance is not 1/classes",
    "iwildcam-2019-fgvc6": "macro-averaged F1 over classes",
    "jigsaw-toxic-comment-classification-challenge": 'mean of column-wise ROC AUCs over 6 labels (average="macro")',
    "jigsaw-unintended-bias-in-toxicity-classification": "generalized power mean of subgroup AUCs combined with "
    "the overall AUC (bias-weighted AUC)",
    "kaggle-llm-science-exam": "ranking metric (MAP@k / NDCG)",
    "kobe-bryant-shot-selection": "log loss (cross-entropy)",
    "kuzushiji-recognition": "micro F1 of character detections (point in box)",
    "leaf-classification": "log loss (cross-entropy)",
    "learning-agency-lab-automated-essay-scoring-2": "quadratic weighted kappa",
    "liberty-mutual-group-property-inspection-prediction": "normalized Gini on a count target (Hazard), not a "
    "binary label: not 2*AUC-1",
    "linking-writing-processes-to-writing-quality": "RMSE / MSE",
    "liverpool-ion-switching": "macro-averaged F1 over classes",
    "llm-classification-finetuning": "log loss (cross-entropy)",
    "lmsys-chatbot-arena": "log loss (cross-entropy)",
    "loan-default-prediction": "mean absolute error",
    "mercedes-benz-greener-manufacturing": "R squared",
    "mlsp-2013-birds": "mean of ROC AUCs over 19 species labels",
    "multi-modal-gesture-recognition": "edit (Levenshtein) distance",
    "nbme-score-clinical-patient-notes": "micro F1 over character spans",
    "new-york-city-taxi-fare-prediction": "RMSE / MSE",
    "nfl-player-contact-detection": "Matthews correlation coefficient",
    "nlp-getting-started": "F1 score of the positive class",
    "nomad2018-predict-transparent-conductors": "RMSLE (root mean squared log error), averaged over two targets",
    "novozymes-enzyme-stability-prediction": "Spearman correlation",
    "nyc-taxi-trip-duration": "RMSLE (root mean squared log error)",
    "osic-pulmonary-fibrosis-progression": "modified Laplace log likelihood",
    "petfinder-pawpularity-score": "RMSE / MSE",
    "plant-pathology-2020-fgvc7": "mean of column-wise ROC AUCs over 4 labels",
    "plant-pathology-2021-fgvc8": "sample-averaged F1 (multi-label)",
    "playground-series-s3e1": "RMSE / MSE",
    "playground-series-s3e10": "log loss (cross-entropy)",
    "playground-series-s3e11": "RMSLE (root mean squared log error)",
    "playground-series-s3e13": "ranking metric (MAP@k / NDCG)",
    "playground-series-s3e14": "mean absolute error",
    "playground-series-s3e16": "mean absolute error",
    "playground-series-s3e18": "mean of ROC AUCs over 2 targets (EC1, EC2)",
    "playground-series-s3e19": "SMAPE",
    "playground-series-s3e20": "RMSE / MSE",
    "playground-series-s3e25": "median absolute error",
    "playground-series-s3e5": "quadratic weighted kappa",
    "playground-series-s3e6": "RMSE / MSE",
    "playground-series-s3e8": "RMSE / MSE",
    "playground-series-s3e9": "RMSE / MSE",
    "playground-series-s4e3": "mean of ROC AUCs over 7 defect labels",
    "playground-series-s4e4": "RMSLE (root mean squared log error)",
    "playground-series-s4e5": "R squared",
    "predict-volcanic-eruptions-ingv-oe": "mean absolute error",
    "prudential-life-insurance-assessment": "quadratic weighted kappa",
    "pubg-finish-placement-prediction": "mean absolute error",
    "quora-insincere-questions-classification": "F1 score of the positive class",
    "quora-question-pairs": "log loss (cross-entropy)",
    "ranzcr-clip-catheter-line-classification": "mean of column-wise ROC AUCs over 11 labels",
    "rossmann-store-sales": "RMSPE (root mean squared percentage error)",
    "santander-value-prediction-challenge": "RMSLE (root mean squared log error)",
    "sberbank-russian-housing-market": "RMSLE (root mean squared log error)",
    "see-click-predict-fix": "RMSLE (root mean squared log error)",
    "sf-crime": "log loss (cross-entropy)",
    "shopee-product-matching": "mean per-row F1 of matched sets",
    "siim-covid19-detection": "mean average precision at IoU 0.5",
    "smartphone-decimeter-2022": "haversine distance error in metres",
    "spooky-author-identification": "log loss (cross-entropy)",
    "stanford-covid-vaccine": "mean column-wise RMSE over 3 targets",
    "statoil-iceberg-classifier-challenge": "log loss (cross-entropy)",
    "tabular-playground-series-aug-2021": "RMSE / MSE",
    "tabular-playground-series-feb-2021": "RMSE / MSE",
    "tabular-playground-series-jan-2021": "RMSE / MSE",
    "tabular-playground-series-jan-2022": "SMAPE",
    "tabular-playground-series-jul-2021": "RMSLE (root mean squared log error)",
    "tabular-playground-series-mar-2022": "mean absolute error",
    "tabular-playground-series-sep-2022": "SMAPE",
    "text-normalization-challenge-english-language": "token accuracy over an open answer set (normalized text "
    "strings): no number of classes, copying the input already "
    "scores about 0.9",
    "text-normalization-challenge-russian-language": "token accuracy over an open answer set (normalized text "
    "strings): no number of classes, copying the input already "
    "scores high",
    "tgs-salt-identification-challenge": "mean average precision over IoU thresholds",
    "the-nature-conservancy-fisheries-monitoring": "log loss (cross-entropy)",
    "the-winton-stock-market-challenge": "weighted mean absolute error",
    "tmdb-box-office-prediction": "RMSLE (root mean squared log error)",
    "tweet-sentiment-extraction": "Jaccard similarity",
    "us-patent-phrase-to-phrase-matching": "Pearson correlation",
    "uw-madison-gi-tract-image-segmentation": "Dice coefficient combined with Hausdorff distance",
    "ventilator-pressure-prediction": "mean absolute error",
    "vesuvius-challenge-ink-detection": "F0.5 score over ink pixels",
    "vinbigdata-chest-xray-abnormalities-detection": "mean average precision at IoU 0.4",
    "walmart-recruiting-store-sales-forecasting": "weighted mean absolute error (holidays weighted 5)",
    "whale-categorization-playground": "ranking metric (MAP@k / NDCG)",
    "yelp-recsys-2013": "RMSE / MSE",
}

TRUNCATION_ROWS = 4540  # the source's lists stop at 4,549-4,599 rows when the field was larger


def _read(path: Path) -> list[str]:
    rows = list(csv.reader(path.read_text().splitlines()))
    if rows[0] != ["rank", "score"]:
        raise ValueError(f"{path}: header {rows[0]}, expected rank,score")
    return [r[1] for r in rows[1:]]


def _decimals(scores: list[str]) -> int:
    return max(len(s.split(".")[1]) if "." in s else 0 for s in scores)


def _chance(metric: str, classes: int | None) -> float:
    return {"auc": 0.5, "gini": 0.0}.get(metric, 1.0 / classes if classes else 0.0)


def _to_unit(conversion: str, v: float) -> float:
    if conversion.startswith("auc = "):
        return (1.0 + v) / 2.0
    if conversion.startswith("accuracy = 1 - "):
        return 1.0 - v
    return v


def _board(slug: str, side: str, src: Path, metric: str, conversion: str, n_hi: int | None) -> dict:
    scores = _read(src)
    vals = [float(s) for s in scores]
    unit = [_to_unit(conversion, v) for v in vals]
    best = max(unit)
    d = _decimals(scores)
    perfect = sum(1 for u in unit if u == 1.0)
    last = unit[-1]
    chance = _chance("auc" if metric == "gini" else metric, CLASSES.get(slug, (None,))[0])
    truncated = len(scores) >= TRUNCATION_ROWS and last > chance
    out = {
        "rows": len(scores),
        "decimals": d,
        "perfect": perfect,
        "top": scores[0],
        "best_unit": best,
        "truncated": "yes" if truncated else "no",
        "lattice": "",
        "lattice_min": "",
        "lattice_range": "",
    }
    if metric == "accuracy" and not (slug in EMPTY_PUBLIC and side == "public"):
        hi = min(10**d, n_hi) if n_hi else 10**d
        cand = possible_n(vals, d, range(1, hi + 1))
        out["lattice"] = len(cand)
        out["lattice_min"] = int(cand[0]) if len(cand) else ""
        out["lattice_range"] = f"1-{hi}"
    return out


def main(source: Path) -> None:
    """Copy the handled boards from ``source`` next to this file and write ``manifest.csv``."""
    comp = source / "mledojo" / "competitions"
    slugs = sorted(p.name for p in comp.iterdir() if p.is_dir())
    missing = set(HANDLED) ^ (set(slugs) - set(EXCLUDED))
    if missing or set(HANDLED) & set(EXCLUDED):
        raise ValueError(f"classification does not cover the source exactly: {sorted(missing)}")
    fields = [
        "slug",
        "handled",
        "metric",
        "metric_description",
        "metric_code",
        "conversion",
        "reason",
        "classes",
        "classes_source",
        "prevalence",
        "prevalence_source",
        "n_test",
        "n_test_exact",
        "n_test_source",
        "split",
        "split_source",
        "rows_public",
        "rows_private",
        "decimals_public",
        "decimals_private",
        "top_public",
        "top_private",
        "perfect_public",
        "perfect_private",
        "truncated_public",
        "truncated_private",
        "identical",
        "lattice_range_public",
        "n_lattice_candidates_public",
        "n_lattice_min_public",
        "lattice_range_private",
        "n_lattice_candidates_private",
        "n_lattice_min_private",
        "notes",
        "public_file",
        "private_file",
        "repo_commit",
    ]
    out_rows = []
    for slug in slugs:
        info = comp / slug / "info"
        pub, priv = info / "public_leaderboard.csv", info / "private_leaderboard.csv"
        row = dict.fromkeys(fields, "")
        row.update(slug=slug, repo_commit=COMMIT)
        row["rows_public"], row["rows_private"] = len(_read(pub)), len(_read(priv))
        same = hashlib.sha256(pub.read_bytes()).digest() == hashlib.sha256(priv.read_bytes()).digest()
        row["identical"] = "yes" if same else "no"
        if slug in EXCLUDED:
            row.update(
                handled="no",
                metric="none",
                metric_code=EXCLUDED[slug],
                reason=f"{EXCLUDED[slug]}: not one accuracy or one binary ROC AUC on one test set",
                metric_description=_stated(info / "description.txt"),
            )
            out_rows.append(row)
            continue
        metric, stated, code, conversion = HANDLED[slug]
        n = N_STATED.get(slug)
        n_hi = n[0] if n and n[1] == "yes" else None
        row.update(handled="yes", metric=metric, metric_description=stated, metric_code=code, conversion=conversion)
        if slug in CLASSES:
            row["classes"], row["classes_source"] = CLASSES[slug]
        if slug in PREVALENCE:
            row["prevalence"], row["prevalence_source"] = PREVALENCE[slug]
        if n:
            row["n_test"], row["n_test_exact"], row["n_test_source"] = n[0], n[1], f"description: '{n[2]}'"
        else:
            row["n_test_source"] = "lattice" if metric == "accuracy" else "not stated"
        if slug in SPLIT:
            row["split"], row["split_source"] = SPLIT[slug][0], f"description: '{SPLIT[slug][1]}'"
        else:
            row["split_source"] = "not stated"
        for side, src in (("public", pub), ("private", priv)):
            b = _board(slug, side, src, metric, conversion, n_hi)
            dst = HERE / f"{slug}__{side}.csv"
            dst.write_bytes(src.read_bytes())
            row[f"{side}_file"] = f"data/kaggle/{dst.name}"
            row[f"decimals_{side}"], row[f"top_{side}"] = b["decimals"], b["top"]
            row[f"perfect_{side}"], row[f"truncated_{side}"] = b["perfect"], b["truncated"]
            row[f"lattice_range_{side}"] = b["lattice_range"]
            row[f"n_lattice_candidates_{side}"], row[f"n_lattice_min_{side}"] = b["lattice"], b["lattice_min"]
        row["notes"] = EMPTY_PUBLIC.get(slug, "")
        out_rows.append(row)
    with open(HERE / "manifest.csv", "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields, lineterminator="\n")
        w.writeheader()
        w.writerows(out_rows)


def _stated(path: Path) -> str:
    """First sentence of the description's Evaluation section, as printed (excluded rows only)."""
    text = path.read_text()
    m = re.search(r"(?i)evaluation\W*", text)
    if not m:
        return ""
    rest = re.sub(r"\s+", " ", text[m.end() :]).strip(" *#:")
    return re.split(r"(?<=\.)\s|\s#", rest)[0][:200]


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.stderr.write("usage: make_manifest.py PATH/TO/MLE-Dojo\n")
        sys.exit(2)
    main(Path(sys.argv[1]))
