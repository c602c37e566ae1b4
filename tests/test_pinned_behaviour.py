"""Pins what the suites compute, so that moving code around cannot change it unnoticed.

The dataset hashes and the reference policy's per-sample scores were first recorded before the
per-case core moved into ``hat_eval.episode`` (the move left them unchanged). They changed
deliberately twice since: ``DATASET_VERSION`` 2 (issue 12: sound cases, paired suites,
claim-level checks) and 3 (issue 21: facts the viewer did not ask for are optional, the fee or
free shipping of a region that ships free over a threshold; every checkable claim verified,
declines judged against the tool records, an undecided part leaves the aggregate undecided),
4 (issue 22: the hook-rejection fault, the evolution suite) and 5 (issue 21, sixth round: the
delivery time is optional when the viewer asked only about the fee or returns; 13 of the 158
delivery-time facts of the livestream test split; the reference's pinned scores unchanged)
and 6 (issue 30: the hand-off's required call carries the ``reason`` the tool requires, marked
free, so a replay of the gold is a call the tool accepts; only escalation cases changed).
A change to them must be deliberate: bump ``DATASET_VERSION``, update the
hashes here and state the new ones in the README.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from hat_eval.episode import dataset_sha256
from hat_eval.suites._recipes import suite_rows

DATASETS = {  # suite/split/n (n: the suite's size when absent) -> sha256
    "livestream/test": "973a079a908b7acdd9d32ee5c1c7de5f7fcae80a883b681bd85ec70a81668367",
    "livestream/train/200": "7509994e096b3ea42c3427953785499442dfde908c17f9c0a2022c9d5e0d5afe",
    "livestream/dev/200": "99bdaf08566387d54d68c6e2033ef1a943e0c7288f22720374db13f6ba80c13c",
    "variant/test": "3e11b56859b961feafd1d8d035e2fe0e49eb688bdc3989a68714f7bac96efd7a",
    "variant/train/200": "50661f55ef68917983695aad235a4d1699f448f4d18b7e08ca13058c0063a992",
    "variant/dev/200": "70101f34588fdf8aaa88503f0e6e379a35a2e67fb4a458b4dbabe42f1c96f518",
    "robustness/test": "278451c1302eebc85b37b62e15044056f11062525af18c3187e91f9613eacfa4",
    "robustness/train/200": "8d57f6aacf9bf94d85e80b6ed93e4a995fef16f826085729a4094869126763f1",
    "robustness/dev/200": "7db3bd4d965c3632364668302130500a5f7403155e8fc299f1cc45dd327a8854",
    "evolution/test": "9580110ea69f676ef104d5cd260ad12e85387039da84d0d9da718e85a30152dd",
    "evolution/dev/50": "08a1a18bd8109d419d0f1d26ebd81141954551f1c7ae906d3b27f90fe6b008a2",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    # session 25 (issue 30): test-000059's "shipping fee ¥0." now states free shipping (accuracy
    # 0 -> 1 in both suites; before: livestream 3e15d680f8c4…, variant a671b0bf5ab2…)
    "livestream": "2883cb563324c403cf0e094160e0a45c0f38fc3046469b8d54124c76a663f99c",
    "variant": "e2d39de137c75f109396be0f1692df2f8d2565910a5ae337d04ad0c984c161e7",
    # issue 31: hook_recovered needs an answer that does its task; robustness-test-000050 and
    # -000073 passed the misfiring hook with a failed answer (recovery 0): 1.0 -> 0.0, nothing else
    # changed (before: c36f14cb774fa1ebef69a4dfed06177a41c4a9cfd447317cb1e3cba6b26fa6b2);
    # issue 30, evidence-based verdicts: test-000004 and test-000009 (see REFERENCE_MEANS)
    "robustness": "66adeec23ddc7849fbf2e78d70e894da0d2f0e36816b37f20c4a65bf76085164",
}

REFERENCE_MEANS = {  # the same 60 samples' part means (over decided samples), readable
    # dataset version 3 (issue 21). Before it (version 2): livestream aggregate 63.58, accuracy
    # 0.596; variant 56.21, 0.500; robustness 45.92, 0.373 (an undecided part then counted 0 in
    # the aggregate; chit-chat was never decided; declines after a fault always failed).
    # Dataset version 4 (issue 22): robustness cycles 8 faults, a hook's misfire among them, so
    # its first 60 cases changed (version 3: robustness 48.31, accuracy 0.407, tools 0.633).
    # Session 25 (issue 30): test-000059's "Delivery takes 2-4 days, shipping fee ¥0." states
    # free shipping, which was "not stated": livestream 62.7273 -> 64.0, accuracy 0.5636 ->
    # 0.5818; variant 54.6818 -> 55.9545, 0.4727 -> 0.4909.
    "livestream": {"aggregate": 64.0, "accuracy": 0.5818, "tools": 0.7458, "skill": 0.7833},
    "variant": {"aggregate": 55.9545, "accuracy": 0.4909, "tools": 0.6687, "skill": 0.7833},
    # Issue 30 (evidence-based verdicts): robustness 54.8305 -> 52.9167, accuracy 0.5085 ->
    # 0.4833: test-000004's answer about a basketball for a two-bottle comparison whose facts
    # are all optional now fails ("about something else") instead of passing on no evidence;
    # test-000009's answer gives the bottle's material only, and the romper's (asked, a brand
    # shared with the bottle no longer makes the bottle's clause the romper's) now fails "not
    # stated" instead of undecided.
    "robustness": {"aggregate": 52.9167, "accuracy": 0.4833, "tools": 0.6375, "skill": 0.7333},
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
