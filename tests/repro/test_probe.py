"""The teacher-forced probe: hand-computed tallies, real renderings, a planted difference."""

from __future__ import annotations

import math
import random
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import torch

from hat_eval.repro._budget import ReproError
from hat_eval.repro._claims import MIN_PAIRS, SUPPORTED, judge_all
from hat_eval.repro._probe import (
    CONTRAST,
    NameTarget,
    ProbeText,
    Tally,
    TranscriptScore,
    compare,
    measure_splits,
    probe_transcripts,
    render,
    score_text,
    score_texts,
    training_template,
)


class TableModel:
    """Logits read from a table: row ``t`` is what the model says after token ``t``."""

    def __init__(self, rows: list[list[float]]) -> None:
        self.rows = torch.tensor(rows)

    def __call__(self, *, input_ids: Any) -> Any:
        return SimpleNamespace(logits=self.rows[None, : input_ids.shape[1]])


def test_token_accuracy_and_loss_against_a_hand_computed_example() -> None:
    # vocabulary {0, 1, 2, 3}; the transcript is tokens 0 1 2 3 1: a tool name at tokens 2-3
    # (renamed by a variant), a skill id at token 4, the assistant tokens 2, 3 and 4
    text = ProbeText(
        transcript="t",
        harness="variant",
        input_ids=(0, 1, 2, 3, 1),
        assistant=(2, 3, 4),
        targets=(
            NameTarget("tool_name_accuracy", "variant-renamed", "ab", (2, 3)),
            NameTarget("skill_id_accuracy", "variant-kept", "c", (4,)),
        ),
    )
    ln3 = math.log(3.0)
    model = TableModel(
        [
            [0.0, 0.0, 0.0, 0.0],  # after token 0: predicts token 1 (not a target)
            [0.0, 0.0, ln3, 0.0],  # after token 1: argmax 2 = token 2, right; p(2) = 3/6
            [ln3, 0.0, 0.0, 0.0],  # after token 2: argmax 0, token 3 is next: wrong; p = 1/6
            [0.0, ln3, 0.0, 0.0],  # after token 3: argmax 1 = token 4, right; p(1) = 3/6
            [0.0, 0.0, 0.0, 0.0],  # after the last token: predicts nothing
        ]
    )
    score = score_text(model, text)
    tool = score.get("tool_name_accuracy", "variant-renamed")
    skill = score.get("skill_id_accuracy", "variant-kept")
    loss = score.get("assistant_loss", "variant")
    assert tool == Tally("tool_name_accuracy", "variant-renamed", 1.0, 2)
    assert tool.value == 0.5
    assert skill is not None and skill.value == 1.0
    assert loss is not None and loss.denominator == 3
    assert loss.value == pytest.approx((math.log(2) + math.log(6) + math.log(2)) / 3)
    assert score.get("tool_name_accuracy", "default") is None  # no such token: no tally


def test_argmax_ties_go_to_the_lowest_token_id() -> None:
    text = ProbeText(
        "t", "default", (3, 0), (1,), (NameTarget("tool_name_accuracy", "default", "x", (1,)),)
    )
    flat = TableModel([[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]])
    tool = score_text(flat, text).get("tool_name_accuracy", "default")
    assert tool is not None and tool.value == 1.0  # all tied: argmax is 0, the next token
    loss = score_text(flat, text).get("assistant_loss", "default")
    assert loss is not None and loss.value == pytest.approx(math.log(4))


@pytest.fixture(scope="module")
def rendered(tiny_base: Path) -> tuple[Any, list[ProbeText]]:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_base))
    template = training_template(tokenizer)
    texts = [render(t, tokenizer, template) for t in probe_transcripts(100)]
    return tokenizer, texts


def test_rendering_finds_each_name_and_splits_it_by_what_the_variant_did(
    rendered: tuple[Any, list[ProbeText]],
) -> None:
    tokenizer, texts = rendered
    assert len(texts) == 200
    assert [t.transcript for t in texts[:2]] == ["livestream-test-000000", "livestream-test-000001"]
    for text in texts:
        for target in text.targets:
            decoded = tokenizer.decode([text.input_ids[p] for p in target.positions])
            assert target.name in decoded  # the name's tokens, and at most their edges
            assert len(decoded) < len(target.name) + 12
            assert set(target.positions) <= set(text.assistant)  # a name the model says
        splits = {t.split for t in text.targets}
        if text.transcript.startswith("livestream"):
            assert text.harness == "default" and splits <= {"default"}
        else:
            assert text.harness == "variant" and "default" not in splits
    # variant-test-000004 runs under a variant that renamed its skill, not the price tool
    four = next(t for t in texts if t.transcript == "variant-test-000004")
    by_measure = {t.measure: t for t in four.targets}
    assert by_measure["skill_id_accuracy"].split == "variant-renamed"
    assert by_measure["skill_id_accuracy"].name == "skill_price_promotion"
    assert by_measure["tool_name_accuracy"].split == "variant-kept"
    assert by_measure["tool_name_accuracy"].name == "calculate_final_price"
    renamed = [t for t in texts for g in t.targets if g.split == "variant-renamed"]
    assert len(renamed) > 20


def test_assistant_tokens_are_the_ones_training_trains(
    rendered: tuple[Any, list[ProbeText]],
) -> None:
    tokenizer, texts = rendered
    text = next(t for t in texts if t.transcript == "variant-test-000004")
    said = tokenizer.decode([text.input_ids[i] for i in text.assistant])
    assert '{"name": "calculate_final_price"' in said
    assert "[skill: skill_price_promotion]" in said
    assert "<|im_start|>" not in said and "<tool_response>" not in said


def test_a_template_without_generation_markers_or_twin_is_refused(tiny_base: Path) -> None:
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(tiny_base))
    tokenizer.chat_template = "{% for m in messages %}{{ m['content'] }}{% endfor %}"
    with pytest.raises(ReproError, match="no \\{% generation %\\} markers"):
        training_template(tokenizer)


class PlantedModel(torch.nn.Module):
    """Flat logits (argmax: token 0, never a name's), except on the tokens it was told.

    ``right[ids]`` holds the positions of one transcript whose token the model predicts
    correctly: it puts a large logit on the true next token there.
    """

    def __init__(self, right: dict[tuple[int, ...], set[int]], vocab: int) -> None:
        super().__init__()
        self.right = right
        self.vocab = vocab

    def forward(self, *, input_ids: torch.Tensor) -> Any:
        ids = input_ids[0]
        logits = torch.zeros(1, ids.shape[0], self.vocab)
        for p in self.right.get(tuple(ids.tolist()), ()):
            logits[0, p - 1, ids[p]] = 10.0
        return SimpleNamespace(logits=logits)


def _planted(
    texts: list[ProbeText], renamed_rate: float, renamed_seed: int
) -> dict[tuple[int, ...], set[int]]:
    """Where a planted model is right on tool-name tokens.

    Renamed names: each token with probability ``renamed_rate`` (draws seeded by
    ``renamed_seed``); every other name: each token with probability 0.5, from draws every
    model shares, so two planted models differ on renamed names only.
    """
    shared, own = random.Random(0), random.Random(renamed_seed)
    out: dict[tuple[int, ...], set[int]] = {}
    for text in texts:
        right = out.setdefault(text.input_ids, set())
        for target in text.targets:
            if target.measure != "tool_name_accuracy":
                continue
            renamed = target.split == "variant-renamed"
            for p in target.positions:
                if (own.random() < renamed_rate) if renamed else (shared.random() < 0.5):
                    right.add(p)
    return out


def test_a_planted_difference_shows_with_its_sign_and_an_interval_off_zero(
    rendered: tuple[Any, list[ProbeText]],
) -> None:
    tokenizer, rendered_texts = rendered
    vocab = len(tokenizer)
    renamed_tools = [
        t
        for t in rendered_texts
        if any(g.split == "variant-renamed" for g in t.targets if g.measure.startswith("tool"))
    ]
    texts = rendered_texts[:30] + rendered_texts[100:130]  # both harnesses
    texts += [t for t in renamed_tools if t not in texts]
    # the fixed model gets renamed tool-name tokens right 20% of the time, the HSA model 80%
    fixed = score_texts(PlantedModel(_planted(texts, 0.2, renamed_seed=1), vocab), texts)
    hsa = score_texts(PlantedModel(_planted(texts, 0.8, renamed_seed=2), vocab), texts)
    measures = {(m.measure, m.split): m for m in compare([fixed], [hsa], n_boot=500)}
    assert set(measures) == set(measure_splits())
    renamed = measures[("tool_name_accuracy", "variant-renamed")]
    assert renamed.contrast == CONTRAST
    assert renamed.n >= MIN_PAIRS
    assert 0.4 < renamed.diff < 0.8
    assert 0.0 < renamed.low <= renamed.diff <= renamed.high
    assert renamed.fixed < 0.4 < 0.6 < renamed.hsa
    for split in ("default", "variant-kept"):
        same = measures[("tool_name_accuracy", split)]
        assert same.n >= MIN_PAIRS
        assert same.diff == same.low == same.high == 0.0
    # right tool-name tokens lower the loss on the variant transcripts only
    assert measures[("assistant_loss", "variant")].high < 0.0
    assert measures[("assistant_loss", "default")].diff == 0.0
    verdicts = {v.claim.id: v.verdict for v in judge_all(list(measures.values()), budget="test")}
    assert verdicts["renamed-tools"] == SUPPORTED


def test_compare_pairs_transcripts_and_averages_seeds() -> None:
    def scores(values: list[float]) -> list[TranscriptScore]:
        return [
            TranscriptScore(f"t{i}", (Tally("tool_name_accuracy", "default", v, 1),))
            for i, v in enumerate(values)
        ]

    fixed = [scores([0.0, 1.0, 0.0]), scores([1.0, 1.0, 0.0])]
    hsa = [scores([1.0, 1.0, 1.0]), scores([1.0, 0.0, 1.0])]
    [m] = [x for x in compare(fixed, hsa, n_boot=100) if x.split == "default" and x.n]
    assert m.measure == "tool_name_accuracy"
    # per transcript, seeds averaged: fixed 0.5, 1, 0; hsa 1, 0.5, 1; differences .5, -.5, 1
    assert m.fixed == pytest.approx(0.5)
    assert m.hsa == pytest.approx(2.5 / 3)
    assert m.diff == pytest.approx(1.0 / 3)
    assert m.per_seed == pytest.approx((2.0 / 3, 0.0))  # seed 0: (1 + 0 + 1) / 3; seed 1: 0
    assert m.n == 3 and m.tokens == 3
    empty = [x for x in compare(fixed, hsa, n_boot=100) if x.n == 0]
    assert empty and all(math.isnan(x.low) for x in empty)
    with pytest.raises(ReproError, match="one score list per seed"):
        compare(fixed, hsa[:1])
