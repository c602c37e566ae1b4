import json

import pytest

import hat_eval.suites
from hat_eval.harness import load_harness, render
from hat_eval.loadtest import VIEWER_QUESTIONS, ClientConfig, SweepConfig, prompts_for
from hat_eval.loadtest._prompts import (
    PromptError,
    build_prompts,
    default_messages,
    read_prompt_set,
    read_prompts_file,
    resolve_messages_source,
    write_prompt_set,
)
from hat_eval.suites import viewer_messages


def test_prompts_carry_the_rendered_harness_around_the_suite_questions():
    rendered = render(load_harness(None))
    ps = build_prompts(n=5)
    suite = viewer_messages(5)
    assert len(ps) == 5
    for i in range(5):
        system, user = ps[i].messages
        assert system == {"role": "system", "content": rendered.system_prompt}
        assert user == {"role": "user", "content": suite[i]}
        assert ps[i].tools == rendered.tools
    assert ps[7] == ps[2]  # indexing wraps around
    assert not set(suite) & set(VIEWER_QUESTIONS)  # really the suite's, not the built-in list


def test_default_messages_are_the_episode_ones_and_their_errors_are_not_hidden(monkeypatch):
    assert default_messages(3) == viewer_messages(3)

    def broken(n):
        raise RuntimeError("world generator unavailable")

    monkeypatch.setattr(hat_eval.suites, "viewer_messages", broken)
    with pytest.raises(RuntimeError, match="world generator unavailable"):
        default_messages(3)  # no silent switch to other questions: a run says what it sends
    built_in = build_prompts(
        messages_source=resolve_messages_source("hat_eval.loadtest:builtin_questions"), n=2
    )
    assert [p.messages[1]["content"] for p in built_in.prompts] == list(VIEWER_QUESTIONS[:2])


def test_prompts_file_with_messages_and_full_conversations(tmp_path):
    f = tmp_path / "p.jsonl"
    convo = [
        {"role": "user", "content": "hi"},
        {"role": "assistant", "content": "hello!"},
        {"role": "user", "content": "price?"},
    ]
    own_system = [{"role": "system", "content": "S"}, {"role": "user", "content": "u"}]
    f.write_text(
        "\n".join(
            json.dumps(x)
            for x in (
                {"message": "is it waterproof"},
                {"messages": convo},
                {"messages": own_system},
            )
        )
        + "\n\n"
    )
    ps = build_prompts(prompts_file=f)
    assert len(ps) == 3
    assert ps[0].messages[1]["content"] == "is it waterproof"
    assert ps[1].messages[0]["role"] == "system" and ps[1].messages[1:] == convo
    assert ps[2].messages == own_system


@pytest.mark.parametrize(
    ("text", "where"),
    [
        ("not json\n", ":1:"),
        ('{"message": "ok"}\n{"msg": "x"}\n', ":2:"),
        ("\n", "no prompts"),
    ],
)
def test_bad_prompts_file_names_the_line(tmp_path, text, where):
    f = tmp_path / "bad.jsonl"
    f.write_text(text)
    with pytest.raises(PromptError, match=where):
        read_prompts_file(f)


def test_missing_prompts_file(tmp_path):
    with pytest.raises(PromptError, match=r"none\.jsonl: no such file, expected a JSONL file"):
        read_prompts_file(tmp_path / "none.jsonl")


def test_messages_source_is_pluggable():
    ps = build_prompts(messages_source=lambda n: [f"question {i}" for i in range(n)], n=3)
    assert [p.messages[1]["content"] for p in ps.prompts] == [
        "question 0",
        "question 1",
        "question 2",
    ]
    fn = resolve_messages_source("hat_eval.loadtest:builtin_questions")
    assert fn(2) == list(VIEWER_QUESTIONS[:2])
    for bad in ("nocolon", "hat_eval.loadtest:nothing", "no_such_module_x:f"):
        with pytest.raises(PromptError):
            resolve_messages_source(bad)
    with pytest.raises(PromptError, match="non-empty list of strings"):
        build_prompts(messages_source=lambda n: [])


def test_built_prompts_round_trip_through_the_run_folder(tmp_path):
    cfg = SweepConfig(
        ClientConfig("http://127.0.0.1:9", "m"),
        out=tmp_path,
        messages_source="hat_eval.loadtest:builtin_questions",
        n_prompts=3,
    )
    ps = prompts_for(cfg)
    write_prompt_set(cfg.prompts_path, ps)
    assert read_prompt_set(cfg.prompts_path) == ps  # messages and tools, exactly
    lines = cfg.prompts_path.read_text().splitlines()
    assert len(lines) == 3 and set(json.loads(lines[0])) == {"messages", "tools"}
    # the file is also a valid --prompts file: its messages carry their own system prompt
    assert build_prompts(prompts_file=cfg.prompts_path) == ps


@pytest.mark.parametrize(
    ("text", "needle"), [("", "no prompts"), ('{"messages": []}\n', ":1:"), ("x\n", ":1:")]
)
def test_a_bad_built_prompts_file_names_the_place(tmp_path, text, needle):
    f = tmp_path / "prompts.jsonl"
    f.write_text(text)
    with pytest.raises(PromptError, match=needle):
        read_prompt_set(f)
    with pytest.raises(PromptError, match=r"none\.jsonl: no such file, expected a JSONL file"):
        read_prompt_set(tmp_path / "none.jsonl")
