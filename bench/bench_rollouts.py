"""Rollout throughput of HSA-RL's live-stream simulator, without a model.

Run: ``python bench/bench_rollouts.py [--n 2000] [--cases 64] [--fault-share 0.25]``. Each
rollout draws a fresh harness variant (and, for the share given, a fault) of a train case, runs
the agent loop with scripted turns (the case's required calls under the variant's tool names,
then the in-force skill tag and the world's reference answer) against the world through the
hooks, and is checked and rewarded as in training. Prints episodes per second on one process
(best of 3) and where the time goes: drawing the episode, the loop with its tools, the checks
and rewards. Nothing is asserted: the numbers bound how fast rollouts can be made before any
generation cost.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable

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


def main() -> None:
    """Print the simulator's rollout throughput."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000, help="rollouts per run")
    parser.add_argument("--cases", type=int, default=64, help="train cases in the pool")
    parser.add_argument("--fault-share", type=float, default=0.25, help="share with a fault")
    args = parser.parse_args()
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


if __name__ == "__main__":
    main()
