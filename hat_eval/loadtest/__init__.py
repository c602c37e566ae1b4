"""The Locust load harness for OpenAI-compatible deployments (``hat_eval.loadtest``).

Streamed chat completions built from the harness's rendered system prompt and tools, timed per
request the way ``vllm bench serve`` defines TTFT, E2E, TPOT and ITL; exact percentiles from the raw
samples beside Locust's bucketed ones; concurrency sweeps with an SLO verdict; MTP on/off decode
throughput with a paired bootstrap CI. Importing this package does not import Locust: the Locust
user lives in ``hat_eval.loadtest._user``, loaded by ``locustfile.py`` in a child process.
"""

from ._client import ChatStreamClient, ClientConfig, Endpoint, EndpointError, probe
from ._metrics import (
    SPEC_DECODE_COUNTERS,
    SpecDecodeStats,
    parse_prometheus,
    scrape_spec_decode,
    spec_decode_delta,
)
from ._mtp import MtpConfig, compare_mtp
from ._prompts import (
    MessagesSource,
    Prompt,
    PromptError,
    PromptSet,
    build_prompts,
    builtin_questions,
    default_messages,
    read_prompts_file,
    resolve_messages_source,
)
from ._records import RequestRecord, read_records, write_records
from ._report import plot_sweep, slo_verdict, write_mtp_report, write_sweep_report
from ._runner import (
    LOCUSTFILE,
    LoadTestError,
    SweepConfig,
    locust_command,
    locust_percentile,
    read_locust_percentiles,
    run_level,
    run_sweep,
)
from ._server import FakeChatServer, ServedRequest, SpecDecodeCounters, StreamPlan
from ._sse import StreamMeter
from ._stats import RatioEstimate, decode_rate, paired_ratio_bootstrap, percentile, summarize
from ._viewer_questions import VIEWER_QUESTIONS

__all__ = [
    "LOCUSTFILE",
    "SPEC_DECODE_COUNTERS",
    "VIEWER_QUESTIONS",
    "ChatStreamClient",
    "ClientConfig",
    "Endpoint",
    "EndpointError",
    "FakeChatServer",
    "LoadTestError",
    "MessagesSource",
    "MtpConfig",
    "Prompt",
    "PromptError",
    "PromptSet",
    "RatioEstimate",
    "RequestRecord",
    "ServedRequest",
    "SpecDecodeCounters",
    "SpecDecodeStats",
    "StreamMeter",
    "StreamPlan",
    "SweepConfig",
    "build_prompts",
    "builtin_questions",
    "compare_mtp",
    "decode_rate",
    "default_messages",
    "locust_command",
    "locust_percentile",
    "paired_ratio_bootstrap",
    "parse_prometheus",
    "percentile",
    "plot_sweep",
    "probe",
    "read_locust_percentiles",
    "read_prompts_file",
    "read_records",
    "resolve_messages_source",
    "run_level",
    "run_sweep",
    "scrape_spec_decode",
    "slo_verdict",
    "spec_decode_delta",
    "summarize",
    "write_mtp_report",
    "write_records",
    "write_sweep_report",
]
