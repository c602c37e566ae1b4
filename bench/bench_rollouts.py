"""Rollout throughput of HSA-RL's live-stream simulator, without a model.

Run: ``python bench/bench_rollouts.py [--n 2000] [--cases 64] [--fault-share 0.25]``. Each
rollout draws a fresh harness variant (and, for the share given, a fault) of a train case, runs
the agent loop with scripted turns (the case's required calls under the variant's tool names,
then the in-force skill tag and the world's reference answer) against the world through the
hooks, and is checked and rewarded as in training. Prints episodes per second on one process
(best of 3) and where the time goes: drawing the episode, the loop with its tools, the checks
and rewards. Nothing is asserted: the numbers bound how fast rollouts can be made before any
generation cost.

Then the same through TRL's ``rollout_func`` (:class:`~hat_eval.trainers._rollout.
RolloutFunction`, on token ids, with the tiny Qwen3's tokenizer and chat template), with
``--rollouts`` rollouts per call (one GRPO generation batch) and ``--calls`` calls, in two
settings: ``scripted, no model`` (each turn's text is the scripted reply, generated at no cost: the
rollout function's own cost, templating, tokenizing, parsing, tools and checks) and
``tiny generate`` (each turn batch also runs ``model.generate`` of the tiny random Qwen3 on
``--device``, CUDA when there is one, for ``--new-tokens`` tokens per rollout, left-padded as
TRL does, and the scripted reply is what the rollout receives, so episodes keep their shape).
Printed: episodes/s, the share of the time in the generation call (on a GPU: the GPU-side
generation share), the loop's own milliseconds per episode, the generation calls per turn (one
per turn for all live rollouts) and the checks' share (the reward computation inside the loop).
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from typing import Any

from hat_eval.episode import (
    Episode,
    Message,
    ModelCall,
    episode_context,
    oracle_answer,
    oracle_calls,
)
from hat_eval.trainers._rewards import Rewards, Rollout
from hat_eval.trainers._rollout import Simulator, train_pool


def scripted(episode: Episode) -> Callable[[ModelCall], Message]:
    """The required calls (variant names) in one turn, then the tagged reference answer."""
    ctx = episode_context(episode)
    calls = oracle_calls(episode.case, ctx.harness.tools, skill=episode.gold.skill)
    answer = oracle_answer(episode, ctx)

    def generate(call: ModelCall) -> Message:
        if calls and not any(m.role == "assistant" for m in call.messages):
            return Message("assistant", "", tool_calls=calls)
        return Message("assistant", answer)

    return generate


def run(n: int, cases: int, fault_share: float, seed: int) -> dict[str, float]:
    """Time ``n`` rollouts; returns rates and per-phase seconds."""
    pool = train_pool(cases)
    sim = Simulator(pool, augment_seed=seed, fault_share=fault_share)
    rewards = Rewards()
    phases = {"draw": 0.0, "loop": 0.0, "checks+rewards": 0.0}
    total = 0.0
    accuracy = 0.0
    faulted = 0
    start = time.perf_counter()
    for i in range(n):
        t0 = time.perf_counter()
        episode = sim.draw(i % len(pool))
        t1 = time.perf_counter()
        steps = sim.steps(episode)
        generate = scripted(episode)
        try:
            call = next(steps)
            while True:
                call = steps.send(generate(call))
        except StopIteration as stop:
            agent_run = stop.value
        t2 = time.perf_counter()
        rollout = Rollout.finish(episode, agent_run)
        total += rewards.total(rollout)
        accuracy += rollout.check.parts["accuracy"] == 1.0
        t3 = time.perf_counter()
        faulted += episode.fault is not None
        phases["draw"] += t1 - t0
        phases["loop"] += t2 - t1
        phases["checks+rewards"] += t3 - t2
    seconds = time.perf_counter() - start
    return {
        "episodes_per_s": n / seconds,
        **{f"{k}_ms": 1000 * v / n for k, v in phases.items()},
        "mean_reward": total / n,
        "accuracy_passed": accuracy / n,
        "faulted": faulted / n,
    }


class TimedGeneration:
    """What the rollout function uses of a GRPOTrainer: scripted replies, timed generation.

    Each rollout's replies come from the script of its episode (recognised by its system
    prompt); with ``model`` a real ``generate`` of ``new_tokens`` tokens runs on the batch first.
    ``generate_s`` is the time spent in the call, the script's decoding and look-up included
    (the stand-in's cost, not the rollout function's).
    """

    def __init__(self, tok: Any, model: Any = None, new_tokens: int = 32) -> None:
        self.processing_class = tok
        self.max_completion_length = 4096
        self.chat_template = None
        self.chat_template_kwargs: dict[str, Any] = {}
        self.model = model
        self.new_tokens = new_tokens
        self.scripts: list[tuple[str, list[str]]] = []
        self.calls: list[int] = []
        self.generate_s = 0.0

    def _generate_single_turn(
        self, inputs: list[list[int]], images: Any, mm: Any, num_generations: int = 1
    ) -> tuple[list[list[int]], None]:
        t0 = time.perf_counter()
        self.calls.append(len(inputs))
        tok = self.processing_class
        if self.model is not None:
            import torch

            width = max(len(ids) for ids in inputs)
            pad = tok.pad_token_id if tok.pad_token_id is not None else tok.eos_token_id
            device = self.model.device
            ids = torch.tensor([[pad] * (width - len(x)) + list(x) for x in inputs], device=device)
            mask = torch.tensor(
                [[0] * (width - len(x)) + [1] * len(x) for x in inputs], device=device
            )
            with torch.inference_mode():
                self.model.generate(
                    input_ids=ids,
                    attention_mask=mask,
                    max_new_tokens=self.new_tokens,
                    min_new_tokens=self.new_tokens,
                    do_sample=False,
                    pad_token_id=pad,
                )
        out = []
        for ids in inputs:
            text = tok.decode(ids)
            [script] = [s for system, s in self.scripts if system in text]
            turn = text.count("<|im_start|>assistant") - 1
            reply = script[min(turn, len(script) - 1)]
            out.append(tok.encode(reply, add_special_tokens=False) + [tok.eos_token_id])
        self.generate_s += time.perf_counter() - t0
        return out, None


def _reply_texts(episode: Episode) -> tuple[str, list[str]]:
    """(system prompt, scripted turns): the required calls as Qwen tool-call blocks, the answer."""
    import json

    from hat_eval.episode import system_message

    ctx = episode_context(episode)
    calls = oracle_calls(episode.case, ctx.harness.tools, skill=episode.gold.skill)
    blocks = "\n".join(
        "<tool_call>\n"
        + json.dumps({"name": c.function, "arguments": c.arguments}, ensure_ascii=False)
        + "\n</tool_call>"
        for c in calls
    )
    turns = ([blocks] if calls else []) + [oracle_answer(episode, ctx)]
    return system_message(ctx).content, turns


def run_function(
    base: Any,
    rollouts: int,
    calls: int,
    cases: int,
    fault_share: float,
    new_tokens: int | None,
    device: str = "cpu",
) -> dict[str, float]:
    """``calls`` calls of the rollout function over ``rollouts`` prompts each; rates and shares."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from hat_eval.trainers import _rollout
    from hat_eval.trainers._rollout import RolloutFunction

    tok = AutoTokenizer.from_pretrained(str(base), padding_side="left")
    model = None
    if new_tokens is not None:
        model = AutoModelForCausalLM.from_pretrained(str(base)).to(device)
        model.eval()
    pool = train_pool(cases)
    sim = Simulator(pool, fault_share=fault_share, max_turns=4)
    twin = Simulator(pool, fault_share=fault_share, max_turns=4)  # the same draws, in order
    gen = TimedGeneration(tok, model, new_tokens or 0)
    rows = sim.prompt_rows()
    checks = {"s": 0.0}
    finish = Rollout.finish

    def timed_finish(episode: Episode, run: Any) -> Rollout:
        t0 = time.perf_counter()
        try:
            return finish(episode, run)
        finally:
            checks["s"] += time.perf_counter() - t0

    _rollout.Rollout.finish = timed_finish  # type: ignore[method-assign]
    try:
        function = RolloutFunction(sim)
        wall = 0.0
        turns = 0
        for c in range(calls):
            picked = [(c * rollouts + i) % len(pool) for i in range(rollouts)]
            gen.scripts = [_reply_texts(twin.draw(i)) for i in picked]
            t0 = time.perf_counter()
            out = function([rows[i]["prompt"] for i in picked], gen)
            wall += time.perf_counter() - t0
            turns += max(r.run.turns for r in out["rollout"])
    finally:
        _rollout.Rollout.finish = finish  # type: ignore[method-assign]
    n = rollouts * calls
    return {
        "episodes_per_s": n / wall,
        "generation_share": gen.generate_s / wall,
        "checks_share": checks["s"] / wall,
        "overhead_ms": (wall - gen.generate_s) / n * 1e3,
        "calls_per_turn": len(gen.calls) / turns,
        "mean_batch": sum(gen.calls) / len(gen.calls),
    }


def main() -> None:
    """Print the simulator's rollout throughput."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="rollouts per run")
    parser.add_argument("--cases", type=int, default=64, help="train cases in the pool")
    parser.add_argument("--fault-share", type=float, default=0.25, help="share with a fault")
    parser.add_argument("--rollouts", type=int, default=8, help="rollouts per rollout_func call")
    parser.add_argument("--calls", type=int, default=6, help="rollout_func calls timed")
    parser.add_argument("--new-tokens", type=int, default=32, help="tokens generated per turn")
    parser.add_argument("--device", default=None, help="where the tiny model generates")
    args = parser.parse_args()
    if args.device is None:
        import torch

        args.device = "cuda" if torch.cuda.is_available() else "cpu"
    run(min(args.n, 200), args.cases, args.fault_share, seed=99)  # warm caches and the world
    results = [run(args.n, args.cases, args.fault_share, seed=s) for s in range(3)]
    best = max(results, key=lambda r: r["episodes_per_s"])
    print(
        f"{args.n} scripted rollouts over {args.cases} train cases, fault share "
        f"{args.fault_share}: best of 3"
    )
    print(f"  episodes/s                 {best['episodes_per_s']:.0f}")
    for phase in ("draw", "loop", "checks+rewards"):
        print(f"  {phase + ' ms/episode':<27}{best[phase + '_ms']:.3f}")
    print(
        f"  mean reward {best['mean_reward']:.3f} (default weights); accuracy passed "
        f"{best['accuracy_passed']:.1%}; faulted {best['faulted']:.1%}"
    )
    import tempfile
    from pathlib import Path

    from hat_eval.trainers import build_tiny_model

    with tempfile.TemporaryDirectory() as tmp:
        base = build_tiny_model(Path(tmp) / "base")
        run_function(base, args.rollouts, 1, args.cases, args.fault_share, None)  # warm up
        print(
            f"through TRL's rollout_func (RolloutFunction on token ids), {args.rollouts} rollouts "
            f"per call, {args.calls} calls, fault share {args.fault_share}:"
        )
        for label, new_tokens in (
            ("scripted, no model", None),
            (f"tiny generate, {args.new_tokens} tokens/turn, {args.device}", args.new_tokens),
        ):
            r = run_function(
                base,
                args.rollouts,
                args.calls,
                args.cases,
                args.fault_share,
                new_tokens,
                args.device,
            )
            print(
                f"  {label}: {r['episodes_per_s']:.1f} episodes/s; generation "
                f"{r['generation_share']:.1%} of the time; the loop's own cost "
                f"{r['overhead_ms']:.1f} ms/episode, of which the checks (rewards) "
                f"{r['checks_share']:.1%} of the time; {r['calls_per_turn']:.2f} generation "
                f"calls per turn, {r['mean_batch']:.1f} rollouts per call"
            )


if __name__ == "__main__":
    main()
