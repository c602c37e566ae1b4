import json

import pytest

from hat_eval.loadtest._sse import StreamMeter


def chunk(delta=None, finish=None, usage=None, **extra):
    obj = {"object": "chat.completion.chunk", **extra}
    obj["choices"] = (
        [] if delta is None else [{"index": 0, "delta": delta, "finish_reason": finish}]
    )
    if usage is not None:
        obj["usage"] = {"completion_tokens": usage, "prompt_tokens": 3}
    return f"data: {json.dumps(obj)}\n\n".encode()


def record(meter, **kw):
    return meter.record(started_at=0.0, elapsed_s=9.0, status=200, prompt_index=0, start=10.0, **kw)


def test_role_only_chunk_does_not_stop_the_clock_and_usage_counts_tokens():
    m = StreamMeter()
    m.feed(chunk({"role": "assistant"}), 10.5)
    m.feed(chunk({"content": "Hel"}), 11.0)
    m.feed(chunk({"content": ""}), 11.2)  # an empty string is not a token
    m.feed(chunk({"content": "lo there"}), 11.5)
    m.feed(chunk({"content": " viewer"}), 12.0)
    m.feed(chunk({}, finish="stop"), 12.1)
    m.feed(chunk(usage=9) + b"data: [DONE]\n\n", 12.2)
    r = record(m)
    assert r.ok and r.token_source == "usage"
    assert r.ttft_s == pytest.approx(1.0)
    assert r.e2e_s == pytest.approx(2.0)
    assert r.itl_s == pytest.approx((0.5, 0.5))
    assert r.output_tokens == 9
    assert r.tpot_s == pytest.approx(1.0 / 8)
    assert r.chunks == 3


@pytest.mark.parametrize("field", ["reasoning", "reasoning_content"])
def test_reasoning_text_starts_ttft(field):
    m = StreamMeter()
    m.feed(chunk({"role": "assistant"}), 10.1)
    m.feed(chunk({field: "thinking"}), 10.4)
    m.feed(chunk({"content": "answer"}, finish="stop"), 10.9)
    r = record(m)
    assert r.ttft_s == pytest.approx(0.4) and r.e2e_s == pytest.approx(0.9)


def test_tool_call_deltas_carry_tokens():
    m = StreamMeter()
    call = {"tool_calls": [{"index": 0, "function": {"name": "check_stock", "arguments": ""}}]}
    m.feed(chunk(call), 10.3)
    m.feed(
        chunk(
            {"tool_calls": [{"index": 0, "function": {"arguments": '{"sku": 1}'}}]},
            finish="tool_calls",
        ),
        10.6,
    )
    r = record(m)
    assert r.ok and r.ttft_s == pytest.approx(0.3) and r.e2e_s == pytest.approx(0.6)


def test_without_usage_tokens_come_from_tokenizer_else_chunks():
    def feed(m):
        m.feed(chunk({"content": "a b c"}), 11.0)  # MTP: one chunk, three tokens
        m.feed(chunk({"content": " d e"}, finish="length"), 11.4)

    m = StreamMeter()
    feed(m)
    by_chunks = record(m)
    assert by_chunks.token_source == "chunks" and by_chunks.output_tokens == 2
    m = StreamMeter()
    feed(m)
    by_tok = record(m, count_tokens=lambda text: len(text.split()))
    assert by_tok.token_source == "tokenizer" and by_tok.output_tokens == 5
    assert by_tok.tpot_s == pytest.approx(0.4 / 4)


def test_lines_split_across_reads_and_finish_without_done():
    data = chunk({"content": "x"}) + chunk({"content": "y"}, finish="stop") + chunk(usage=2)
    m = StreamMeter()
    m.feed(data[:7], 11.0)
    m.feed(data[7:60], 11.5)
    m.feed(data[60:], 12.0)
    r = record(m)  # transformers serve sends no [DONE]: a finish_reason completes the stream
    assert r.ok and r.output_tokens == 2
    assert r.e2e_s == pytest.approx(2.0)


@pytest.mark.parametrize(
    ("data", "reason"),
    [
        (b"data: {oops\n\n", "non-JSON chunk"),
        (b"data: [1, 2]\n\n", "non-JSON chunk"),
        (b'data: {"error": {"message": "engine dead"}}\n\n', "error event"),
        (chunk({"content": "x"}), "truncated stream"),
        (chunk({"role": "assistant"}) + chunk({}, finish="stop"), "no output tokens"),
    ],
)
def test_broken_streams_are_failures_with_reasons(data, reason):
    m = StreamMeter()
    m.feed(data, 11.0)
    r = record(m)
    assert not r.ok and r.reason == reason and r.e2e_s is None
