"""Pins what the suites compute, so that moving code around cannot change it unnoticed.

The dataset hashes and the reference policy's per-sample scores were first recorded before the
per-case core moved into ``hat_eval.episode`` (the move left them unchanged). They changed
deliberately once since, with ``DATASET_VERSION`` 2 (issue 12: sound cases, paired suites,
claim-level checks). A change to them must be deliberate: bump ``DATASET_VERSION``, update the
hashes here and state the new ones in the README.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from hat_eval.episode import build_rows, dataset_sha256

DATASETS = {  # suite/split/n (n: the suite's size when absent) -> sha256
    "livestream/test": "b087d94af401a9764595ed25ac57fa7f9893c66148fbf76c8a702f42cf445268",
    "livestream/train/200": "9601ab00dc3e8db7d24a3bcfa5dcedb63879aaff1e6899e559b317b5cee94dec",
    "livestream/dev/200": "9125ceefa7300787fd6ef2eb55ad0369ef2ce7fc10c255059eeb4a3ee4d70452",
    "variant/test": "edead8604dd31f13633a2ef530c30b3f859ac69dc7a78610304413b633537db0",
    "variant/train/200": "891edd0482a73605085f44abd4d24bd4f90d3faceef641fab03b36adcc2e5114",
    "variant/dev/200": "288225f04fde63a1db757087fa4ae772030080c59fd04f0acc844c5f25a2d648",
    "robustness/test": "2af3954f675c83782f8e0e08cf45fbdcd3c60211004770a8522c6d1eac94ee76",
    "robustness/train/200": "e9082892fd453134af35d5446c0cc90e8d0ecf99118a1c7cf780847a9ebecf5a",
    "robustness/dev/200": "437c10e31bde9cb96ee6aea6b2ba84fe7cfa6a0cc398515f1a04c4e157d4f03d",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    "livestream": "fb35ede72dcf4e4fd0bb15d3f9355794e172b1dd31c52f4c189926a096c5902b",
    "variant": "cd75652a1508869a533c8561a20bbfa684c322568dafafa311a0b76c09c535ef",
    # robustness: re-pinned when "food-grade" stopped reading as text addressed to the grader
    "robustness": "2d66169b867ffca5b551d738d39a309115a73898ccf758ba0d85b63cbad30927",
}


@pytest.mark.parametrize("key", list(DATASETS))
def test_dataset_hash_is_pinned(key: str) -> None:
    suite, split, *n = key.split("/")
    rows = build_rows(suite, split=split, n=int(n[0]) if n else None)
    assert dataset_sha256(rows) == DATASETS[key]


def _digest(samples: list) -> str:
    per = {}
    for s in samples:
        value = next(iter(s.scores.values())).value
        per[str(s.id)] = {
            k: None if isinstance(x, float) and math.isnan(x) else round(x, 9)
            for k, x in sorted(value.items())
        }
    return hashlib.sha256(json.dumps(per, sort_keys=True).encode()).hexdigest()


@pytest.mark.slow
@pytest.mark.parametrize("suite", list(REFERENCE_SCORES))
def test_reference_policy_scores_are_pinned(suite: str, tmp_path) -> None:
    from inspect_ai import eval as inspect_eval

    import hat_eval._registry  # noqa: F401  (registers hat/reference)
    from hat_eval.suites import suite_task

    log = inspect_eval(
        suite_task(suite, n=60), model="hat/reference", display="none", log_dir=str(tmp_path)
    )[0]
    assert log.status == "success"
    assert _digest(log.samples or []) == REFERENCE_SCORES[suite]
