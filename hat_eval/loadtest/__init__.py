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

from ._config import (
    API_KEY_ENV,
    SUMMARY_FILE,
    ClientConfig,
    MtpConfig,
    SweepConfig,
)
from ._option_fields import (
    ConfigError,
)

if TYPE_CHECKING:
    from ._client import (
        ChatStreamClient,
        Endpoint,
        EndpointError,
        probe,
    )
    from ._episode import (
        EpisodeRecord,
        load_episodes,
        play_episode,
        read_episode_records,
    )
    from ._metrics import (
        parse_prometheus,
        spec_decode_delta,
    )
    from ._mtp import (
        compare_mtp,
    )
    from ._prompts import (
        Prompt,
        PromptError,
        PromptSet,
        build_prompts,
        builtin_questions,
        default_messages,
        prompts_for,
        read_prompt_set,
        read_prompts_file,
        resolve_messages_source,
        write_prompt_set,
    )
    from ._records import (
        RequestRecord,
        raw_files,
        read_records,
    )
    from ._report import (
        slo_verdict,
        write_sweep_report,
    )
    from ._runner import (
        LOCUSTFILE,
        LoadTestError,
        locust_command,
        locust_percentile,
        read_locust_percentiles,
        run_level,
        run_sweep,
        write_run_files,
    )
    from ._server import (
        FakeChatServer,
        ServedRequest,
        SpecDecodeCounters,
        StreamPlan,
        episode_planner,
        episode_truths,
    )
    from ._sse import (
        StreamMeter,
    )
    from ._stats import (
        paired_ratio_bootstrap,
        percentile,
        summarize,
        summarize_episodes,
        unreachable_s,
    )
    from ._summary import (
        LevelSummary,
        SummaryError,
        level_latencies,
        read_summary,
        write_summary,
    )
    from ._viewer_questions import (
        VIEWER_QUESTIONS,
    )

_LAZY = {
    **dict.fromkeys(
        (
            "ChatStreamClient",
            "Endpoint",
            "EndpointError",
            "probe",
        ),
        "._client",
    ),
    **dict.fromkeys(
        ("EpisodeRecord", "load_episodes", "play_episode", "read_episode_records"),
        "._episode",
    ),
    **dict.fromkeys(
        ("parse_prometheus", "spec_decode_delta"),
        "._metrics",
    ),
    **dict.fromkeys(("compare_mtp",), "._mtp"),
    **dict.fromkeys(
        (
            "Prompt",
            "PromptError",
            "PromptSet",
            "build_prompts",
            "builtin_questions",
            "default_messages",
            "prompts_for",
            "read_prompt_set",
            "read_prompts_file",
            "resolve_messages_source",
            "write_prompt_set",
        ),
        "._prompts",
    ),
    **dict.fromkeys(
        ("RequestRecord", "raw_files", "read_records"),
        "._records",
    ),
    **dict.fromkeys(
        ("slo_verdict", "write_sweep_report"),
        "._report",
    ),
    **dict.fromkeys(
        (
            "LOCUSTFILE",
            "LoadTestError",
            "locust_command",
            "locust_percentile",
            "read_locust_percentiles",
            "run_level",
            "run_sweep",
            "write_run_files",
        ),
        "._runner",
    ),
    **dict.fromkeys(
        (
            "FakeChatServer",
            "ServedRequest",
            "SpecDecodeCounters",
            "StreamPlan",
            "episode_planner",
            "episode_truths",
        ),
        "._server",
    ),
    **dict.fromkeys(("StreamMeter",), "._sse"),
    **dict.fromkeys(
        (
            "paired_ratio_bootstrap",
            "percentile",
            "summarize",
            "summarize_episodes",
            "unreachable_s",
        ),
        "._stats",
    ),
    **dict.fromkeys(
        (
            "LevelSummary",
            "SummaryError",
            "level_latencies",
            "read_summary",
            "write_summary",
        ),
        "._summary",
    ),
    **dict.fromkeys(("VIEWER_QUESTIONS",), "._viewer_questions"),
}

__getattr__ = lazy_getattr(__name__, _LAZY)

__all__ = [
    "API_KEY_ENV",
    "ChatStreamClient",
    "ClientConfig",
    "ConfigError",
    "Endpoint",
    "EndpointError",
    "EpisodeRecord",
    "FakeChatServer",
    "LOCUSTFILE",
    "LevelSummary",
    "LoadTestError",
    "MtpConfig",
    "Prompt",
    "PromptError",
    "PromptSet",
    "RequestRecord",
    "SUMMARY_FILE",
    "ServedRequest",
    "SpecDecodeCounters",
    "StreamMeter",
    "StreamPlan",
    "SummaryError",
    "SweepConfig",
    "VIEWER_QUESTIONS",
    "build_prompts",
    "builtin_questions",
    "compare_mtp",
    "default_messages",
    "episode_planner",
    "episode_truths",
    "level_latencies",
    "load_episodes",
    "locust_command",
    "locust_percentile",
    "paired_ratio_bootstrap",
    "parse_prometheus",
    "percentile",
    "play_episode",
    "probe",
    "prompts_for",
    "raw_files",
    "read_episode_records",
    "read_locust_percentiles",
    "read_prompt_set",
    "read_prompts_file",
    "read_records",
    "read_summary",
    "resolve_messages_source",
    "run_level",
    "run_sweep",
    "slo_verdict",
    "spec_decode_delta",
    "summarize",
    "summarize_episodes",
    "unreachable_s",
    "write_prompt_set",
    "write_run_files",
    "write_summary",
    "write_sweep_report",
]
