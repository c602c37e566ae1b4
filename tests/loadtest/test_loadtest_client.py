import socket

import pytest

from hat_eval.loadtest import ClientConfig, Endpoint, EndpointError, FakeChatServer, StreamPlan
from hat_eval.loadtest._client import ChatStreamClient
from hat_eval.loadtest._prompts import build_prompts

PROMPTS = build_prompts(n=4)


def send(server, plan_cfg=None, **cfg):
    client = ChatStreamClient(ClientConfig(server.url, "fake", **cfg))
    try:
        return client.send(PROMPTS[0], 0)
    finally:
        client.close()


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_payload_sends_max_tokens_tools_and_optional_stream_options():
    with FakeChatServer(StreamPlan(ttft_s=0.0, n_tokens=3, token_gap_s=0.0)) as srv:
        assert send(srv, max_tokens=7).ok
        assert send(srv, stream_usage=False).ok
        first, second = (s.payload for s in srv.served)
    assert first["max_tokens"] == 7 and "max_completion_tokens" not in first
    assert first["stream"] is True and first["stream_options"] == {"include_usage": True}
    assert "stream_options" not in second
    assert first["tools"] == PROMPTS[0].tools and first["messages"] == PROMPTS[0].messages


def test_multi_token_chunks_count_from_usage_not_chunks():
    plan = StreamPlan(ttft_s=0.01, n_tokens=12, token_gap_s=0.002, tokens_per_chunk=3)
    with FakeChatServer(plan) as srv:
        with_usage = send(srv)
        without = send(srv, stream_usage=False)
    assert with_usage.ok and with_usage.token_source == "usage"
    assert with_usage.output_tokens == 12 and with_usage.chunks == 4
    assert without.token_source == "chunks" and without.output_tokens == 4


def test_keep_alive_connection_is_reused():
    with FakeChatServer(StreamPlan(ttft_s=0.0, n_tokens=2, token_gap_s=0.0)) as srv:
        client = ChatStreamClient(ClientConfig(srv.url, "fake"))
        recs = [client.send(PROMPTS[i], i) for i in range(5)]
        client.close()
    assert all(r.ok for r in recs) and len(srv.served) == 5


@pytest.mark.parametrize(
    ("plan", "reason"),
    [
        (StreamPlan(status=400), "HTTP 400"),
        (StreamPlan(status=429), "HTTP 429"),
        (StreamPlan(status=500), "HTTP 500"),
        (StreamPlan(status=503), "HTTP 503"),
        (StreamPlan(fault="truncate", fault_after=3, token_gap_s=0.001), "truncated stream"),
        (StreamPlan(fault="non_json", fault_after=2, token_gap_s=0.001), "non-JSON chunk"),
        (StreamPlan(fault="error_event", fault_after=1), "error event"),
        (StreamPlan(fault="stall", fault_after=2, stall_s=5.0), "stalled"),
        (StreamPlan(fault="disconnect"), "connection error"),
    ],
)
def test_faults_are_failures_with_reasons(plan, reason):
    with FakeChatServer(plan) as srv:
        rec = send(srv, stall_timeout_s=0.3)
    assert not rec.ok and rec.reason == reason
    assert rec.elapsed_s >= 0 and rec.e2e_s is None


def test_a_stall_before_headers_is_a_failure():
    plan = StreamPlan(fault="stall", fault_after=0, stall_s=5.0)
    with FakeChatServer(plan) as srv:
        rec = send(srv, stall_timeout_s=0.2)
    assert rec.reason == "stalled"


def test_server_down_is_a_connection_error():
    client = ChatStreamClient(ClientConfig(f"http://127.0.0.1:{free_port()}", "fake"))
    rec = client.send(PROMPTS[0], 0)
    assert not rec.ok and rec.reason == "connection error" and "refused" in rec.detail.lower()


def test_strict_server_refuses_stream_options():
    with FakeChatServer(StreamPlan(), reject_fields=("stream_options",)) as srv:
        assert send(srv).reason == "HTTP 422"
        assert send(srv, stream_usage=False).ok


def test_endpoint_parsing():
    assert Endpoint.parse("http://127.0.0.1:8000/v1/").url == "http://127.0.0.1:8000"
    assert Endpoint.parse("https://h.example/api").port == 443
    for bad in ("127.0.0.1:8000", "ftp://x", "http://:80", "http://h:99999"):
        with pytest.raises(EndpointError):
            Endpoint.parse(bad)
