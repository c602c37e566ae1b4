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

from hat_eval.episode import dataset_sha256
from hat_eval.suites import suite_rows

DATASETS = {  # suite/split/n (n: the suite's size when absent) -> sha256
    "livestream/test": "0873441cd51e189aec538ea514f8c43285530574723fd1bbe4ded19132d8d3ef",
    "livestream/train/200": "d1a1060058ec624c367a08d68ddc1d99d67da1237207cdcee3fa7c1f32f21163",
    "livestream/dev/200": "7859f44ab5e296c67cb8e71ebf91a9bb972d659598e56d2f65867e048e889350",
    "variant/test": "8ff0f1b537065d17e437a8ae6743349b2b2443debc181dec3f07464df96ab71d",
    "variant/train/200": "fd31707c6cf008f5fb8ff603db2dd16a9e9b822e80c91cdfb4d08e1b2c90ea8b",
    "variant/dev/200": "afd6182790be9ddd0614678b91dbbe35b301e4a52bc5ab0fd5ea008d51dc0be9",
    "robustness/test": "d583544eaed380b49d4e6bb1e085a279af3081f107d6ee8af27f9c47e7e67b75",
    "robustness/train/200": "34a93da2777068bc68976e59635fe67a0cac47654142be1573809afda704f00f",
    "robustness/dev/200": "02885e644ef7dfbc371bf41931a7563244d4797050c25c26630c08c9de43b930",
    "evolution/test": "6e93e99def9065fef683640969886a2c03bbc85a61c63244a3a9518b6c321633",
    "evolution/dev/50": "9f587915f96bd7f1073278cac78860944e198b07df25d2b27844b4260d48ac12",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    "livestream": "3e15d680f8c4c7a6f7eb5b32c5f8624d75bc0845b719a99633e8cd1588198c35",
    "variant": "a671b0bf5ab27756bc24c6efdaea234e2eb9ca3f053ea51eebd996c924b5f06b",
    "robustness": "c36f14cb774fa1ebef69a4dfed06177a41c4a9cfd447317cb1e3cba6b26fa6b2",
}

REFERENCE_MEANS = {  # the same 60 samples' part means (over decided samples), readable
    # dataset version 3 (issue 21). Before it (version 2): livestream aggregate 63.58, accuracy
    # 0.596; variant 56.21, 0.500; robustness 45.92, 0.373 (an undecided part then counted 0 in
    # the aggregate; chit-chat was never decided; declines after a fault always failed).
    # Dataset version 4 (issue 22): robustness cycles 8 faults, a hook's misfire among them, so
    # its first 60 cases changed (version 3: robustness 48.31, accuracy 0.407, tools 0.633).
    "livestream": {"aggregate": 62.7273, "accuracy": 0.5636, "tools": 0.7458, "skill": 0.7833},
    "variant": {"aggregate": 54.6818, "accuracy": 0.4727, "tools": 0.6687, "skill": 0.7833},
    "robustness": {"aggregate": 54.8305, "accuracy": 0.5085, "tools": 0.6375, "skill": 0.7333},
}


@pytest.mark.parametrize("key", list(DATASETS))
def test_dataset_hash_is_pinned(key: str) -> None:
    suite, split, *n = key.split("/")
    rows = suite_rows(suite, split=split, n=int(n[0]) if n else None)
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
