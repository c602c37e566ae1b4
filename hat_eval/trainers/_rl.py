"""HSA-RL: TRL's ``GRPOTrainer`` in the live-stream simulator, rewarded by the episode's checks.

Each GRPO group is one train-split case rolled out ``num_generations`` times, every rollout under
a fresh harness variant (and, for ``fault_share`` of them, an injected fault), so the group's
baseline is the case's mean reward across harness states and the advantage rewards what holds up
when the harness changes. Rollouts, the rollout function and why it is TRL's ``rollout_func``
(not ``environment_factory``): :mod:`hat_eval.trainers._rollout`; the reward components and
their verl adapter: :mod:`hat_eval.trainers._rewards`. Generation uses transformers on CPU and
vLLM when ``use_vllm`` is set (TRL's own switch, passed through).
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from trl import GRPOConfig, GRPOTrainer

from ._common import StageResult, TrainError, device_defaults, resolve_base, write_checkpoint
from ._judge_reward import JudgeReward, check_judge_settings
from ._rewards import (
    COMPONENTS,
    DEFAULT_THINK_BUDGET,
    DEFAULT_WEIGHTS,
    Judge,
    Rewards,
    trl_reward_funcs,
)
from ._rollout import RolloutFunction, Simulator, train_pool
from ._template import qwen3_templates
from ._tiny import TINY_BASE


@dataclass
class HSARLConfig(GRPOConfig):
    """GRPO on the live-stream simulator (every field of TRL's ``GRPOConfig``, plus these).

    ``reward_weights`` is derived from the ``weight_<component>`` fields (in
    :data:`~hat_eval.trainers._rewards.COMPONENTS` order); set those, not it.
    """

    model_name_or_path: str = field(
        default=TINY_BASE,
        metadata={"help": f"Base checkpoint folder, or {TINY_BASE!r} for a tiny random Qwen3."},
    )
    harness: str | None = field(
        default=None,
        metadata={"help": "Base harness file the variants are drawn from (default harness)."},
    )
    fixed_harness: bool = field(
        default=False,
        metadata={
            "help": "Roll out under the base harness only, no variant (the baseline HSA-RL is "
            "compared with; faults are still injected)."
        },
    )
    train_cases: int = field(
        default=64,
        metadata={"help": "Live-stream cases of the train split the rollouts are drawn for."},
    )
    kb_seed: int = field(default=0, metadata={"help": "Seed of the world's knowledge base."})
    augment_seed: int = field(
        default=0,
        metadata={"help": "Mixed into each rollout's index in the training variant seed stream."},
    )
    fault_share: float = field(
        default=0.25,
        metadata={"help": "Share of rollouts (of cases that need a tool) with an injected fault."},
    )
    weight_accuracy: float = field(
        default=DEFAULT_WEIGHTS["accuracy"],
        metadata={"help": "Weight of the accuracy reward (the checks' accuracy part)."},
    )
    weight_effectiveness: float = field(
        default=DEFAULT_WEIGHTS["effectiveness"],
        metadata={
            "help": "Weight of the effectiveness reward (the checks' aggregate / 100, or the "
            "judge's rating when judge_model is set)."
        },
    )
    weight_tool_rationality: float = field(
        default=DEFAULT_WEIGHTS["tool_rationality"],
        metadata={"help": "Weight of the tool-rationality reward."},
    )
    weight_skill_selection: float = field(
        default=DEFAULT_WEIGHTS["skill_selection"],
        metadata={"help": "Weight of the skill-selection reward (skill tag in force)."},
    )
    weight_overlong: float = field(
        default=DEFAULT_WEIGHTS["overlong"],
        metadata={"help": "Weight of the overlong-thinking penalty (its values are in [-1, 0])."},
    )
    think_budget: int = field(
        default=DEFAULT_THINK_BUDGET,
        metadata={"help": "Words of <think> a rollout may spend before the penalty starts."},
    )
    max_turns: int = field(
        default=4, metadata={"help": "Most model turns per rollout (each may call tools)."}
    )
    judge_model: str | None = field(
        default=None,
        metadata={
            "help": "Inspect model that rates effectiveness as the Agent-as-Judge (e.g. "
            "openai/gpt-4.1 or hf/PATH); unset: effectiveness is the checks' aggregate / 100."
        },
    )
    judge_calibration: str | None = field(
        default=None,
        metadata={
            "help": "calibration.json from 'hat-eval judge calibrate': the judge's rating is "
            "mapped to the human scale before it becomes a reward (unset: raw ratings)."
        },
    )
    judge_mode: str = field(
        default="agent",
        metadata={"help": "agent (the grader checks claims with knowledge-base tools) or lookups."},
    )
    judge_cache_dir: str | None = field(
        default=None,
        metadata={"help": "Folder for the judge's cache (a repeated answer is not re-judged)."},
    )
    judge_concurrency: int = field(
        default=8, metadata={"help": "Rollouts the judge rates at once."}
    )

    def __post_init__(self) -> None:
        device_defaults(self)
        derived = self.weights_list()
        given = self.reward_weights
        super().__post_init__()
        for name in COMPONENTS:
            value = getattr(self, f"weight_{name}")
            if value < 0:
                raise TrainError(
                    f"weight_{name} ({value}) must be >= 0; the overlong penalty is already "
                    "negative, so give every weight as a magnitude (0 turns a component off)"
                )
        if given is not None and [float(w) for w in given] != derived:
            raise TrainError(
                f"reward_weights ({given}) is derived from the weight_<component> fields "
                f"{list(COMPONENTS)}; set those instead and leave reward_weights unset"
            )
        self.reward_weights = derived
        if not 0.0 <= self.fault_share <= 1.0:
            raise TrainError(
                f"fault_share ({self.fault_share}) must be within [0, 1] (a share of rollouts)"
            )
        for name in ("train_cases", "max_turns"):
            if getattr(self, name) < 1:
                raise TrainError(f"{name} ({getattr(self, name)}) must be at least 1")
        if self.think_budget < 0:
            raise TrainError(f"think_budget ({self.think_budget}) must be >= 0 (words of thinking)")
        if self.judge_model is not None:
            check_judge_settings(
                "effectiveness", self.judge_calibration, self.judge_mode, self.judge_concurrency
            )
        elif self.judge_calibration is not None:
            raise TrainError(
                f"judge_calibration ({self.judge_calibration!r}) is set but judge_model is not: "
                "set judge_model to the grader the calibration was fitted for, or drop it"
            )
        if self.max_completion_length is None or self.max_completion_length < 1:
            raise TrainError(
                f"max_completion_length ({self.max_completion_length}) must be a positive number "
                "of tokens: it bounds a whole multi-turn rollout after its prompt"
            )

    def weights_list(self) -> list[float]:
        """The components' weights in :data:`~hat_eval.trainers._rewards.COMPONENTS` order."""
        return [float(getattr(self, f"weight_{name}")) for name in COMPONENTS]

    def rewards(self, judge: Judge | None = None) -> Rewards:
        """The reward components this config weighs.

        ``judge``: see :class:`Rewards`; when None and ``judge_model`` is set, the
        Agent-as-Judge (:class:`~hat_eval.trainers._judge_reward.JudgeReward`) is built.
        """
        if judge is None and self.judge_model is not None:
            judge = JudgeReward(
                self.judge_model,
                calibration=self.judge_calibration,
                mode=self.judge_mode,
                cache_dir=self.judge_cache_dir,
                concurrency=self.judge_concurrency,
            )
        return Rewards(
            weights=dict(zip(COMPONENTS, self.weights_list(), strict=True)),
            think_budget=self.think_budget,
            judge=judge,
        )


def load_tokenizer(base: Path) -> Any:
    """The base's tokenizer, with the Inspect-compatible Qwen3 template when it has TRL's.

    Rollouts render their prompts and tool results with this template (for the OpenAI shapes
    they use it renders exactly as TRL's), and the checkpoint is written with it, so ``hat-eval
    run --model CKPT`` renders earlier tool calls as training did
    (:mod:`hat_eval.trainers._template`).
    """
    from transformers import AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(base), padding_side="left")
    templates = qwen3_templates(tokenizer.chat_template)
    if templates is not None:
        tokenizer.chat_template = templates[1]
    return tokenizer


def train_rl(config: HSARLConfig, *, judge: Judge | None = None) -> StageResult:
    """Train with GRPO in the live-stream simulator and write the checkpoint.

    Args:
        config: The stage's config (``output_dir`` receives the checkpoint).
        judge: Optional effectiveness judge (see :class:`~hat_eval.trainers._rewards.Rewards`).

    Raises:
        TrainError: the base checkpoint is missing, or the train pool is empty.
    """
    from datasets import Dataset

    base = resolve_base(config.model_name_or_path, str(config.output_dir))
    pool = train_pool(config.train_cases, harness=config.harness, kb_seed=config.kb_seed)
    if not pool:
        raise TrainError(
            f"train_cases ({config.train_cases}) gave no live-stream cases on the train split "
            f"(harness {config.harness or 'default'}, kb_seed {config.kb_seed}); expected at "
            "least one: raise train_cases or check the harness"
        )
    simulator = Simulator(
        pool,
        augment_seed=config.augment_seed,
        fault_share=config.fault_share,
        max_turns=config.max_turns,
        stream=config.process_index,
        fixed_harness=config.fixed_harness,
    )
    rewards = config.rewards(judge)
    with warnings.catch_warnings():
        warnings.filterwarnings(
            "ignore", message=".*'rollout_func'.*experimental", category=UserWarning
        )
        trainer = GRPOTrainer(
            model=str(base),
            reward_funcs=list[Any](trl_reward_funcs(rewards)),
            args=config,
            train_dataset=Dataset.from_list(simulator.prompt_rows()),
            processing_class=load_tokenizer(base),
            rollout_func=RolloutFunction(simulator),
        )
    start = time.perf_counter()
    trainer.train()
    seconds = time.perf_counter() - start
    info: dict[str, Any] = {
        "train_cases": len(pool),
        "fixed_harness": config.fixed_harness,
        "rollouts": simulator.draws,
        "train_seconds": round(seconds, 3),
        "seconds_per_step": round(seconds / max(trainer.state.global_step, 1), 3),
    }
    return write_checkpoint(trainer, config, stage="rl", base=base, info=info)
