"""What one run of the suites is asked to do: :class:`RunOptions`, checked when it is made."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from hat_eval._device import LOCAL_CPU_CONNECTIONS, LOCAL_GPU_CONNECTIONS, SERVER_CONNECTIONS

if TYPE_CHECKING:
    from hat_eval.world import Problem

PROBE_TIMEOUT_S = 15.0
"""Seconds the pre-flight waits at most to connect, and then for the response headers (a
shorter ``request_timeout`` shortens it)."""
DEFAULT_REQUEST_TIMEOUT_S = 300
"""Seconds one request to a model server may take (each try) unless ``request_timeout``."""
DEFAULT_MAX_RETRIES = 2
"""Retries of a failed request to a model server unless ``max_retries``."""
ENGINES = ("hf", "vllm")
"""What runs a checkpoint folder."""
DISPLAYS = ("auto", "plain", "rich", "none")
"""Inspect's displays a run can ask for (``auto``: ``rich`` on a terminal, else ``plain``)."""


class RunOptionError(ValueError):
    """One option of a run is wrong: the value, the rule and the fix, in one line.

    ``option`` is the :class:`RunOptions` field it is about (``hat-eval run`` names the flag).
    """

    def __init__(self, message: str, option: str) -> None:
        super().__init__(message)
        self.option = option


class RunInputError(ValueError):
    """An input of a run that cannot be read or used (a file, the model, a server).

    One line with the value, the rule and the fix; nothing has run (``hat-eval run`` exits 2).
    """


class InputFileError(RunInputError):
    """A file a run reads (``shop``, ``cases``) that does not read, or cannot be run.

    ``str()`` is the one line ``hat-eval run`` prints; :attr:`problems` has every problem found
    as a typed :class:`~hat_eval.world.Problem`, and :attr:`file`, :attr:`line`,
    :attr:`record`, :attr:`field`, :attr:`what` and :attr:`expected` are the first one's.

    Attributes:
        option: The :class:`RunOptions` field whose file it is (``shop`` or ``cases``).
        problems: Every problem found, the first the one the message names.
    """

    def __init__(self, message: str, option: str, problems: Sequence[Problem]) -> None:
        super().__init__(message)
        self.option = option
        self.problems = tuple(problems)
        self.problem = first = self.problems[0]
        """The first problem (the one the message names)."""
        self.file, self.line, self.record = first.file, first.line, first.record
        self.field, self.what, self.expected = first.field, first.what, first.expected


_LEAST = {
    **dict.fromkeys(("limit", "max_connections", "max_tokens", "judge_max_tokens", "epochs"), 1),
    "request_timeout": 1,
    "max_retries": 0,
    "temperature": 0,
}
"""The numeric fields' least value (None, where a field may be None, is always allowed)."""


def _help(text: str) -> dict[str, str]:
    return {"help": text}


@dataclass(frozen=True)
class RunOptions:
    """Everything ``hat-eval run`` is asked (one owner: the command's help is read from here).

    Checked when made: a field that cannot run raises :class:`RunOptionError` naming it. What
    needs a file, the machine or a server read (the harness, the model, the changelog) is
    checked by :func:`~hat_eval.runner.run_suites` before anything runs.
    """

    suites: tuple[str, ...] = field(
        default=("variant",), metadata=_help("The suites to run (see `hat-eval suites`).")
    )
    model: str | None = field(
        default=None,
        metadata=_help(
            "Checkpoint directory or Inspect model string (openai-api/..., vllm/..., "
            "hf/...). Default: the embedded reference policy (scripted, offline)."
        ),
    )
    models: tuple[str, ...] = field(
        default=(),
        metadata=_help(
            "Several models (each as --model) run side by side in one eval set instead of "
            "--model: every model's tasks at once, each model loaded once, every log in "
            "--log-dir (one provider for all)."
        ),
    )
    limit: int | None = field(default=None, metadata=_help("Cases per suite."))
    limit_per_suite: Mapping[str, int] = field(
        default_factory=dict,
        metadata=_help("Cases of the suites named (suite -> cases), instead of --limit."),
    )
    harness: Path | None = field(default=None, metadata=_help("Harness file to run under."))
    seed: int | None = field(
        default=None,
        metadata=_help("Case seed (the suite's fixed seed if omitted); also the generation seed."),
    )
    log_dir: Path = field(
        default=Path("logs"),
        metadata=_help(
            "Where the .eval logs go: one folder per run (the same command resumes it; a "
            "log that cannot be read is renamed NAME.unreadable first)."
        ),
    )
    max_connections: int | None = field(
        default=None,
        metadata=_help(
            f"Concurrent model calls. Default: {LOCAL_CPU_CONNECTIONS} for a checkpoint on "
            f"the CPU (concurrent requests are padded into one batch), {LOCAL_GPU_CONNECTIONS} "
            f"on a GPU, {SERVER_CONNECTIONS} for a server."
        ),
    )
    engine: str = field(default="hf", metadata=_help("hf or vllm, for a checkpoint directory."))
    agent: str = field(
        default="harness", metadata=_help("harness (harness-driven agent) or react.")
    )
    ifeval_data: Path | None = field(
        default=None, metadata=_help("IFEval input_data.jsonl (offline runs need it).")
    )
    max_tokens: int | None = field(
        default=None,
        metadata=_help(
            "Most tokens per model turn. Default: for the case suites a cap derived from the "
            "harness's answer limit (its most words, 2 tokens a word, 64 more); for IFEval the "
            "model's."
        ),
    )
    max_tokens_per_suite: Mapping[str, int] = field(
        default_factory=dict,
        metadata=_help(
            "Most tokens per model turn in the suites named (suite -> tokens), instead of "
            "--max-tokens."
        ),
    )
    request_timeout: int = field(
        default=DEFAULT_REQUEST_TIMEOUT_S,
        metadata=_help(
            "Seconds a model server has to answer one request (each try; the pre-flight "
            f"waits at most {PROBE_TIMEOUT_S:g} s). A request past it is retried --max-retries "
            "times with a line saying so, then its sample fails with the error named."
        ),
    )
    max_retries: int = field(
        default=DEFAULT_MAX_RETRIES,
        metadata=_help(
            "Retries of a failed or timed-out request to a model server (Inspect's own "
            "default is to retry without end)."
        ),
    )
    temperature: float | None = field(
        default=None,
        metadata=_help(
            "Sampling temperature (the suite's default if omitted; IFEval's is 0). "
            "hf/ checkpoints decode greedily unless it is above 0."
        ),
    )
    model_args: Mapping[str, Any] = field(
        default_factory=dict,
        metadata=_help(
            "key=value passed to the model provider, as `inspect eval -M` "
            "(repeatable; e.g. -M do_sample=true)."
        ),
    )
    judge: str | None = field(
        default=None,
        metadata=_help(
            "Grader model (checkpoint or Inspect model string) for the Agent-as-Judge: it "
            "decides the parts the checks leave undecided (the grader model role)."
        ),
    )
    judge_max_tokens: int | None = field(
        default=None,
        metadata=_help(
            "Most tokens per grader turn. Default: what the judge's reply format needs "
            "(a share per rubric dimension and per claim)."
        ),
    )
    disclosure: str | None = field(
        default=None,
        metadata=_help(
            "inline or progressive skills for the case suites: the default harness of that "
            "form (inline if omitted); with --harness, that file's own skill_disclosure."
        ),
    )
    harness_version: str | None = field(
        default=None,
        metadata=_help(
            "The evolution suite's harness version to run: vK, or a range vA..vB "
            "(all versions of the changelog if omitted)."
        ),
    )
    changelog: Path | None = field(
        default=None,
        metadata=_help(
            "A harness changelog for the evolution suite to run (its own if omitted); "
            "see `hat-eval harness log`."
        ),
    )
    epochs: int = field(
        default=1,
        metadata=_help(
            "Trials per case (Inspect's epochs; each kept in the log): `hat-eval report` "
            "shows pass^k and the cases whose verdict flips between trials."
        ),
    )
    no_hub_kernels: bool = field(
        default=False,
        metadata=_help(
            "Load checkpoints without transformers' kernels from the Hugging Face Hub "
            "(always so while the Hub is offline, HF_HUB_OFFLINE=1, unless USE_HUB_KERNELS=YES)."
        ),
    )
    shop: Path | None = field(
        default=None,
        metadata=_help(
            "A shop folder (data pack, see `hat-eval shop`): the case suites draw their cases "
            "from it, and the tools, checks and judge read it; the cases go to LOG_DIR/cases/."
        ),
    )
    cases: Path | None = field(
        default=None,
        metadata=_help(
            "A cases file: the team's viewer messages with their gold, one case a line (the "
            "case schema, docs/shop.md), run instead of generated cases (about --shop's products)."
        ),
    )
    display: str = field(
        default="auto",
        metadata=_help(
            "Inspect's display: auto (rich on a terminal, plain lines otherwise), plain, rich "
            "or none."
        ),
    )
    output_log: Path | None = field(
        default=None,
        metadata=_help(
            "A file that Inspect's output (and whatever else prints while the suites run) is "
            "appended to instead of the terminal; the display is then plain."
        ),
    )

    def __post_init__(self) -> None:
        from hat_eval.suites import AGENTS, IFEVAL, check_suite, suite_names

        if isinstance(self.suites, str):  # one suite name given as a string
            object.__setattr__(self, "suites", (self.suites,))
        if not self.suites:
            raise RunOptionError(
                f"suites=(): no suite to run, expected one of {', '.join(suite_names())}",
                "suites",
            )
        for name in self.suites:
            try:
                check_suite(name)
            except ValueError as err:
                raise RunOptionError(str(err), "suites") from None
        self._check_models()
        for name in ("limit_per_suite", "max_tokens_per_suite"):
            self._check_per_suite(name)
        for name, least in _LEAST.items():
            value = getattr(self, name)
            if value is not None and value < least:
                unit = " second" if name == "request_timeout" else ""
                raise RunOptionError(f"{name}={value}: expected {least}{unit} or more", name)
        if self.agent not in AGENTS:
            raise RunOptionError(
                f"{self.agent!r} is not an agent, expected one of {', '.join(AGENTS)}", "agent"
            )
        if self.engine not in ENGINES:
            raise RunOptionError(
                f"{self.engine!r} is not an engine, expected {' or '.join(ENGINES)}", "engine"
            )
        if self.display not in DISPLAYS:
            raise RunOptionError(
                f"display={self.display!r}: not a display, expected one of {', '.join(DISPLAYS)}",
                "display",
            )
        if self.output_log is not None and self.display == "rich":
            raise RunOptionError(
                f"display='rich' with output_log={self.output_log}: the rich display draws on a "
                "terminal, not a file; leave display as auto (or plain) to write plain lines "
                "to output_log",
                "display",
            )
        others = ", ".join(n for n in suite_names() if n != IFEVAL)
        if self.judge is not None and list(self.suites) == [IFEVAL]:
            raise RunOptionError(
                "ifeval has no undecided parts to judge; --judge applies to the case suites "
                f"({others})",
                "judge",
            )

    def _check_models(self) -> None:
        """``models``: a tuple of distinct names, not given with ``model``."""
        if isinstance(self.models, str):  # one model name given as a string
            object.__setattr__(self, "models", (self.models,))
        else:
            object.__setattr__(self, "models", tuple(self.models))
        if self.models and self.model is not None:
            raise RunOptionError(
                f"model={self.model!r} and models={self.models!r}: give one model as model or "
                "several as models, not both",
                "models",
            )
        for i, name in enumerate(self.models):
            if not isinstance(name, str) or not name.strip():
                raise RunOptionError(
                    f"models[{i}]={name!r}: expected a checkpoint directory or an Inspect model "
                    "string",
                    "models",
                )
            if name in self.models[:i]:
                raise RunOptionError(
                    f"models[{i}]={name!r}: given twice, expected each model once (a model "
                    "runs once per run; use epochs for more trials)",
                    "models",
                )

    def _check_per_suite(self, name: str) -> None:
        """A per-suite mapping names suites this run runs, each with a value of 1 or more."""
        from hat_eval.suites import suite_names

        mapping = getattr(self, name)
        if not isinstance(mapping, Mapping):
            raise RunOptionError(
                f"{name}={mapping!r}: expected a mapping of suite name to a number "
                f"(e.g. {{{self.suites[0]!r}: 10}})",
                name,
            )
        for suite, value in mapping.items():
            if suite not in suite_names():
                raise RunOptionError(
                    f"{name}[{suite!r}]: not a suite, expected one of {', '.join(suite_names())}",
                    name,
                )
            if suite not in self.suites:
                raise RunOptionError(
                    f"{name}[{suite!r}]: {suite} is not run (suites: {', '.join(self.suites)}); "
                    f"add it to suites or leave it out of {name}",
                    name,
                )
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise RunOptionError(
                    f"{name}[{suite!r}]={value!r}: expected a whole number, 1 or more", name
                )
        object.__setattr__(self, name, dict(mapping))

    @property
    def all_models(self) -> tuple[str | None, ...]:
        """The models this run runs: ``models``, or ``(model,)`` (None: the reference policy)."""
        return self.models or (self.model,)

    def suite_limit(self, suite: str) -> int | None:
        """Cases ``suite`` runs: its ``limit_per_suite`` entry, else ``limit`` (None: all)."""
        return self.limit_per_suite.get(suite, self.limit)

    def suite_max_tokens(self, suite: str) -> int | None:
        """Most tokens per turn in ``suite``: ``max_tokens_per_suite``, else ``max_tokens``."""
        return self.max_tokens_per_suite.get(suite, self.max_tokens)


def option_help(name: str) -> str:
    """The help text of the :class:`RunOptions` field ``name`` (``hat-eval run`` shows it)."""
    return str(RunOptions.__dataclass_fields__[name].metadata["help"])  # KeyError: no such field
