"""Pins what the suites compute, so that moving code around cannot change it unnoticed.

The dataset hashes and the reference policy's per-sample scores were first recorded before the
per-case core moved into ``hat_eval.episode`` (the move left them unchanged). They changed
deliberately twice since: ``DATASET_VERSION`` 2 (issue 12: sound cases, paired suites,
claim-level checks) and 3 (issue 21: facts the viewer did not ask for are optional, the fee or
free shipping of a region that ships free over a threshold; every checkable claim verified,
declines judged against the tool records, an undecided part leaves the aggregate undecided),
4 (issue 22: the hook-rejection fault, the evolution suite) and 5 (issue 21, sixth round: the
delivery time is optional when the viewer asked only about the fee or returns; 13 of the 158
delivery-time facts of the livestream test split; the reference's pinned scores unchanged).
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
    "livestream/test": "1a5e5218fe622cd71fc6fa5912d4f7f6d8c80834f2a933531c75213dee2da396",
    "livestream/train/200": "ed6776d7f431f6c3271cd27b622f34afaafe59d05acc1feffb9b9d88c22b02ee",
    "livestream/dev/200": "1a0e3e3e11e948f07b3e01a1d322804c2f833bc622ea5c3d4cab14fcbed70d30",
    "variant/test": "b7da8c17445a39f8d6222f91435a01f4e9f1579d2d4b4bf8a585ef1cb9ec0f2e",
    "variant/train/200": "c75f8ead677958bc5dedfe69641072ad94808f0cb781fb8d31b1fe6f001636b1",
    "variant/dev/200": "5beb867173da1978c6cd4ae7d4d20d563046e2fb1d0bb5b8e3658e6ecfb7c650",
    "robustness/test": "03f4b3890bf9212c56a82577c20986ab6ad0358f33cea8740bd4dfe412b66706",
    "robustness/train/200": "a66d25248f66271ab34bde2896aa793489c366bd9bb84e79275819dfe4f533d4",
    "robustness/dev/200": "8eb5c9af6c62832c42286f2ca10815423b7862079f7f3ed2d2f2d44312f341ec",
    "evolution/test": "afc5da74f848f0b47206f92959fe07d68c6812f7ee35d0ebb390bdb4fd736979",
    "evolution/dev/50": "9f587915f96bd7f1073278cac78860944e198b07df25d2b27844b4260d48ac12",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    "livestream": "3e15d680f8c4c7a6f7eb5b32c5f8624d75bc0845b719a99633e8cd1588198c35",
    "variant": "a671b0bf5ab27756bc24c6efdaea234e2eb9ca3f053ea51eebd996c924b5f06b",
    "robustness": "80b590afbe24f17c1fb4ecb3c300bad2a3e1d235db009d93c48b24fdf3a8e52d",
}

REFERENCE_MEANS = {  # the same 60 samples' part means (over decided samples), readable
    # dataset version 3 (issue 21). Before it (version 2): livestream aggregate 63.58, accuracy
    # 0.596; variant 56.21, 0.500; robustness 45.92, 0.373 (an undecided part then counted 0 in
    # the aggregate; chit-chat was never decided; declines after a fault always failed).
    # Dataset version 4 (issue 22): robustness cycles 8 faults, a hook's misfire among them, so
    # its first 60 cases changed (version 3: robustness 48.31, accuracy 0.407, tools 0.633).
    "livestream": {"aggregate": 62.7273, "accuracy": 0.5636, "tools": 0.7458, "skill": 0.7833},
    "variant": {"aggregate": 54.6818, "accuracy": 0.4727, "tools": 0.6687, "skill": 0.7833},
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
