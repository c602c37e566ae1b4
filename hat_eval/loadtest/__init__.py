"""The Locust load harness for OpenAI-compatible deployments (``hat_eval.loadtest``).

Streamed chat completions built from the harness's rendered system prompt and tools, timed per
request the way ``vllm bench serve`` defines TTFT, E2E, TPOT and ITL; exact percentiles from the raw
samples beside Locust's bucketed ones; concurrency sweeps with an SLO verdict; MTP on/off decode
throughput with a paired bootstrap CI; whole episodes of the suites' agent loop under load
(``mode="episode"``). Every option is a field of :class:`ClientConfig`,
:class:`SweepConfig` or :class:`MtpConfig`. Importing this package loads only those (the rest on
first use) and never Locust: the Locust user lives in ``hat_eval.loadtest._user``, loaded by the
locustfile in a child process.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from hat_eval._lazy import lazy_getattr

from ._config import ClientConfig, MtpConfig, SweepConfig

if TYPE_CHECKING:
    from ._client import Endpoint, EndpointError, probe
    from ._episode import read_episode_records
    from ._prompts import Prompt, PromptSet, builtin_questions, prompts_for
    from ._runner import run_level, write_run_files
    from ._server import FakeChatServer, StreamPlan, episode_planner, episode_truths
    from ._summary import LevelSummary, SummaryError, level_latencies, read_summary
    from ._viewer_questions import (
        VIEWER_QUESTIONS,
    )

_LAZY = {
    **dict.fromkeys(("Endpoint", "EndpointError", "probe"), "._client"),
    **dict.fromkeys(
        ("FakeChatServer", "StreamPlan", "episode_planner", "episode_truths"), "._server"
    ),
    **dict.fromkeys(
        ("LevelSummary", "SummaryError", "level_latencies", "read_summary"), "._summary"
    ),
    **dict.fromkeys(("Prompt", "PromptSet", "builtin_questions", "prompts_for"), "._prompts"),
    **dict.fromkeys(("VIEWER_QUESTIONS",), "._viewer_questions"),
    **dict.fromkeys(("read_episode_records",), "._episode"),
    **dict.fromkeys(("run_level", "write_run_files"), "._runner"),
}

__getattr__ = lazy_getattr(__name__, _LAZY)

__all__ = [
    "ClientConfig",
    "Endpoint",
    "EndpointError",
    "FakeChatServer",
    "LevelSummary",
    "MtpConfig",
    "Prompt",
    "PromptSet",
    "StreamPlan",
    "SummaryError",
    "SweepConfig",
    "VIEWER_QUESTIONS",
    "builtin_questions",
    "episode_planner",
    "episode_truths",
    "level_latencies",
    "probe",
    "prompts_for",
    "read_episode_records",
    "read_summary",
    "run_level",
    "write_run_files",
]
