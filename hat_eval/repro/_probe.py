"""The teacher-forced probe: how well a trained model predicts the oracle's own transcripts.

A tiny model trained for minutes on a CPU writes no parsable tool call end to end, so every
suite part sits at its floor; read teacher-forced, the same model already shows what training
taught it. The probe feeds each test transcript (the oracle's episode on a ``livestream`` or
``variant`` test case, rendered with the chat template training used, so the tokens are the ones
training saw) through the model once and reads, per transcript:

- ``tool_name_accuracy``: of the tokens of each tool name the assistant calls, the share the
  model's argmax next-token prediction gets right (a token counts when its characters overlap the
  name's; the prediction for token ``t`` is the argmax of the logits at ``t - 1``, the lowest
  token id on ties, as ``torch.argmax``);
- ``skill_id_accuracy``: the same on the skill id of the answer's ``[skill: id]`` tag;
- ``assistant_loss``: the mean cross-entropy (nats) over the assistant tokens, the tokens the
  training loss covers (the template's ``{% generation %}`` span).

The two accuracies are split by what the harness did to the name: ``default`` (a ``livestream``
transcript, the default harness), ``variant-renamed`` (a ``variant`` transcript where the
variant renamed that tool or skill: its mapping's value differs from the default's name) and
``variant-kept`` (a ``variant`` transcript, the name as in the default harness); the loss is split
by harness (``default``, ``variant``). :func:`compare` pairs the two arms transcript by
transcript (HSA minus fixed) with :func:`hat_eval.stats.paired_bootstrap`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from ._budget import ReproError

if TYPE_CHECKING:
    from hat_eval.trainers import Trajectory

MEASURES: dict[str, str] = {
    "tool_name_accuracy": "argmax next-token accuracy on the tokens of each tool name the "
    "assistant calls",
    "skill_id_accuracy": "argmax next-token accuracy on the tokens of the answer's skill id",
    "assistant_loss": "mean cross-entropy (nats) over the assistant's tokens",
}
"""The probe's measures and what each is: the one list the results and the claims name."""

NAME_SPLITS: tuple[str, ...] = ("default", "variant-renamed", "variant-kept")
"""Splits of the two accuracies: the default harness; a variant, name renamed; name kept."""
LOSS_SPLITS: tuple[str, ...] = ("default", "variant")
"""Splits of the loss: by the harness the transcript runs under."""
CONTRAST = "hsa_sft-fixed_sft"
"""What every probe difference is: the HSA-SFT arm minus the fixed-harness arm."""
PROBE_SUITES: tuple[str, ...] = ("livestream", "variant")
"""The suites whose test transcripts the probe reads (the same cases, default and variant)."""


def measure_splits() -> list[tuple[str, str]]:
    """Every (measure, split) the probe reports, in table order."""
    out = [(m, s) for m in ("tool_name_accuracy", "skill_id_accuracy") for s in NAME_SPLITS]
    return out + [("assistant_loss", s) for s in LOSS_SPLITS]


class LogitsModel(Protocol):
    """What the probe reads: a causal LM called as ``model(input_ids=...)`` with ``.logits``."""

    def __call__(self, *, input_ids: Any) -> Any:
        """Logits of shape (1, tokens, vocabulary) as ``.logits`` of the returned object."""
        ...


@dataclass(frozen=True)
class NameTarget:
    """The tokens of one name in an assistant turn: a tool called, or the answer's skill id.

    Attributes:
        measure: ``tool_name_accuracy`` or ``skill_id_accuracy``.
        split: one of :data:`NAME_SPLITS`.
        name: the name as the transcript has it.
        positions: indices of the tokens whose characters overlap the name's.
    """

    measure: str
    split: str
    name: str
    positions: tuple[int, ...]


@dataclass(frozen=True)
class ProbeText:
    """One transcript as the model reads it.

    Attributes:
        transcript: the episode id (``livestream-test-000015``).
        harness: ``default`` or ``variant``: what the episode ran under.
        input_ids: the rendered transcript's tokens.
        assistant: indices of the assistant tokens (those the training loss covers).
        targets: the names whose tokens the accuracies read.
    """

    transcript: str
    harness: str
    input_ids: tuple[int, ...]
    assistant: tuple[int, ...]
    targets: tuple[NameTarget, ...]


@dataclass(frozen=True)
class Tally:
    """One measure of one split on one transcript: ``numerator / denominator``.

    Accuracies count correct tokens over tokens; the loss sums token losses over tokens.
    """

    measure: str
    split: str
    numerator: float
    denominator: int

    @property
    def value(self) -> float:
        """The measure on this transcript (NaN with no token)."""
        return self.numerator / self.denominator if self.denominator else math.nan


@dataclass(frozen=True)
class TranscriptScore:
    """What one model scored on one transcript, by (measure, split)."""

    transcript: str
    tallies: tuple[Tally, ...]

    def get(self, measure: str, split: str) -> Tally | None:
        """The tally of ``measure`` on ``split`` (None: the transcript has no such token)."""
        for t in self.tallies:
            if t.measure == measure and t.split == split and t.denominator:
                return t
        return None

    def to_dict(self) -> dict[str, Any]:
        """Plain data (a results file's per-transcript record)."""
        return {"transcript": self.transcript, "tallies": [asdict(t) for t in self.tallies]}


# -- transcripts and rendering ----------------------------------------------------------------


def probe_transcripts(
    n: int, *, suites: Sequence[str] = PROBE_SUITES, kb_seed: int = 0
) -> list[Trajectory]:
    """The oracle's transcripts of the first ``n`` test cases of each suite, in suite order.

    Each episode runs under its own harness (the default for ``livestream``, its held-out variant
    for ``variant``), through the trainers' own oracle run (:class:`~hat_eval.trainers.
    TrajectoryStream` with ``fixed_harness``: no further augmentation), so a transcript is what
    a training row would be for that case.
    """
    from hat_eval.suites import suite_episodes
    from hat_eval.trainers import TrajectoryStream

    out: list[Trajectory] = []
    for suite in suites:
        episodes = suite_episodes(suite, split="test", n=n, kb_seed=kb_seed)
        stream = TrajectoryStream(episodes, fixed_harness=True)
        drawn = {t.episode.id: t for t in (stream.trajectory(k) for k in range(len(episodes)))}
        out.extend(drawn[e.id] for e in episodes)  # draws come in a seeded order: restore it
    return out


def training_template(tokenizer: Any) -> str:
    """The chat template training renders with: the base's, or TRL's training twin of it.

    A template with ``{% generation %}`` markers is used as it is; otherwise TRL's own choice
    (``trl.chat_template_utils.get_training_chat_template``, what ``SFTTrainer`` swaps in).

    Raises:
        ReproError: the base's template has no markers and TRL knows no training twin of it.
    """
    from trl.chat_template_utils import get_training_chat_template, has_generation_markers

    template = tokenizer.chat_template
    if isinstance(template, str) and has_generation_markers(template):
        return template
    try:
        patched = get_training_chat_template(tokenizer)
    except ValueError:
        raise ReproError(
            "the base's chat template has no {% generation %} markers and TRL knows no training "
            "version of it, so the assistant tokens cannot be found: give a base with TRL's "
            "Qwen3 template (or one with generation markers)"
        ) from None
    if patched is None:
        return str(template)
    return str(patched)


def _assistant_regions(mask: Sequence[int]) -> list[tuple[int, int]]:
    """(first, last) token index of each run of assistant tokens, in order."""
    regions: list[tuple[int, int]] = []
    start: int | None = None
    for i, m in enumerate([*mask, 0]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            regions.append((start, i - 1))
            start = None
    return regions


def _overlapping(
    offsets: Sequence[tuple[int, int]], first: int, last: int, start: int, end: int
) -> tuple[int, ...]:
    """Indices in ``first..last`` of the tokens whose characters overlap ``[start, end)``."""
    return tuple(i for i in range(first, last + 1) if offsets[i][0] < end and offsets[i][1] > start)


def _name_split(variant: bool, renamed: bool) -> str:
    if not variant:
        return "default"
    return "variant-renamed" if renamed else "variant-kept"


def render(trajectory: Trajectory, tokenizer: Any, template: str) -> ProbeText:
    """``trajectory`` tokenized as training tokenized it, with its name and assistant tokens.

    The row is the trainers' own (:meth:`~hat_eval.trainers.Trajectory.row`), rendered with
    ``template`` (:func:`training_template`) and its assistant mask. Each assistant turn is one
    run of assistant tokens; in it, each tool call's name is found (JSON-quoted, in call order)
    and, in the answer, the skill id of its ``[skill: id]`` tag.

    Raises:
        ReproError: the rendering does not hold a name where the transcript has one, or has a
            different number of assistant turns (a template this probe cannot read).
    """
    from hat_eval.episode import episode_context, split_skill_tag

    row = trajectory.row()
    messages, tools = row["messages"], json.loads(row["tools"])
    text = tokenizer.apply_chat_template(
        messages, tools=tools, tokenize=False, chat_template=template
    )
    enc = tokenizer.apply_chat_template(
        messages,
        tools=tools,
        tokenize=True,
        return_dict=True,
        return_assistant_tokens_mask=True,
        chat_template=template,
    )
    ids = [int(i) for i in enc["input_ids"]]
    with_offsets = tokenizer(text, add_special_tokens=False, return_offsets_mapping=True)
    where = f"transcript {trajectory.episode.id}"
    if list(with_offsets["input_ids"]) != ids:
        raise ReproError(
            f"{where}: the tokenizer splits the rendered text differently when asked "
            "for offsets; the probe needs a fast tokenizer with offsets"
        )
    offsets = [(int(a), int(b)) for a, b in with_offsets["offset_mapping"]]
    mask = [int(m) for m in enc["assistant_masks"]]
    regions = _assistant_regions(mask)
    turns = [m for m in trajectory.messages if m.role == "assistant"]
    if len(regions) != len(turns):
        raise ReproError(
            f"{where}: {len(regions)} runs of assistant tokens for {len(turns)} assistant turns; "
            "the template's {% generation %} span must cover each turn once"
        )
    mapping = episode_context(trajectory.episode).mapping
    renamed_tools = {v for k, v in mapping.tools.items() if v != k}
    renamed_skills = {v for k, v in mapping.skills.items() if v is not None and v != k}
    variant = trajectory.episode.harness.seed is not None
    targets: list[NameTarget] = []
    for (first, last), turn in zip(regions, turns, strict=True):
        cursor, end_char = offsets[first][0], offsets[last][1]
        found: list[tuple[str, str, int]] = []  # (measure, name, char start)
        for call in turn.tool_calls:
            at = text.find(json.dumps(call.function, ensure_ascii=False), cursor, end_char)
            if at < 0:
                raise ReproError(f"{where}: tool name {call.function!r} not in its rendered turn")
            found.append(("tool_name_accuracy", call.function, at + 1))
            cursor = at + 1 + len(call.function)
        tag, _ = split_skill_tag(turn.content)
        if tag:
            at = text.find(tag, cursor, end_char)
            if at < 0:
                raise ReproError(f"{where}: skill id {tag!r} not in the rendered answer")
            found.append(("skill_id_accuracy", tag, at))
        for measure, name, start in found:
            renamed = name in (renamed_tools if measure == "tool_name_accuracy" else renamed_skills)
            positions = _overlapping(offsets, first, last, start, start + len(name))
            targets.append(NameTarget(measure, _name_split(variant, renamed), name, positions))
    return ProbeText(
        transcript=trajectory.episode.id,
        harness="variant" if variant else "default",
        input_ids=tuple(ids),
        assistant=tuple(i for i, m in enumerate(mask) if m),
        targets=tuple(targets),
    )


# -- scoring --------------------------------------------------------------------------------


def score_text(model: LogitsModel, text: ProbeText) -> TranscriptScore:
    """One forward pass of ``model`` over ``text``: its tallies by (measure, split).

    Token ``t`` (``t >= 1``) is predicted from the logits at ``t - 1``: correct when their
    argmax is ``input_ids[t]``; its loss is the cross-entropy of those logits at
    ``input_ids[t]``. A name's tokens add to its (measure, split) tally; the assistant tokens
    to ``assistant_loss`` of the transcript's harness. Token 0 predicts nothing and is skipped.
    """
    import torch

    ids = torch.tensor([text.input_ids], dtype=torch.long)
    with torch.inference_mode():
        logits = model(input_ids=ids).logits[0, :-1].float()
    nxt = ids[0, 1:]
    hit = (logits.argmax(dim=-1) == nxt).tolist()
    nll = torch.nn.functional.cross_entropy(logits, nxt, reduction="none").tolist()
    sums: dict[tuple[str, str], tuple[float, int]] = {}
    for target in text.targets:
        ps = [p for p in target.positions if p >= 1]
        num, den = sums.get((target.measure, target.split), (0.0, 0))
        sums[(target.measure, target.split)] = (num + sum(hit[p - 1] for p in ps), den + len(ps))
    ps = [p for p in text.assistant if p >= 1]
    sums[("assistant_loss", text.harness)] = (sum(nll[p - 1] for p in ps), len(ps))
    tallies = tuple(Tally(m, s, float(num), den) for (m, s), (num, den) in sums.items())
    return TranscriptScore(text.transcript, tallies)


def score_texts(
    model: LogitsModel,
    texts: Sequence[ProbeText],
    *,
    progress: Callable[[int, int], None] | None = None,
) -> list[TranscriptScore]:
    """:func:`score_text` on each text, in order; ``progress(done, total)`` after each."""
    out = []
    for i, text in enumerate(texts):
        out.append(score_text(model, text))
        if progress is not None:
            progress(i + 1, len(texts))
    return out


def load_model(checkpoint: str | Path) -> Any:
    """A checkpoint's causal LM in float32, in eval mode."""
    import torch
    from transformers import AutoModelForCausalLM

    model = AutoModelForCausalLM.from_pretrained(str(checkpoint), dtype=torch.float32)
    model.eval()
    return model


# -- the paired comparison ------------------------------------------------------------------


@dataclass(frozen=True)
class MeasureResult:
    """One measure on one split: both arms' means and the paired difference with its interval.

    Attributes:
        measure: a key of :data:`MEASURES`.
        split: one of :data:`NAME_SPLITS` or :data:`LOSS_SPLITS`.
        contrast: what the difference is (:data:`CONTRAST`: HSA-SFT minus fixed-harness SFT).
        n: transcripts with at least one token of this split (the pairs).
        tokens: tokens those transcripts hold for it.
        fixed: the fixed-harness arm's mean over the transcripts (seeds averaged first).
        hsa: the HSA arm's mean.
        diff: the mean paired difference, ``hsa - fixed``.
        low: lower end of its paired-bootstrap interval (NaN when ``n`` is 0).
        high: upper end.
        per_seed: the mean difference of each training seed's pair of models.
    """

    measure: str
    split: str
    contrast: str
    n: int
    tokens: int
    fixed: float
    hsa: float
    diff: float
    low: float
    high: float
    per_seed: tuple[float, ...] = ()

    unit = "transcripts"
    """What ``n`` counts (a verdict's reason names it)."""

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``results.json`` (NaN as null)."""
        out = asdict(self)
        for k, v in out.items():
            if isinstance(v, float) and math.isnan(v):
                out[k] = None
        out["per_seed"] = list(self.per_seed)
        out["description"] = MEASURES.get(self.measure, "")
        return out


def _values(scores: Sequence[TranscriptScore], measure: str, split: str) -> dict[str, Tally]:
    out = {}
    for s in scores:
        t = s.get(measure, split)
        if t is not None:
            out[s.transcript] = t
    return out


def compare(
    fixed: Sequence[Sequence[TranscriptScore]],
    hsa: Sequence[Sequence[TranscriptScore]],
    *,
    n_boot: int = 2000,
    seed: int = 0,
    confidence: float = 0.95,
) -> list[MeasureResult]:
    """Each (measure, split) of :func:`measure_splits`: HSA minus fixed, paired by transcript.

    ``fixed[k]`` and ``hsa[k]`` are the scores of seed ``k``'s two models on the same
    transcripts. A transcript's value is its tally's ratio (:attr:`Tally.value`), averaged over
    seeds; the pairs are the transcripts every model has a tally for, and the interval is
    :func:`hat_eval.stats.paired_bootstrap` over them (``n_boot`` resamples seeded with
    ``seed``). It resamples test transcripts, not training runs: the spread over training seeds
    is :attr:`MeasureResult.per_seed`. A split no transcript has gets ``n = 0`` and NaN.

    Raises:
        ReproError: the two arms have different numbers of seeds, or none.
    """
    from hat_eval.stats import paired_bootstrap

    if not fixed or len(fixed) != len(hsa):
        raise ReproError(
            f"compare needs one score list per seed for each arm, got {len(fixed)} fixed and "
            f"{len(hsa)} HSA"
        )
    results = []
    for measure, split in measure_splits():
        arms = [[_values(s, measure, split) for s in arm] for arm in (fixed, hsa)]
        common = set(arms[0][0])
        for values in arms[0] + arms[1]:
            common &= set(values)
        ids = sorted(common)
        if not ids:
            nan = math.nan
            results.append(MeasureResult(measure, split, CONTRAST, 0, 0, nan, nan, nan, nan, nan))
            continue
        f = [sum(s[i].value for s in arms[0]) / len(fixed) for i in ids]
        h = [sum(s[i].value for s in arms[1]) / len(hsa) for i in ids]
        diff, low, high = paired_bootstrap(h, f, n_boot=n_boot, seed=seed, confidence=confidence)
        seed_diffs = tuple(
            sum(hs[i].value - fs[i].value for i in ids) / len(ids)
            for fs, hs in zip(arms[0], arms[1], strict=True)
        )
        results.append(
            MeasureResult(
                measure=measure,
                split=split,
                contrast=CONTRAST,
                n=len(ids),
                tokens=sum(arms[0][0][i].denominator for i in ids),
                fixed=sum(f) / len(f),
                hsa=sum(h) / len(h),
                diff=diff,
                low=low,
                high=high,
                per_seed=seed_diffs,
            )
        )
    return results
