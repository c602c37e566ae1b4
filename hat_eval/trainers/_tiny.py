"""A tiny, randomly initialised Qwen3 checkpoint built on the spot: the base of the tiny configs.

No model can be downloaded here, so the tiny configs under ``trainers/`` (and the trainers' tests)
start from :func:`build_tiny_model`: a 2-layer Qwen3 with a byte-level BPE tokenizer trained on the
harness's own text (its system prompt, tool schemas and viewer messages, so a trajectory is a few
thousand tokens, not ten thousand bytes), Qwen's special tokens, and exactly TRL's bundled Qwen3
chat template (TRL swaps in its training template, with the ``{% generation %}`` markers
``assistant_only_loss`` needs, only for a template it recognises). Its answers are noise: it
exists to run every stage end to end on 2 CPU cores, not to score.

``mtp_layers`` adds ``mtp.*`` tensors to the written weights and ``mtp_num_hidden_layers`` to its
config, as a Qwen3.5 checkpoint has them, so carrying multi-token-prediction heads through
fine-tuning can be tested without a real Qwen3.5.
"""

from __future__ import annotations

import json
from pathlib import Path

TINY_BASE = "builtin:tiny-qwen3"
"""The value of ``model_name_or_path`` that asks for :func:`build_tiny_model` instead of a path."""

SPECIAL_TOKENS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
"""Qwen's control tokens (special: skipped when decoding)."""
MARKUP_TOKENS: tuple[str, ...] = ("<tool_call>", "</tool_call>", "<tool_response>")
MARKUP_TOKENS += ("</tool_response>", "<think>", "</think>")
"""Qwen's markup tokens: single tokens, but not special, so decoding keeps them (tool calls are
parsed from the decoded text)."""


def _corpus() -> list[str]:
    """Text the tokenizer is fitted on: harness prompts and schemas, viewer messages."""
    from hat_eval.episode import episode_context, system_message
    from hat_eval.harness import render_tools
    from hat_eval.suites import suite_episodes

    texts: list[str] = []
    for suite in ("livestream", "variant"):
        for episode in suite_episodes(suite, split="train", n=40):
            ctx = episode_context(episode)
            texts.append(system_message(ctx).content)
            texts.append(json.dumps(render_tools(ctx.harness), ensure_ascii=False))
            texts.append(episode.case.message)
    return texts


def build_tiny_model(
    path: str | Path,
    *,
    vocab_size: int = 2048,
    hidden_size: int = 64,
    num_hidden_layers: int = 2,
    mtp_layers: int = 0,
    seed: int = 0,
) -> Path:
    """Write a tiny random Qwen3 checkpoint (config, weights, tokenizer, chat template) to ``path``.

    Args:
        path: The folder to write (created if missing).
        vocab_size: Size the BPE is trained to (the byte alphabet and special tokens included).
        hidden_size: Width of the model (4 attention heads, 2 key-value heads).
        num_hidden_layers: Decoder layers.
        mtp_layers: If above 0, that many multi-token-prediction layers' worth of ``mtp.*``
            tensors are added to the weights (what transformers drops when it loads a Qwen3.5).
        seed: Seed of the weights.
    """
    import torch
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast, Qwen3Config, Qwen3ForCausalLM
    from trl.chat_template_utils import qwen3_chat_template

    out = Path(path)
    out.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        special_tokens=list(SPECIAL_TOKENS),
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
        show_progress=False,
    )
    tok.train_from_iterator(_corpus(), trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.add_tokens(list(MARKUP_TOKENS))
    fast.chat_template = qwen3_chat_template
    fast.save_pretrained(out)
    heads = 4
    cfg = Qwen3Config(
        vocab_size=len(fast),
        hidden_size=hidden_size,
        intermediate_size=hidden_size * 2,
        num_hidden_layers=num_hidden_layers,
        num_attention_heads=heads,
        num_key_value_heads=2,
        head_dim=hidden_size // heads,
        max_position_embeddings=16384,
        eos_token_id=fast.eos_token_id,
        pad_token_id=fast.pad_token_id,
        bos_token_id=None,
        tie_word_embeddings=True,
    )
    torch.manual_seed(seed)
    model = Qwen3ForCausalLM(cfg)
    model.generation_config.eos_token_id = fast.eos_token_id
    model.generation_config.pad_token_id = fast.pad_token_id
    model.save_pretrained(out)
    if mtp_layers:
        _add_mtp(out, mtp_layers, hidden_size, seed)
    return out


def _add_mtp(path: Path, layers: int, hidden: int, seed: int) -> None:
    """Add Qwen3.5-style ``mtp.*`` tensors (and ``mtp_num_hidden_layers``) to a checkpoint."""
    import torch

    from ._mtp import write_mtp

    g = torch.Generator().manual_seed(seed + 1)
    tensors = {
        "mtp.fc.weight": torch.randn(hidden, 2 * hidden, generator=g),
        "mtp.norm.weight": torch.ones(hidden),
        "mtp.pre_fc_norm_embedding.weight": torch.ones(hidden),
        "mtp.pre_fc_norm_hidden.weight": torch.ones(hidden),
    }
    for i in range(layers):
        tensors[f"mtp.layers.{i}.mlp.up_proj.weight"] = torch.randn(2 * hidden, hidden, generator=g)
        tensors[f"mtp.layers.{i}.mlp.down_proj.weight"] = torch.randn(
            hidden, 2 * hidden, generator=g
        )
    write_mtp(path, tensors, {"mtp_num_hidden_layers": layers})
