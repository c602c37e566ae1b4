"""Pins what the suites compute, so that moving code around cannot change it unnoticed.

The dataset hashes and the reference policy's per-sample scores were recorded before the
per-case core moved into ``hat_eval.episode``. A change to them must be deliberate: bump
``DATASET_VERSION``, update the hashes here and state the new ones in the README.
"""

from __future__ import annotations

import hashlib
import json
import math

import pytest

from hat_eval.episode import build_rows, dataset_sha256

DATASETS = {  # noqa: E501 (one hash a line)
    (
        "livestream",
        "test",
        None,
    ): "db6fc4ad3e34a39ad25d348ec519538d016435b1da453bf73551b933307b3861",
    (
        "livestream",
        "train",
        200,
    ): "d50181d2997e10dc45e61dae9657edd6723026d4c193d828468e198a6792ec21",
    ("livestream", "dev", 200): "90090128b5f5053937adaf3448394bfe6761aece5d34a2babcee886026318254",
    ("variant", "test", None): "8a282df3ec59fa04344154f906c9f5cddf6d5e6e290f7033fb30a56b6a1b6849",
    ("variant", "train", 200): "1d9d948e9b38156d0c8221af24b6adb81f9f401031641567a0f93df00831648c",
    ("variant", "dev", 200): "5d4a16715c33a42b8dc64682b1c21eca0f488dae1e7f54c9e4cc3a3bab47ad0c",
    (
        "robustness",
        "test",
        None,
    ): "50fcd5c0c615e4c8a2abdc5fb11d873a4914983c1e5ff1755fad652d5b2eea74",
    (
        "robustness",
        "train",
        200,
    ): "19d6d527592ec12b637b6b951ff665d39ac7e142232f408dfe0b2f0249898f04",
    ("robustness", "dev", 200): "e19eea07afb8a6d03b144118ba075b05a902cb6423103976ed46f6f651cd2969",
}

REFERENCE_SCORES = {  # sha256 of the reference policy's score dicts on the first 60 test cases
    "livestream": "b76d9bcd49d98ae158f9ec9371dac84c3cbc7dc1a0f5a42bea940f5cb6cd984b",
    "variant": "c1e503651a20c35450071a2945c561ee49e0c36b001416496272f4c7c6afabca",
    "robustness": "e2e363eece1b4444ece84015f32d54e69f2cce427c6d23c01554e28c667940be",
}


@pytest.mark.parametrize(("suite", "split", "n"), list(DATASETS))
def test_dataset_hash_is_pinned(suite: str, split: str, n: int | None) -> None:
    assert dataset_sha256(build_rows(suite, split=split, n=n)) == DATASETS[(suite, split, n)]


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
