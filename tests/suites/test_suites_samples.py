from __future__ import annotations

import pytest

from hat_eval.episode import Episode, episode_context
from hat_eval.episode._record import HarnessMismatchError
from hat_eval.suites import episode_of, suite_episodes, to_sample
from hat_eval.suites._samples import GOLD_FIELDS, sample_gold


def test_samples_carry_case_and_gold_as_target_and_the_rest_as_metadata() -> None:
    episode = suite_episodes("robustness", n=3)[0]
    row = episode.to_row()
    sample = to_sample(episode)
    assert not set(GOLD_FIELDS) & set(sample.metadata or {})
    assert sample.metadata["fault_plan"] == row["metadata"]["fault_plan"]  # type: ignore[index]
    assert sample_gold(str(sample.target)) == {k: row["metadata"][k] for k in GOLD_FIELDS}


def test_the_episode_comes_back_from_its_sample_whole() -> None:
    for suite in ("livestream", "variant", "robustness"):
        for episode in suite_episodes(suite, n=5):
            sample = to_sample(episode)
            back = episode_of(sample.id or "", sample.metadata or {}, str(sample.target))
            assert back == episode
            assert back.to_row() == episode.to_row()


def test_a_foreign_target_is_one_clear_error() -> None:
    with pytest.raises(ValueError, match="expected the JSON object with 'case' and 'gold'"):
        sample_gold("Paris")
    with pytest.raises(ValueError, match="metadata has no 'harness' reference"):
        episode_of("x", {}, "{}")


def test_a_sample_built_under_another_harness_file_is_an_error(tmp_path, default_harness) -> None:
    """The gold was computed for the harness the sample names; a changed file cannot run it."""
    from hat_eval.harness import dump_harness
    from hat_eval.harness._load import harness_to_dict, parse_harness

    path = tmp_path / "h.yaml"
    path.write_text(dump_harness(default_harness), encoding="utf-8")
    (episode,) = suite_episodes("variant", n=1, harness=str(path))
    episode_context(episode)  # the file as it was: fine
    d = harness_to_dict(default_harness)
    d["system_prompt"]["blocks"][0]["text"] += " Be brief."
    path.write_text(dump_harness(parse_harness(d)), encoding="utf-8")
    from hat_eval.episode import base_harness, harness_sha256

    base_harness.cache_clear()
    harness_sha256.cache_clear()
    with pytest.raises(HarnessMismatchError, match="changed since the dataset was made"):
        episode_context(episode)
    sample = to_sample(episode)
    assert isinstance(
        episode_of(sample.id or "", sample.metadata or {}, str(sample.target)), Episode
    )


def test_a_harness_without_a_tool_the_cases_call_is_one_clear_error(tmp_path, default_harness):
    from hat_eval.harness import dump_harness
    from hat_eval.harness._load import harness_to_dict, parse_harness
    from hat_eval.suites import suite_task

    d = harness_to_dict(default_harness)
    d["tools"] = [t for t in d["tools"] if t["function"] != "pricing.final_price"]
    path = tmp_path / "no_pricing.yaml"
    path.write_text(dump_harness(parse_harness(d)), encoding="utf-8")
    with pytest.raises(ValueError, match="no tool is bound to function 'pricing.final_price'"):
        suite_task("livestream", n=50, harness=str(path))
