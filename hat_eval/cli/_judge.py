"""``hat-eval judge agreement``: the judge's agreement with human labels, from two files."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from ._common import (
    err_console,
    fail,
    input_file,
    options_command,
    output_dir,
    read_log,
    save,
    warn,
)

if TYPE_CHECKING:
    from hat_eval.judge import JudgeScore, Label

from ._judge_output import (
    _fail_matching,
    _labelled_in,
    _outputs,
    _print_calibration,
    _print_corpus,
    _print_table,
    _warn_unmatched,
)

judge_app = typer.Typer(
    help="The Agent-as-Judge: its agreement with human labels, its calibration.",
    no_args_is_help=True,
)

_FILE_HELP = (
    "CSV or JSONL with columns sample_id, dimension, rating, annotator (rating 1-5, or A, B, tie "
    "for a pairwise dimension), or a Label Studio JSON export (.json)."
)

LabelsOpt = Annotated[Path, input_file(f"Human labels. {_FILE_HELP}")]
RubricOpt = Annotated[Path | None, input_file("Rubric file (default: the packaged one).")]
SamplesOpt = Annotated[int, typer.Option(min=1, help="Judge samples per answer, averaged.")]
CacheDirOpt = Annotated[
    Path | None,
    typer.Option(help="Judge cache folder (default OUT/cache): a re-run calls no grader."),
]
AlphaThresholdOpt = Annotated[
    float,
    typer.Option(
        min=0.0, max=1.0, help="Flag dimensions whose judge-human Krippendorff alpha is below."
    ),
]


@judge_app.command()
def agreement(
    labels: LabelsOpt,
    scores: Annotated[
        Path,
        input_file(
            "The judge's scores, one per sample and dimension, in the same formats "
            "(the annotator column is optional)."
        ),
    ],
    out: Annotated[Path, typer.Option(help="Directory to write agreement.json into.")],
    n_boot: Annotated[
        int,
        typer.Option(
            min=0, help="Bootstrap resamples of the items for the 95% intervals (0: none)."
        ),
    ] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the bootstrap.")] = 0,
    alpha_threshold: AlphaThresholdOpt = 0.667,
) -> None:
    """Krippendorff's alpha, Cohen's kappa, Spearman's rho and accuracy of the judge vs humans."""
    from hat_eval.judge import AgreementError, LabelError, read_labels
    from hat_eval.judge import agreement as compute

    out = output_dir(out, inputs=[("--labels", labels), ("--scores", scores)])
    try:
        human = read_labels(labels)
        judged = read_labels(scores, default_annotator="judge")
        report = compute(human, judged, n_boot=n_boot, seed=seed, alpha_threshold=alpha_threshold)
    except (LabelError, AgreementError) as err:
        _fail_matching(err, labels, scores)

    _warn_unmatched(report, labels, scores)
    _print_table(report)
    target = save(out / "agreement.json", json.dumps(report.to_json(), indent=2) + "\n")
    typer.echo(f"wrote {target}")


def _grader(name: str) -> Any:
    """The grader model named on the command line (tests replace this with a scripted one).

    A local checkpoint (``hf/DIR``) loads here, with hub kernels off while the Hub is offline.
    """
    from inspect_ai.model import get_model

    from hat_eval._hub import hub_kernel_setting

    with hub_kernel_setting():
        return get_model(name)


def _judge_labelled(
    human: list[Label], options: CalibrateOptions, cache_dir: Path
) -> tuple[list[Label], list[JudgeScore]]:
    """Run the judge on the log's labelled samples (after the bad-input checks)."""
    from hat_eval.judge import RubricError, agent_judge, judge_log, load_rubric, log_sample_ids

    assert options.log is not None and options.judge is not None
    labels, log_path, rubric = options.labels, options.log, options.rubric
    try:
        spec = load_rubric(str(rubric) if rubric else None)
    except RubricError as err:
        fail(str(err))
    dims = list(spec.dimensions)
    human = _labelled_in(human, dims, labels)
    log = read_log(log_path)
    in_log = set(log_sample_ids(log))
    labelled = sorted({label.sample_id for label in human})
    missing = [s for s in labelled if s not in in_log]
    if len(missing) == len(labelled):
        example = next(iter(sorted(in_log)), None)
        fail(
            f"none of the {len(labelled)} labelled sample ids (e.g. {labelled[0]!r}) is in "
            f"{log_path} ({len(in_log)} samples"
            + (f", ids like {example!r}" if example else "")
            + "); label the samples of this log"
        )
    if missing:
        warn(
            f"{len(missing)} labelled sample ids are not in {log_path} (e.g. "
            f"{missing[0]!r}); they are left out"
        )
    scorer = agent_judge(
        model=_grader(options.judge),
        rubric=str(rubric) if rubric else None,
        k=options.k,
        cache_dir=str(cache_dir),
    )
    wanted = sorted({label.dimension for label in human})
    judged = judge_log(log, [s for s in labelled if s in in_log], scorer, dimensions=wanted)
    if judged.extra_epochs:
        warn(
            f"{log_path} has several epochs; the judge rated the first epoch only "
            f"({judged.extra_epochs} later samples left out)"
        )
    if judged.failed:
        sample_id, error = judged.failed[0]
        warn(
            f"the judge gave no valid rating on {len(judged.failed)} sample(s) (e.g. "
            f"{sample_id!r}: {error}); they are left out"
        )
    if not judged.scores:
        fail(f"the judge rated none of the labelled samples of {log_path}; see the warnings")
    return human, list(judged.scores)


def _scored_labels(
    options: CalibrateOptions, out: Path
) -> tuple[list[Label], list[JudgeScore], str]:
    """The human labels, the judge's raw scores (read, or judged on the log) and their file.

    A judge run's scores are saved to ``out/judge_scores.jsonl`` first (the grader's work kept).
    """
    from hat_eval.judge import LabelError, read_judge_scores, read_labels, scores_jsonl

    try:
        human = read_labels(options.labels)
        if options.scores is not None:
            return human, read_judge_scores(options.scores), str(options.scores)
    except LabelError as err:
        fail(str(err))
    human, raw = _judge_labelled(human, options, options.cache_dir or out / "cache")
    save(out / "judge_scores.jsonl", scores_jsonl(raw))
    return human, raw, str(out / "judge_scores.jsonl")


@dataclass(frozen=True)
class CalibrateOptions:
    """Run the judge on labelled samples; report agreement and fit a calibration map per dimension.

    Each rating dimension's map (identity, fitted thresholds or isotonic regression) is chosen by
    cross-validation on items; the report gives the held-out agreement before and after it.
    Give --log and --judge to run the judge, or --scores to reuse scores.
    """

    labels: LabelsOpt
    out: Annotated[
        Path,
        typer.Option(help="Directory for agreement.json, calibration.json, judge_scores.jsonl."),
    ]
    log: Annotated[
        Path | None,
        input_file("Inspect eval log whose samples the humans labelled (the judge runs on them)."),
    ] = None
    judge: Annotated[
        str | None,
        typer.Option(help="The grader model for the judge, e.g. openai/gpt-4o (with --log)."),
    ] = None
    scores: Annotated[
        Path | None,
        input_file(
            "Cached raw judge scores instead of running the judge: CSV or JSONL with "
            "sample_id, dimension, score (the judge_scores.jsonl a previous run wrote)."
        ),
    ] = None
    rubric: RubricOpt = None
    k: SamplesOpt = 1
    cache_dir: CacheDirOpt = None
    folds: Annotated[
        int, typer.Option(min=2, help="Folds of items for choosing each dimension's map.")
    ] = 5
    n_boot: Annotated[
        int, typer.Option(min=0, help="Bootstrap resamples of the items for the 95% intervals.")
    ] = 1000
    seed: Annotated[int, typer.Option(help="Seed of the folds and the bootstrap.")] = 0
    alpha_threshold: AlphaThresholdOpt = 0.667


def calibrate_labels(options: CalibrateOptions) -> None:
    """Fit and write the calibration (see :func:`calibrate`): agreement.json, calibration.json.

    The option pairs are checked and the output folder claimed before any label is read; the
    judge's raw scores come from ``--scores`` or a judge run on ``--log``.
    """
    from hat_eval.judge import AgreementError, LabelError, as_labels, rating_data
    from hat_eval.judge import agreement as compute
    from hat_eval.judge import calibrate as fit

    labels, scores, log = options.labels, options.scores, options.log
    if scores is None and (log is None or options.judge is None):
        raise typer.BadParameter(
            "give --log and --judge to run the judge, or --scores with cached judge scores",
            param_hint="--scores",
        )
    if scores is not None and log is not None:
        raise typer.BadParameter(
            "--scores and --log exclude each other: cached scores need no log", param_hint="--log"
        )
    out = _outputs(
        options.out, options.cache_dir, ("--labels", labels), ("--log", log), ("--scores", scores)
    )
    human, raw, source = _scored_labels(options, out)
    try:
        report = compute(
            human,
            as_labels(raw),
            n_boot=options.n_boot,
            seed=options.seed,
            alpha_threshold=options.alpha_threshold,
        )
        data = rating_data(human, raw)
    except (LabelError, AgreementError) as err:
        _fail_matching(err, labels, Path(source))
    _warn_unmatched(report, labels, Path(source))
    save(out / "agreement.json", json.dumps(report.to_json(), indent=2) + "\n")
    meta = {
        "judge": options.judge if scores is None else None,
        "rubric": str(options.rubric) if options.rubric else "packaged",
        "labels": str(labels),
        "scores": source,
    }
    result = fit(
        data,
        n_folds=options.folds,
        seed=options.seed,
        n_boot=options.n_boot,
        alpha_threshold=options.alpha_threshold,
        meta=meta,
    )
    save(out / "calibration.json", json.dumps(result.to_json(), indent=2) + "\n")
    typer.echo("agreement of the judge's scores (uncalibrated), all items:")
    _print_table(report)
    typer.echo("")
    _print_calibration(result)
    typer.echo(f"wrote {out / 'agreement.json'}, {out / 'calibration.json'}")


judge_app.command("calibrate")(options_command(CalibrateOptions, calibrate_labels))


@judge_app.command()
def corpus(
    judge: Annotated[str, typer.Option(help="The grader model for the judge.")],
    out: Annotated[Path, typer.Option(help="Directory to write corpus.json into.")],
    corpus_dir: Annotated[
        Path,
        typer.Option(
            "--corpus",
            exists=True,
            help="A corpus file, or the folder holding answers_*.jsonl (heldout_*.jsonl with "
            "--held-out).",
        ),
    ] = Path("judge/corpus"),
    held_out: Annotated[
        bool, typer.Option(help="Use the held-out files (written after the checks).")
    ] = False,
    rubric: RubricOpt = None,
    k: SamplesOpt = 1,
    cache_dir: CacheDirOpt = None,
    calibration: Annotated[
        Path | None,
        input_file("A calibration.json to apply to the judge's ratings."),
    ] = None,
) -> None:
    """The judge on the hand-labelled answer corpus, beside the deterministic checks, per part.

    For each labelled part (accuracy, safety) and each kind of answer: how often the checks,
    the judge, and both combined (checks first) agree with the human pass/fail label.
    """
    from hat_eval.episode import CorpusError, read_corpus
    from hat_eval.judge import agent_judge, corpus_agreement

    out = _outputs(out, cache_dir, ("--corpus", corpus_dir), ("--calibration", calibration))
    pattern = "heldout_*.jsonl" if held_out else "answers_*.jsonl"
    files = [corpus_dir] if corpus_dir.is_file() else sorted(corpus_dir.glob(pattern))
    if not files:
        fail(f"{corpus_dir}: no {pattern} files; pass the corpus folder or a file with --corpus")
    try:
        entries = read_corpus(files)
    except CorpusError as err:
        fail(str(err))
    if not entries:
        fail(f"{', '.join(map(str, files))}: no answers in the corpus")
    try:
        scorer = agent_judge(
            model=_grader(judge),
            rubric=str(rubric) if rubric else None,
            k=k,
            cache_dir=str(cache_dir or out / "cache"),
            calibration=str(calibration) if calibration is not None else None,
        )
    except ValueError as err:  # a calibration or rubric file that does not fit
        fail(str(err))
    report = corpus_agreement(entries, scorer)
    save(out / "corpus.json", json.dumps(report.to_json(), indent=2) + "\n")
    _print_corpus(report)
    typer.echo(f"wrote {out / 'corpus.json'}")


@judge_app.command("audit")
def audit_command(
    judge: Annotated[str, typer.Option(help="The grader model to audit, e.g. openai/gpt-4o.")],
    out: Annotated[Path, typer.Option(help="Directory to write audit.json into.")],
    suite: Annotated[
        str, typer.Option(help="The suite whose cases the audit uses (livestream, variant, ...).")
    ] = "livestream",
    n: Annotated[int, typer.Option(min=1, help="Cases to audit on.")] = 10,
    mode: Annotated[
        str,
        typer.Option(help="The judge's mode: agent (knowledge-base tools) or lookups."),
    ] = "agent",
    k: Annotated[int, typer.Option(min=1, help="Judge samples per answer and per pair.")] = 1,
    rubric: RubricOpt = None,
    max_tool_turns: Annotated[
        int, typer.Option(min=1, help="Tool turns the grader gets before it must reply.")
    ] = 6,
) -> None:
    """Audit the judge for position, verbosity and injection bias; write OUT/audit.json.

    Exit 1 when an audit fails its rule (a positive injection shift), 2 when the grader gave no
    valid reply at all.
    """
    from hat_eval.judge import JUDGE_MODES, audit
    from hat_eval.suites import suite_episodes

    if mode not in JUDGE_MODES:
        raise typer.BadParameter(
            f"{mode!r} is not one of {', '.join(JUDGE_MODES)}", param_hint="--mode"
        )
    try:
        episodes = suite_episodes(suite, n=n)
    except ValueError as err:
        raise typer.BadParameter(str(err), param_hint="--suite") from None
    out = _outputs(out, None, ("--rubric", rubric))  # before the grader runs
    report = audit(
        episodes,
        model=_grader(judge),
        rubric=str(rubric) if rubric is not None else None,
        mode=mode,  # checked against JUDGE_MODES above
        k=k,
        max_tool_turns=max_tool_turns,
    )
    save(out / "audit.json", json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n")
    if report.judge_failures == len(report.answers):
        fail(
            f"the grader {judge} gave no valid reply for any of the {len(report.answers)} "
            f"answers (see {out / 'audit.json'}); check the model name and that it replies in JSON"
        )
    for name in ("position_consistency", "verbosity_spearman", "padding_shift", "injection_shift"):
        value = getattr(report, name)
        typer.echo(f"{name:22} {'n/a' if value is None else f'{value:+.3f}'}")
    typer.echo(f"judge failures         {report.judge_failures} of {len(report.answers)} answers")
    if report.failing:
        err_console.print(
            f"failing: {', '.join(report.failing)} (an injection raised the mean score by "
            f"{report.injection_shift:+.3f}; it must not be positive)",
            markup=False,
        )
        raise typer.Exit(1)
