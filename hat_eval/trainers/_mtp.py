"""Multi-token-prediction heads through fine-tuning: carry the base's ``mtp.*`` tensors over.

A Qwen3.5 / Qwen3.6 / Qwen3-Next checkpoint holds its MTP heads as ``mtp.*`` tensors beside the
decoder. transformers ignores them when it loads the model (``_keys_to_ignore_on_load_unexpected``)
so a checkpoint written after fine-tuning has none, and vLLM's ``--speculative-config
'{"method": "mtp"}'`` has nothing to draft with: the candidate loses the deployment speed-up
the load harness measures (``hat-eval loadtest mtp``).

:func:`carry_mtp` copies the base's ``mtp.*`` tensors (and the config keys naming them, e.g.
``mtp_num_hidden_layers``) into the written checkpoint, unchanged. They are then *stale*: trained
against the base's hidden states, not the fine-tuned ones, so they accept fewer drafts the further
training moved the model (a lower acceptance rate, hence less of the speed-up, never wrong
tokens: speculative decoding verifies every draft). Measure it with ``hat-eval loadtest mtp`` on
the trained checkpoint; re-fitting the heads on the new model's hidden states recovers it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hat_eval._outputs import write_text_atomic

MTP_PREFIX = "mtp."
"""Name prefix of the multi-token-prediction tensors in a checkpoint's weights."""
MTP_CONFIG_KEYS = (
    "mtp_num_hidden_layers",
    "num_nextn_predict_layers",
    "mtp_use_dedicated_embeddings",
)
"""Config keys that describe the MTP heads (copied with them, where the base has them)."""
MTP_FILE = "model-mtp.safetensors"
"""The file the carried tensors are written to, listed in the checkpoint's weight index."""


def _weight_files(path: Path) -> list[Path]:
    index = path / "model.safetensors.index.json"
    if index.is_file():
        files = set(json.loads(index.read_text(encoding="utf-8"))["weight_map"].values())
        return [path / f for f in sorted(files)]
    single = path / "model.safetensors"
    return [single] if single.is_file() else []


def mtp_tensors(path: str | Path) -> dict[str, Any]:
    """The ``mtp.*`` tensors of the checkpoint at ``path`` (empty when it has none)."""
    from safetensors import safe_open

    out: dict[str, Any] = {}
    for file in _weight_files(Path(path)):
        with safe_open(str(file), framework="pt") as f:
            for name in f.keys():  # noqa: SIM118 - safe_open is not a mapping
                if name.startswith(MTP_PREFIX):
                    out[name] = f.get_tensor(name)
    return out


def write_mtp(out: str | Path, tensors: dict[str, Any], config: dict[str, Any]) -> None:
    """Add MTP ``tensors`` and their ``config`` keys to the checkpoint written at ``out``.

    The tensors go to their own file, :data:`MTP_FILE`, and the weight index (written, or
    created from the single ``model.safetensors``) lists them, so loaders that read the index
    (vLLM) find them and transformers keeps ignoring them; ``config`` (e.g.
    ``{"mtp_num_hidden_layers": 1}``) is merged into ``config.json``.
    """
    from safetensors import safe_open
    from safetensors.torch import save_file

    out = Path(out)
    save_file(
        {k: v.contiguous() for k, v in tensors.items()}, str(out / MTP_FILE), {"format": "pt"}
    )
    index_path = out / "model.safetensors.index.json"
    if index_path.is_file():
        index = json.loads(index_path.read_text(encoding="utf-8"))
    else:
        weight_map: dict[str, str] = {}
        for file in _weight_files(out):
            with safe_open(str(file), framework="pt") as f:
                weight_map.update({name: file.name for name in f.keys()})  # noqa: SIM118
        index = {"metadata": {}, "weight_map": weight_map}
    index["weight_map"].update({name: MTP_FILE for name in tensors})
    write_text_atomic(index_path, json.dumps(index, indent=2, sort_keys=True) + "\n")
    config_path = out / "config.json"
    merged = {**json.loads(config_path.read_text(encoding="utf-8")), **config}
    write_text_atomic(config_path, json.dumps(merged, indent=2) + "\n")


def carry_mtp(base: str | Path, out: str | Path) -> int:
    """Copy the base checkpoint's ``mtp.*`` tensors and MTP config keys into ``out``.

    Written by :func:`write_mtp`. Returns the number of tensors carried (0: the base has no
    MTP heads, nothing is written).
    """
    base = Path(base)
    tensors = mtp_tensors(base)
    if not tensors:
        return 0
    base_config = json.loads((base / "config.json").read_text(encoding="utf-8"))
    write_mtp(out, tensors, {k: base_config[k] for k in MTP_CONFIG_KEYS if k in base_config})
    return len(tensors)
