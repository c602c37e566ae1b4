import json

import pytest

import hat_eval.suites
from hat_eval.harness import load_harness, render
from hat_eval.loadtest import (
    VIEWER_QUESTIONS,
    PromptError,
    build_prompts,
    default_messages,
    read_prompts_file,
    resolve_messages_source,
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


def test_default_messages_fall_back_to_the_builtin_questions(monkeypatch, caplog):
    def broken(n):
        raise RuntimeError("world generator unavailable")

    monkeypatch.setattr(hat_eval.suites, "viewer_messages", broken)
    with caplog.at_level("WARNING", logger="hat_eval.loadtest"):
        assert default_messages(3) == list(VIEWER_QUESTIONS[:3])
    assert "world generator unavailable" in caplog.text
    assert [p.messages[1]["content"] for p in build_prompts(n=2).prompts] == list(
        VIEWER_QUESTIONS[:2]
    )


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
    with pytest.raises(PromptError, match="cannot read"):
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
