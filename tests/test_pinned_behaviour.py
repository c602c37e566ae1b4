"""Pins what the suites compute, so that moving code around cannot change it unnoticed.

The dataset hashes and the reference policy's per-sample scores were first recorded before the
per-case core moved into ``hat_eval.episode`` (the move left them unchanged). They changed
deliberately twice since: ``DATASET_VERSION`` 2 (issue 12: sound cases, paired suites,
claim-level checks) and 3 (issue 21: facts the viewer did not ask for are optional, the fee or
free shipping of a region that ships free over a threshold; every checkable claim verified,
declines judged against the tool records, an undecided part leaves the aggregate undecided).
A change to them must be deliberate: bump ``DATASET_VERSION``, update the
hashes here and state the new ones in the README.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from hat_eval.episode import build_rows, dataset_sha256

DATASETS = {  # suite/split/n (n: the suite's size when absent) -> sha256
    "livestream/test": "8cddd8554c47b01954d43dee7c2e4bd1e213af8f4d71c30118fd12c89f0e9b7e",
    "livestream/train/200": "c5ac894855e16727b5ba2882ef60561389e8f8180745d006eaeba8dffd804706",
    "livestream/dev/200": "7859f44ab5e296c67cb8e71ebf91a9bb972d659598e56d2f65867e048e889350",
    "variant/test": "2afc4a9a8d3f04becd7cf34f1f17f12b8ed037fb54aa59f313cf56a13cf2c796",
    "variant/train/200": "3b66ef54c097f2c9422c67b5b30447d30b339f2562583de6da547e69d609ed47",
    "variant/dev/200": "afd6182790be9ddd0614678b91dbbe35b301e4a52bc5ab0fd5ea008d51dc0be9",
    "robustness/test": "c8e3b2b4d7f1920bedbd2d7246d0c999212264d36d58500d7550e8a1e2465823",
    "robustness/train/200": "cbad53e7b4f9ef7800bc04699595a91b036c538734139bd484b2b4c9b0690f85",
    "robustness/dev/200": "3d334259efce1300818ef8a7561be109730ca291c28d0342813e1caaa8f1c67d",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    "livestream": "aad58316d6d14a8771914e3286ff8bc6f33481c10856ff8128d8115156cf17ff",
    "variant": "f79dd54e5e082aeefbf57871d5c9c0f39c98487f254e0d9b19d23927770f4cad",
    "robustness": "87853d93b401b65b4874059b9ed85f9290e53dec9cd23fa7a672dfcb89ffd189",
}

REFERENCE_MEANS = {  # the same 60 samples' part means (over decided samples), readable
    # dataset version 3 (issue 21). Before it (version 2): livestream aggregate 63.58, accuracy
    # 0.596; variant 56.21, 0.500; robustness 45.92, 0.373 (an undecided part then counted 0 in
    # the aggregate; chit-chat was never decided; declines after a fault always failed).
    "livestream": {"aggregate": 64.0, "accuracy": 0.5818, "tools": 0.7458, "skill": 0.7833},
    "variant": {"aggregate": 55.9545, "accuracy": 0.4909, "tools": 0.6687, "skill": 0.7833},
    "robustness": {"aggregate": 48.3051, "accuracy": 0.4068, "tools": 0.6333, "skill": 0.7333},
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
    values = [next(iter(s.scores.values())).value for s in log.samples or []]
    for part, mean in REFERENCE_MEANS[suite].items():
        decided = [v[part] for v in values if not math.isnan(v[part])]
        assert sum(decided) / len(decided) == pytest.approx(mean, abs=5e-5), part
    assert _digest(log.samples or []) == REFERENCE_SCORES[suite]
