"""The live-stream simulator: a fresh variant per rollout, tools through the hooks, faults."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from hat_eval.episode import (
    Episode,
    Message,
    ModelCall,
    ToolCall,
    episode_context,
    gold_for,
    oracle_answer,
    oracle_calls,
    system_message,
)
from hat_eval.trainers._rewards import ROLLOUT_KEY, Rollout
from hat_eval.trainers._rollout import (
    CASE_KEY,
    RolloutFunction,
    Simulator,
    parse_turn,
    train_pool,
)


@pytest.fixture(scope="module")
def pool() -> list[Episode]:
    return train_pool(30)


def _oracle(episode: Episode):
    """Scripted turns: the case's required calls (variant names), then the reference answer."""
    ctx = episode_context(episode)
    calls = oracle_calls(episode.case, ctx.harness.tools)

    def generate(call: ModelCall) -> Message:
        if calls and not any(m.role == "assistant" for m in call.messages):
            return Message("assistant", "", tool_calls=calls)
        return Message("assistant", oracle_answer(episode, ctx))

    return generate


# -- parsing a model turn --------------------------------------------------------------------------


def test_tool_call_blocks_become_calls_and_the_rest_is_the_content() -> None:
    text = (
        "<think>need the price</think>\n"
        '<tool_call>\n{"name": "calc", "arguments": {"sku": "A1"}}\n</tool_call>\n'
        '<tool_call>{"name": "stock", "arguments": "{\\"product_id\\": \\"P1\\"}"}</tool_call>'
    )
    m = parse_turn(text, turn=3)
    assert m.role == "assistant"
    assert m.tool_calls == (
        ToolCall("call_3_0", "calc", {"sku": "A1"}),
        ToolCall("call_3_1", "stock", {"product_id": "P1"}),
    )
    assert m.content == "<think>need the price</think>"


@pytest.mark.parametrize(
    "text",
    [
        '<tool_call>{"name": "calc", "arguments": {"sku": </tool_call>',  # not JSON
        '<tool_call>{"arguments": {}}</tool_call>',  # no name
        '<tool_call>{"name": "calc", "arguments": [1]}</tool_call>',  # arguments not an object
        '<tool_call>{"name": "calc", "arguments": {}}',  # left open (cut short)
        'fine <tool_call>{"name": "a", "arguments": {}}</tool_call><tool_call>oops</tool_call>',
    ],
)
def test_an_unparsable_call_makes_the_turn_a_final_answer(text: str) -> None:
    m = parse_turn(text)
    assert m.tool_calls == () and m.content == text


def test_a_turn_without_calls_is_the_final_answer() -> None:
    assert parse_turn("[skill: x] hi") == Message("assistant", "[skill: x] hi")


# -- drawing episodes ------------------------------------------------------------------------------


def test_two_rollouts_of_one_case_get_different_harness_variants(pool: list[Episode]) -> None:
    sim = Simulator(pool)
    draws = [sim.draw(0) for _ in range(8)]
    assert sim.draws == 8
    assert len({d.harness.seed for d in draws}) == 8
    assert len({d.id for d in draws}) == 8
    assert all(d.case == pool[0].case for d in draws)
    prompts = [system_message(episode_context(d)).content for d in draws]
    assert len(set(prompts)) == 8
    names = {tuple(t.name for t in episode_context(d).harness.tools) for d in draws}
    assert len(names) > 1  # tool names in the prompt differ between variants
    for d in draws:  # gold re-targeted to each variant
        assert d.gold == gold_for(d.case, d.harness)
        assert d.gold.tools == {t.function: t.name for t in episode_context(d).harness.tools}


def test_the_same_seed_replays_the_same_draws_another_seed_does_not(pool: list[Episode]) -> None:
    def seeds(augment_seed: int) -> list[int | None]:
        sim = Simulator(pool, augment_seed=augment_seed)
        return [sim.draw(i % 3).harness.seed for i in range(6)]

    assert seeds(7) == seeds(7)
    assert seeds(7) != seeds(8)


def test_tool_calls_under_variant_names_run_against_the_world(pool: list[Episode]) -> None:
    sim = Simulator(pool)
    base = next(i for i, e in enumerate(pool) if e.case.intent == "price")
    renamed = next(
        d
        for d in (sim.draw(base) for _ in range(40))
        if d.gold.tools["pricing.final_price"] != pool[base].gold.tools["pricing.final_price"]
    )
    rollout = sim.run(renamed, _oracle(renamed))
    [record] = rollout.run.records
    assert record.name == renamed.gold.tools["pricing.final_price"]
    assert record.function == "pricing.final_price" and record.outcome == "ok"
    results = [m for m in rollout.run.messages if m.role in ("tool", "user")][1:]
    price = next(f for f in renamed.case.facts if f.kind == "price").value
    assert any(str(int(float(price))) in m.content for m in results)  # the world's answer
    assert rollout.check.parts["accuracy"] == 1.0 and rollout.check.parts["skill"] == 1.0
    # the base harness's name for the tool is not a tool under this variant
    stale = ToolCall("c0", pool[base].gold.tools["pricing.final_price"], {"sku": "x"})
    turns = iter([Message("assistant", "", tool_calls=(stale,)), Message("assistant", "ok")])
    [miss] = sim.run(renamed, lambda call: next(turns)).run.records
    assert miss.outcome == "unknown_tool" and miss.function is None


def test_faults_reach_the_runtime_for_the_configured_share(pool: list[Episode]) -> None:
    with_calls = [i for i, e in enumerate(pool) if e.case.required_calls]
    always = Simulator(pool, fault_share=1.0)
    drawn = [always.draw(i) for i in with_calls]
    assert all(d.fault is not None for d in drawn)
    for d in drawn:
        assert d.fault is not None
        assert d.fault.function in {c.function for c in d.case.required_calls}
        rollout = always.run(d, _oracle(d))
        hit = [r for r in rollout.run.records if r.function == d.fault.function]
        assert hit and d.fault.kind in hit[0].faults  # the injected fault met the call
    never = Simulator(pool, fault_share=0.0)
    assert all(never.draw(i).fault is None for i in with_calls)
    half = Simulator(pool, fault_share=0.5)
    share = sum(half.draw(i).fault is not None for i in with_calls * 10) / (len(with_calls) * 10)
    assert 0.3 < share < 0.7
    no_calls = next(i for i, e in enumerate(pool) if not e.case.required_calls)
    assert always.draw(no_calls).fault is None  # a fault needs a call to hit


def test_prompt_rows_name_their_case(pool: list[Episode]) -> None:
    rows = Simulator(pool[:3]).prompt_rows()
    assert [r["prompt"][0][CASE_KEY] for r in rows] == [0, 1, 2]
    assert [r["prompt"][0]["content"] for r in rows] == [e.case.message for e in pool[:3]]


# -- the rollout function on tokens ----------------------------------------------------------------


class _ScriptedTrainer:
    """What the rollout function uses of a GRPOTrainer, with scripted generation.

    A turn whose context has no tool result yet calls the tool the prompt lists without
    required parameters (under whatever name the variant gives it); later turns answer.
    """

    def __init__(self, tok: Any, budget: int) -> None:
        self.processing_class = tok
        self.max_completion_length = budget
        self.chat_template = None
        self.chat_template_kwargs: dict[str, Any] = {}
        self.turns: list[int] = []

    def _generate_single_turn(
        self, inputs: list[list[int]], images: Any, mm: Any, num_generations: int = 1
    ) -> tuple[list[list[int]], None]:
        assert num_generations == 1
        self.turns.append(len(inputs))
        tok = self.processing_class
        out = []
        for ids in inputs:
            text = tok.decode(ids)
            if "<tool_response>" in text:
                reply = "<think>got it</think>[skill: greeting] The session is live."
            else:
                block = text.split("<tools>")[-1].split("</tools>")[0]
                schemas = [json.loads(line) for line in block.strip().splitlines()]
                name = next(
                    s["function"]["name"]
                    for s in schemas
                    if not s["function"]["parameters"].get("required")
                )
                reply = f'<tool_call>\n{{"name": "{name}", "arguments": {{}}}}\n</tool_call>'
            out.append(tok.encode(reply, add_special_tokens=False) + [tok.eos_token_id])
        return out, None


@pytest.fixture(scope="module")
def tokenizer(tiny_base: Path) -> Any:
    from transformers import AutoTokenizer

    return AutoTokenizer.from_pretrained(str(tiny_base))


def test_the_rollout_function_runs_the_loop_on_tokens(tokenizer: Any, pool: list[Episode]) -> None:
    sim = Simulator(pool, max_turns=3)
    rows = sim.prompt_rows()
    prompts = [rows[0]["prompt"], rows[0]["prompt"], rows[1]["prompt"]]  # a group of 2, then 1
    trainer = _ScriptedTrainer(tokenizer, budget=4096)
    out = RolloutFunction(sim)(prompts, trainer)
    assert trainer.turns == [3, 3]  # all live rollouts generate each turn in one batch
    n = len(prompts)
    for key in ("prompt_ids", "completion_ids", "logprobs", "env_mask", ROLLOUT_KEY):
        assert len(out[key]) == n
    assert out["prompt_ids"][0] != out["prompt_ids"][1]  # one case, two variants
    for i in range(n):
        ids, mask, rollout = out["completion_ids"][i], out["env_mask"][i], out[ROLLOUT_KEY][i]
        assert isinstance(rollout, Rollout)
        assert len(mask) == len(ids) == len(out["logprobs"][i])
        prompt_text = tokenizer.decode(out["prompt_ids"][i])
        [record] = rollout.run.records
        assert record.function == "live.session_context" and record.outcome == "ok"
        assert f'"name": "{record.name}"' in prompt_text  # the name this variant shows
        model = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if m])
        env = tokenizer.decode([t for t, m in zip(ids, mask, strict=True) if not m])
        assert "<tool_call>" in model and "The session is live." in model
        assert "<tool_response>" in env and "<tool_call>" not in env
        assert "session" in env.lower() or "live" in env.lower()
        assert rollout.answer == "[skill: greeting] The session is live."
        assert rollout.thoughts == "got it"
        # the template's own rendering of the whole transcript holds the same tokens
        full = tokenizer.decode(out["prompt_ids"][i] + ids)
        assert full.count("<|im_start|>assistant") == 2


def test_the_completion_budget_ends_a_rollout(tokenizer: Any, pool: list[Episode]) -> None:
    sim = Simulator(pool, max_turns=3)
    prompts = [sim.prompt_rows()[0]["prompt"]] * 2
    out = RolloutFunction(sim)(prompts, _ScriptedTrainer(tokenizer, budget=30))
    for ids, mask, rollout in zip(
        out["completion_ids"], out["env_mask"], out[ROLLOUT_KEY], strict=True
    ):
        assert len(ids) == 30 and len(mask) == len(ids)
        assert rollout.run.answered and "The session is live" not in rollout.answer
        assert rollout.check.aggregate == 0.0


# -- one generation call per turn for every live rollout -------------------------------------------


def _tool_call_text(calls: Any) -> str:
    return "\n".join(
        "<tool_call>\n"
        + json.dumps({"name": c.function, "arguments": c.arguments}, ensure_ascii=False)
        + "\n</tool_call>"
        for c in calls
    )


class _CountingTrainer:
    """Generation that counts its calls; each rollout follows the script of its episode.

    A script is the turns a rollout's model says in order (its last turn repeats if the loop
    asks for more, e.g. after a hook rejected a reply). The episode is recognised by its system
    prompt (each variant has its own); the turn by the assistant headers already in the input.
    """

    def __init__(self, tok: Any, scripts: list[tuple[str, list[str]]]) -> None:
        self.processing_class = tok
        self.max_completion_length = 4096
        self.chat_template = None
        self.chat_template_kwargs: dict[str, Any] = {}
        self.scripts = scripts
        self.calls: list[int] = []

    def _generate_single_turn(
        self, inputs: list[list[int]], images: Any, mm: Any, num_generations: int = 1
    ) -> tuple[list[list[int]], None]:
        self.calls.append(len(inputs))
        tok = self.processing_class
        out = []
        for ids in inputs:
            text = tok.decode(ids)
            [script] = [s for system, s in self.scripts if system in text]
            turn = text.count("<|im_start|>assistant") - 1
            reply = script[min(turn, len(script) - 1)]
            out.append(tok.encode(reply, add_special_tokens=False) + [tok.eos_token_id])
        return out, None


def test_every_turn_is_one_generation_call_for_all_live_rollouts(
    tokenizer: Any, pool: list[Episode]
) -> None:
    with_calls = [i for i, e in enumerate(pool) if e.case.required_calls]
    a, b, d = with_calls[:3]
    early = next(i for i, e in enumerate(pool) if not e.case.required_calls)  # no fault
    cases = [a, a, b, early, d]
    lengths = [2, 3, 3, 1, 2]  # turns each rollout's model scripts: calls..., then the answer
    sim = Simulator(pool, fault_share=1.0, max_turns=4)
    twin = Simulator(pool, fault_share=1.0, max_turns=4)  # draws the same episodes in order
    scripts = []
    for case, n in zip(cases, lengths, strict=True):
        episode = twin.draw(case)
        ctx = episode_context(episode)
        calls = _tool_call_text(oracle_calls(episode.case, ctx.harness.tools))
        answer = oracle_answer(episode, ctx)
        scripts.append((system_message(ctx).content, [calls] * (n - 1) + [answer]))
    trainer = _CountingTrainer(tokenizer, scripts)
    rows = sim.prompt_rows()
    out = RolloutFunction(sim)([rows[c]["prompt"] for c in cases], trainer)

    rollouts: list[Rollout] = out[ROLLOUT_KEY]
    turns = [r.run.turns for r in rollouts]
    # one call per turn, holding every rollout still running at that turn
    assert trainer.calls == [sum(t > k for t in turns) for k in range(max(turns))]
    assert len(trainer.calls) == max(turns) >= 3 and trainer.calls[0] == len(cases)
    assert turns[cases.index(early)] == 1  # ended on its first turn, left out of the others
    assert rollouts[cases.index(early)].run.answered
    faulted = [r for r in rollouts if r.episode.fault is not None]
    assert len(faulted) == 4  # every rollout whose case calls a tool
    for r in faulted:
        assert r.episode.fault is not None
        assert any(r.episode.fault.kind in rec.faults for rec in r.run.records)
        assert r.run.turns >= 2  # the fault did not stop the rollout from going on
