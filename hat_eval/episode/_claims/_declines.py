"""Honest declines, judged against what the agent's tools actually returned.

When the tool that holds a fact gave nothing usable after the hooks' retries (a timeout or
server error that persisted, an empty or cut-off result, a call rejected for the agent's own
bad arguments), an answer that says it cannot confirm the fact right now and states no value for
it is what a careful host says: accuracy is what the answer says given what the agent saw, so
the fact counts as handled; that the agent did not call again is scored by recovery and tool
rationality, not accuracy. When the data did come back usable (a retry succeeded; the result
was readable despite renamed keys, junk around the JSON or a slow answer), declining is a
failure to answer.

The episode's call records (:class:`~hat_eval.episode.CallRecord`) hold each call's outcome and
the fault kinds met on the way, attempt by attempt, which is all this needs.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, Protocol

from hat_eval.world import Case, Fact

from ._subjects import source_call

DataState = Literal["usable", "unusable", "not_called"]

_UNUSABLE_FAULTS = frozenset({"timeout", "server_error", "empty", "partial"})
"""Injected faults that leave a result without its data: a raising fault, ``{}``, a cut-off or
thinned result. Malformed text (junk around readable JSON), drifted keys and a slow answer
still carry the data."""


class CallRecordLike(Protocol):
    """What the checks read of a call record (:class:`~hat_eval.episode.CallRecord`)."""

    function: str | None
    arguments: dict[str, Any]
    outcome: str
    attempts: int
    faults: list[str]


def data_state(
    case: Case,
    fact: Fact,
    records: Sequence[CallRecordLike],
    elsewhere: Callable[[str], bool] | None = None,
) -> DataState:
    """Whether the call that holds ``fact`` gave the agent its data this time.

    ``usable`` when some call of the fact's function ended with data on its last attempt (no
    fault, or one that leaves the data readable), or another call whose data came back usable
    also holds the fact (``elsewhere(function)``: the product details give the list price the
    failed price lookup would have); ``unusable`` when every such call ended in a fault that
    leaves none; ``not_called`` when the agent never called it (a decline is then the agent's
    own doing).
    """
    expected = source_call(case, fact)
    if expected is None:
        return "usable"  # a fact from the harness's rules needs no tool
    function = expected.function
    if elsewhere is not None:
        others = [r for r in records if r.function and r.function != function]
        if any(usable(r) and elsewhere(str(r.function)) for r in others):
            return "usable"
    # the call that looked up this fact's product, not another product's lookup of one function
    calls = [
        r for r in records if r.function == function and expected.matches(function, r.arguments)
    ]
    calls = calls or [r for r in records if r.function == function]
    if not calls:
        return "not_called"
    return "usable" if any(usable(r) for r in calls) else "unusable"


def usable(r: CallRecordLike) -> bool:
    """Whether a call's last attempt left the agent its data.

    A call rejected for the agent's own arguments (``input_error``, neither ok nor a fault) left
    it none: an honest decline after it says nothing false (accuracy passes); not calling again
    is a recovery and tool-use failure.
    """
    last = r.faults[-1] if r.faults and len(r.faults) >= r.attempts else None
    if last is None:
        return r.outcome == "ok"
    return (r.outcome == "ok" or r.outcome.startswith("fault:")) and last not in _UNUSABLE_FAULTS
