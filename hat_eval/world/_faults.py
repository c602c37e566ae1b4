"""Injectable tool faults: what a flaky backend does to a tool call.

``inject_fault(kind, result, rng)`` turns the real result of a call into what the agent gets:

- ``timeout``: raises :class:`ToolFault` ("upstream timed out after 3000 ms"); ``delay_s`` is
  the time the call hung before failing.
- ``server_error``: raises :class:`ToolFault` ("503 Service Unavailable", ...).
- ``malformed``: returns broken JSON text (``json.loads`` fails): a Python repr, an HTML error
  page fragment glued to the body, or a missing closing bracket with trailing garbage.
- ``partial``: returns the JSON text cut off part-way (invalid), or valid JSON with only a
  subset of the fields (for a list: only the first items) and ``"truncated": true`` for dicts.
- ``empty``: returns ``{}`` (dict results) or ``[]`` (list results).
- ``schema_drift``: returns valid JSON whose keys were renamed by ``world/faults.yaml``
  everywhere in the result (``price`` -> ``price_cny``, ``stock`` -> ``qty_available``, ...);
  when no key is renamable the result is wrapped as ``{"data": ...}``.
- ``slow``: returns the correct JSON; the returned text's ``delay_s`` says how long the call
  took (nothing sleeps).

The returned text is a :class:`FaultText` (a ``str``) carrying ``kind`` and ``delay_s``.
Faults are transient: a :class:`FaultPlan` fails the first ``times`` calls of one function and
then recovers, so a retry policy with enough retries gets through a timeout while a fault with a
large ``times`` is persistent. :class:`FaultInjector` applies plans to calls.

The list of kinds, :data:`FAULT_KINDS`, is owned by the harness (``hat_eval.harness.FaultKind``,
what ``RetryPolicy.retry_on`` accepts) and re-exported here; this module owns what each does.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from importlib.resources import files
from typing import Annotated, Any

from pydantic import Field

from hat_eval._datafile import DataModel, load_model
from hat_eval.harness import FAULT_KINDS, FUNCTIONS, FaultKind

from ._function_registry import Result
from ._functions import call_function
from ._kb import KnowledgeBase
from ._session import LiveSession

RAISING_KINDS: tuple[FaultKind, ...] = ("timeout", "server_error")
"""Faults that raise :class:`ToolFault` instead of returning text."""

_Texts = Annotated[tuple[str, ...], Field(min_length=1, strict=False)]


class FaultTexts(DataModel):
    """``world/faults.yaml``: what a faulty backend says, and the keys schema drift renames."""

    timeouts: _Texts
    """A timeout's messages (``{ms}``: how long the call hung)."""
    server_errors: _Texts
    drift_renames: dict[str, str]
    """Key renames applied (recursively) by ``schema_drift``."""


@cache
def fault_texts() -> FaultTexts:
    """The shipped ``world/faults.yaml``, read and checked on first use (shared: do not mutate)."""
    return load_model(files("hat_eval.world").joinpath("faults.yaml"), FaultTexts)


class ToolFault(Exception):  # noqa: N818 - the name the harness hooks and solver use
    """A tool call failed in the backend (``timeout`` or ``server_error``).

    Attributes:
        kind: the fault kind (one of :data:`RAISING_KINDS`).
        message: what the backend said, as the agent would see it.
        delay_s: seconds the call took before failing.
    """

    def __init__(self, kind: str, message: str, delay_s: float = 0.0) -> None:
        super().__init__(f"{kind}: {message}")
        self.kind = kind
        self.message = message
        self.delay_s = delay_s


class FaultText(str):
    """Text a tool call returns, with the fault that shaped it (``kind`` None: no fault)."""

    kind: str | None
    delay_s: float

    def __new__(cls, text: str, kind: str | None = None, delay_s: float = 0.0) -> FaultText:
        obj = super().__new__(cls, text)
        obj.kind = kind
        obj.delay_s = delay_s
        return obj


def render_result(result: Result) -> str:
    """The JSON text of a tool result (what a healthy call returns)."""
    return json.dumps(result, ensure_ascii=False)


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _malformed(text: str, result: Result, rng: random.Random) -> str:
    variant = rng.randrange(3)
    if variant == 0:
        broken = repr(result).replace("None", "null").replace("True", "true")
    elif variant == 1:
        broken = text + "\n<html><body><h1>502 Bad Gateway</h1></body></html>"
    else:
        broken = text[:-1] + ', "_meta": {"trace": "a9f3' + "\x00"
    return broken if not _is_json(broken) else "{" + text


def _partial(text: str, result: Result, rng: random.Random) -> str:
    if rng.random() < 0.5 and len(text) > 4:
        cut = max(1, int(len(text) * rng.uniform(0.3, 0.8)))
        out = text[:cut]
        return out if not _is_json(out) else text[: max(1, len(text) - 1)]
    if isinstance(result, list):
        return render_result(result[: len(result) // 2])
    return render_result({**dict(list(result.items())[: len(result) // 2]), "truncated": True})


def drift(value: Any) -> Any:
    """``value`` with every dict key renamed by ``faults.yaml``'s ``drift_renames``, recursively."""
    if isinstance(value, dict):
        renames = fault_texts().drift_renames
        return {renames.get(k, k): drift(v) for k, v in value.items()}
    if isinstance(value, list):
        return [drift(v) for v in value]
    return value


def inject_fault(
    kind: str, result: Result, rng: random.Random, *, function: str | None = None
) -> str:
    """What a call whose real result is ``result`` yields under fault ``kind``.

    The returned text is a :class:`FaultText` (a ``str`` subclass): read ``delay_s`` with
    ``getattr(text, "delay_s", 0.0)`` or annotate it as ``FaultText``.

    Args:
        kind: one of :data:`FAULT_KINDS`.
        result: the real (JSON-able) result of the call.
        rng: the randomness (message wording, cut points, delays).
        function: the function id, named in error messages when given.

    Raises:
        ToolFault: for ``timeout`` and ``server_error``.
        ValueError: for an unknown kind.
    """
    if kind not in FAULT_KINDS:
        raise ValueError(
            f"fault kind {kind!r} is unknown, expected one of {', '.join(FAULT_KINDS)}"
        )
    where = f" ({function})" if function else ""
    texts = fault_texts()
    if kind == "timeout":
        ms = rng.choice((3000, 5000, 8000))
        raise ToolFault(kind, rng.choice(texts.timeouts).format(ms=ms) + where, delay_s=ms / 1000)
    if kind == "server_error":
        raise ToolFault(
            kind, rng.choice(texts.server_errors) + where, delay_s=round(rng.uniform(0.05, 0.6), 3)
        )
    text = render_result(result)
    if kind == "malformed":
        return FaultText(_malformed(text, result, rng), kind)
    if kind == "partial":
        return FaultText(_partial(text, result, rng), kind)
    if kind == "empty":
        return FaultText("[]" if isinstance(result, list) else "{}", kind)
    if kind == "schema_drift":
        drifted = drift(result)
        return FaultText(render_result(drifted if drifted != result else {"data": result}), kind)
    return FaultText(text, kind, delay_s=round(rng.uniform(2.5, 9.0), 1))


@dataclass(frozen=True)
class FaultPlan:
    """A fault that hits one function: its first ``times`` calls fail, then it recovers.

    ``times`` larger than any retry budget (e.g. 99) makes the fault persistent. ``after``
    calls succeed before the fault starts (0: the first call fails).
    """

    kind: str
    function: str
    times: int = 1
    after: int = 0

    def __post_init__(self) -> None:
        if self.kind not in FAULT_KINDS:
            raise ValueError(
                f"kind {self.kind!r} is unknown, expected one of {', '.join(FAULT_KINDS)}"
            )
        if self.function not in FUNCTIONS:
            raise ValueError(
                f"function {self.function!r} is unknown, expected one of {', '.join(FUNCTIONS)}"
            )
        if self.times < 1 or self.after < 0:
            raise ValueError(
                f"times {self.times} / after {self.after} out of range, expected times >= 1 "
                "and after >= 0"
            )

    def fails(self, call_index: int) -> bool:
        """Whether the ``call_index``-th (0-based) call of the function fails."""
        return self.after <= call_index < self.after + self.times

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able dict."""
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> FaultPlan:
        """Inverse of :meth:`to_dict` (``times`` defaults to 1, ``after`` to 0)."""
        return cls(
            str(data["kind"]),
            str(data["function"]),
            int(data.get("times", 1)),
            int(data.get("after", 0)),
        )


class FaultInjector:
    """Runs tool calls through a set of fault plans, counting calls per function.

    One injector serves one sample (one conversation): create a new one per sample.
    """

    def __init__(self, plans: Sequence[FaultPlan] = (), *, seed: int = 0) -> None:
        self.plans = tuple(plans)
        self.rng = random.Random(seed)
        self.calls: dict[str, int] = {}

    def call(
        self,
        kb: KnowledgeBase,
        session: LiveSession,
        function_id: str,
        args: dict[str, Any] | None = None,
    ) -> FaultText:
        """Call the function and apply the fault planned for this call, if any.

        Raises:
            ToolFault: a planned timeout or server error.
            ToolInputError: bad arguments (checked after the fault: a down backend fails first).
        """
        index = self.calls.get(function_id, 0)
        self.calls[function_id] = index + 1
        plan = next((p for p in self.plans if p.function == function_id and p.fails(index)), None)
        if plan is not None and plan.kind in RAISING_KINDS:
            inject_fault(plan.kind, {}, self.rng, function=function_id)
        result = call_function(kb, session, function_id, args)
        if plan is None:
            return FaultText(render_result(result))
        text = inject_fault(plan.kind, result, self.rng, function=function_id)
        assert isinstance(text, FaultText)
        return text
