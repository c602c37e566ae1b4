"""``hat-eval score``: score answers produced outside Inspect with the suites' checks."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._common import err_console, fail, options_command, output_file, progress, save
from ._preflight import input_errors
from ._run import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_REQUEST_TIMEOUT_S,
    JudgeMaxTokensOption,
    MaxRetriesOption,
    RequestTimeoutOption,
)

if TYPE_CHECKING:
    from inspect_ai.model import Model

    from hat_eval.episode import Episode, ExternalAnswer


@dataclass(frozen=True)
class ScoreOptions:
    """Score answers made elsewhere (production transcripts, another framework).

    Each input line holds a case id (as `hat-eval suites cases NAME --jsonl` lists them), the
    answer, and the tool calls made: `name` (the tool under the case's harness) or `function`
    (a function id, or OpenAI's {"name", "arguments"} object), `arguments` (an object or its
    JSON text), and as a suite's log records them `outcome`, `faults`, `attempts`,
    `backoff_s`, `skill_type` and the `result` returned (compared with the world's, so a
    cut-off or drifted result counts as the fault it is). A bad line (a wrong type, an unknown
    or repeated case id) is one error line `FILE:LINE: field PATH: ...`, exit 2. Each output
    line holds the case id, the score parts under the suites' names (null where undecided or
    not applicable), recovery and the fault's outcome, the undecided parts and a reason per
    failed part; with --judge, the parts the judge decided and its rating of each.
    """

    suite: Annotated[str, typer.Option(help="The case suite the answers answer (livestream, ...).")]
    answers: Annotated[
        Path,
        typer.Option(
            help='JSONL, one {"id": case id, "answer": text, "tool_calls": [...]} a line; a '
            "call in the project's shape or OpenAI's, with its outcome, faults, attempts and "
            "result when known.",
        ),
    ]
    out: Annotated[
        Path,
        typer.Option(help="Where the scored lines go (JSONL, same order); not the answers file."),
    ]
    judge: Annotated[
        str | None,
        typer.Option(
            help="Grader model (checkpoint or Inspect model string) for the Agent-as-Judge: it "
            "decides the parts the checks leave undecided.",
        ),
    ] = None
    skip_bad: Annotated[
        bool,
        typer.Option(
            "--skip-bad",
            help="Report each bad line (one line on stderr) and score the rest; without it the "
            "first bad line stops the run before anything is written.",
        ),
    ] = False
    judge_max_tokens: JudgeMaxTokensOption = None
    request_timeout: RequestTimeoutOption = DEFAULT_REQUEST_TIMEOUT_S
    max_retries: MaxRetriesOption = DEFAULT_MAX_RETRIES
    shop: Annotated[
        Path | None,
        typer.Option(
            help="The shop folder the cases were drawn from (`hat-eval run --shop`); the "
            "built-in shop if omitted.",
        ),
    ] = None


def score_file(options: ScoreOptions) -> None:
    """Score the answers file, judge what the checks left undecided, write and print the result.

    Every option is checked, and the grader resolved, before any answer is read or scored; a
    bad input is one line and exit 2, a failed write exit 1.
    """
    from hat_eval._jsonl import jsonl_text

    target, shop_dir, grader = _checked(options)
    episodes, parsed, results, skipped = _scored(options, shop_dir)
    judged_line = judge_results(results, parsed, episodes, grader) if grader else None
    save(target, jsonl_text(results))
    typer.echo(f"wrote {options.out}")
    if judged_line is not None:
        typer.echo(judged_line)
    if skipped:
        typer.echo(f"skipped {len(skipped)} bad lines (listed above)")
    typer.echo(aggregate_line(results))


score = options_command(ScoreOptions, score_file)


def _checked(options: ScoreOptions) -> tuple[Path, str | None, Model | None]:
    """The output file, the shop folder and the grader, each checked before any answer is read."""
    from hat_eval.suites import case_suites

    if options.suite not in case_suites():
        raise typer.BadParameter(
            f"{options.suite!r} is not a case suite, expected one of {', '.join(case_suites())}",
            param_hint="--suite",
        )
    target = output_file(options.out, inputs=[("--answers", options.answers)])
    shop_dir = None
    if options.shop is not None:
        from hat_eval.runner import check_shop

        with input_errors():
            shop_dir = check_shop(options.shop, [options.suite])
    from hat_eval.runner._prepare import resolve_judge

    with input_errors():
        grader = resolve_judge(
            options.judge,
            request_timeout=options.request_timeout,
            max_retries=options.max_retries,
            max_tokens=options.judge_max_tokens,
        )
    return target, shop_dir, grader


def _scored(
    options: ScoreOptions, shop_dir: str | None
) -> tuple[dict[str, Episode], list[ExternalAnswer], list[dict[str, Any]], list[str]]:
    """The suite's episodes, the answers read, their scores and the bad lines skipped.

    Without ``--skip-bad`` the first bad line fails the command (one line, exit 2); with it,
    each bad line is reported on stderr and left out. No answer at all fails too.
    """
    from hat_eval.episode import AnswerFileError, read_answer_file, score_answers
    from hat_eval.suites import suite_episodes

    skipped: list[str] = []

    def report(err: AnswerFileError) -> None:
        skipped.append(str(err))
        err_console.print(f"skipped: {err}", markup=False)

    episodes = {e.id: e for e in suite_episodes(options.suite, shop=shop_dir)}
    on_bad = report if options.skip_bad else None
    try:
        parsed = read_answer_file(options.answers, case_ids=episodes, on_bad=on_bad)
        results = list(score_answers(parsed, episodes))
    except AnswerFileError as err:
        fail(str(err))
    if not results:
        what = f"all {len(skipped)} lines bad" if skipped else "no answers"
        fail(f"{options.answers}: {what}; expected one JSON object a line")
    return episodes, parsed, results, skipped


def aggregate_line(results: Sequence[Mapping[str, Any]]) -> str:
    """``aggregate X over N answers``: the mean over the answers whose aggregate is decided.

    Answers with an undecided part have no aggregate (null): they are left out of the mean, not
    counted as 0, and the line says how many.
    """
    decided = [float(r["aggregate"]) for r in results if r["aggregate"] is not None]
    left = len(results) - len(decided)
    note = f" ({left} undecided, left out)" if left else ""
    if not decided:
        return f"aggregate undecided for all {left} answers"
    return f"aggregate {math.fsum(decided) / len(decided):.2f} over {len(decided)} answers{note}"


def judge_results(
    results: list[dict[str, Any]],
    answers: Sequence[ExternalAnswer],
    episodes: Mapping[str, Episode],
    grader: Model,
) -> str:
    """Let the Agent-as-Judge decide the undecided parts of ``results``, in place.

    Each result with an undecided part the judge can decide (``PART_DIMENSIONS``) is judged
    (:func:`hat_eval.judge.answer_judge`, agent mode); each part it decides
    (:func:`~hat_eval.judge.decide_parts`) takes its value, the aggregate is recomputed
    (:func:`~hat_eval.judge.settle`), ``judged`` maps the part to the rating that decided it
    and ``judge_error`` says why the judge could not rate. Returns the line that says what
    it decided.
    """
    from hat_eval._aio import run_blocking
    from hat_eval.episode import (
        PARTS,
        answer_records,  # the records score_answers checked
    )
    from hat_eval.judge import PART_DIMENSIONS, Judgement, answer_judge, decide_parts, settle

    asked = [i for i, r in enumerate(results) if any(p in PART_DIMENSIONS for p in r["undecided"])]
    run = answer_judge(model=grader)

    async def judge_all() -> list[Judgement]:
        import asyncio

        from rich.progress import TaskID

        with progress("judging undecided answers", len(asked)) as bar:

            async def one(i: int) -> Judgement:
                episode = episodes[answers[i].id]
                records = answer_records(episode, answers[i].tool_calls)
                judgement = await run(episode, answers[i].answer, records)
                bar.advance(TaskID(0))
                return judgement

            return list(await asyncio.gather(*(one(i) for i in asked)))

    judgements = run_blocking(judge_all()) if asked else []
    askable = sum(p in PART_DIMENSIONS for i in asked for p in results[i]["undecided"])
    decided_parts = failed = 0
    for i, judgement in zip(asked, judgements, strict=True):
        r = results[i]
        undecided = {p: str(r["reasons"].get(p, "")) for p in r["undecided"]}
        decided = decide_parts(undecided, judgement.means)
        keys = (*PARTS, "aggregate")
        values = {k: math.nan if r.get(k) is None else float(r[k]) for k in keys}
        settled = settle(values, undecided, decided)
        for key in keys:
            r[key] = None if math.isnan(settled[key]) else settled[key]
        r["undecided"] = [p for p in r["undecided"] if p not in decided]
        for part, value in decided.items():
            dim = PART_DIMENSIONS[part]
            r["reasons"].pop(part, None)
            if value < 1.0:
                r["reasons"][part] = f"the judge rated {dim} {judgement.means[dim]:.2f}"
        r["judged"] = {p: judgement.means[PART_DIMENSIONS[p]] for p in decided}
        if judgement.error is not None:
            r["judge_error"] = judgement.error
            failed += 1
        decided_parts += len(decided)
    could_not = f"; it could not rate {failed} answers" if failed else ""
    return (
        f"judge {grader}: decided {decided_parts} of {askable} undecided parts "
        f"({len(asked)} answers judged{could_not})"
    )
