"""vLLM's speculative-decoding counters from its Prometheus ``/metrics`` endpoint.

Acceptance rate = accepted draft tokens / proposed draft tokens; acceptance length (mean tokens
emitted per verification step) = 1 + accepted tokens / drafts. Both are computed on the change of
the counters over a run, so earlier traffic on the server does not count.
"""

from __future__ import annotations

import http.client
from dataclasses import dataclass

from ._client import Endpoint

SPEC_DECODE_COUNTERS = {
    "drafts": "vllm:spec_decode_num_drafts_total",
    "draft_tokens": "vllm:spec_decode_num_draft_tokens_total",
    "accepted_tokens": "vllm:spec_decode_num_accepted_tokens_total",
}


def parse_prometheus(text: str) -> dict[str, float]:
    """Sum every sample of each metric name over its label sets (comments skipped)."""
    out: dict[str, float] = {}
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if "{" in line:
            name, _, rest = line.partition("{")
            rest = rest.rpartition("}")[2]
        else:
            name, _, rest = line.partition(" ")
        fields = rest.split()
        if not fields:
            continue
        try:
            value = float(fields[0])
        except ValueError:
            continue
        out[name.strip()] = out.get(name.strip(), 0.0) + value
    return out


def scrape_spec_decode(url: str, timeout_s: float = 5.0) -> dict[str, float] | None:
    """The spec-decode counters of the server at ``url``; ``None`` when it exposes none."""
    try:
        conn = Endpoint.parse(url).connect(timeout_s)
        conn.request("GET", Endpoint.parse(url).base_path + "/metrics")
        resp = conn.getresponse()
        body = resp.read().decode("utf-8", "replace")
        conn.close()
    except (OSError, http.client.HTTPException, ValueError):
        return None
    if resp.status != 200:
        return None
    samples = parse_prometheus(body)
    if not all(name in samples for name in SPEC_DECODE_COUNTERS.values()):
        return None
    return {key: samples[name] for key, name in SPEC_DECODE_COUNTERS.items()}


@dataclass(frozen=True)
class SpecDecodeStats:
    """Speculative-decoding figures over one run."""

    drafts: float
    draft_tokens: float
    accepted_tokens: float

    @property
    def acceptance_rate(self) -> float | None:
        """Accepted / proposed draft tokens."""
        return self.accepted_tokens / self.draft_tokens if self.draft_tokens else None

    @property
    def acceptance_length(self) -> float | None:
        """1 + accepted tokens per draft: tokens emitted per target-model forward pass."""
        return 1.0 + self.accepted_tokens / self.drafts if self.drafts else None

    def to_dict(self) -> dict[str, float | None]:
        """JSON-ready figures."""
        return {
            "drafts": self.drafts,
            "draft_tokens": self.draft_tokens,
            "accepted_tokens": self.accepted_tokens,
            "acceptance_rate": self.acceptance_rate,
            "acceptance_length": self.acceptance_length,
        }


def spec_decode_delta(
    before: dict[str, float] | None, after: dict[str, float] | None
) -> SpecDecodeStats | None:
    """The counters' change between two scrapes; ``None`` if either is missing."""
    if before is None or after is None:
        return None
    return SpecDecodeStats(*(after[k] - before[k] for k in SPEC_DECODE_COUNTERS))
