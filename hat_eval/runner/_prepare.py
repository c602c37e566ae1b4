"""What a run resolves and checks before anything runs: the model, the grader, the changelog.

Each problem is one line raised as :class:`RunInputError` (``hat-eval run`` prints it and exits
2) or :class:`RunOptionError` (a usage error naming the option).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ._options import (
    DEFAULT_MAX_RETRIES,
    DEFAULT_REQUEST_TIMEOUT_S,
    RunInputError,
    RunOptionError,
)

if TYPE_CHECKING:
    from inspect_ai.model import Model


REFERENCE_MODEL = "hat/reference"
"""The embedded default model: the reference policy (see the README)."""


IN_PROCESS_PROVIDERS = ("hf", "hat", "mockllm")
"""Providers that generate in this process: no server to time out (a local checkpoint on a CPU
may take minutes a turn; the progress lines show it is running)."""


def resolve_model(model: str | None, engine: str, option: str = "--model") -> str:
    """Turn ``--model`` into an Inspect model string, checking local checkpoints.

    None is the reference policy; an existing directory is a Hugging Face checkpoint (``hf/``,
    or ``vllm/`` with ``--engine vllm``); a ``provider/model`` string passes through to Inspect
    unchanged. Anything else fails with one line before anything loads; ``option`` names the
    model in it (``--model``, or ``--judge`` for the grader). ``engine`` is one that
    :class:`~hat_eval.runner.RunOptions` has checked.
    """
    if engine == "vllm" and not os.environ.get("VLLM_BASE_URL"):
        from hat_eval._device import VLLM_INSTALL, vllm_installed

        if not vllm_installed():
            raise RunInputError(
                "--engine vllm: vllm is not installed and VLLM_BASE_URL is not set; "
                f"{VLLM_INSTALL} and start `vllm serve CHECKPOINT`, point VLLM_BASE_URL at a "
                "running server, or use --engine hf"
            )
    if model is None:
        return REFERENCE_MODEL
    path = Path(model).expanduser()
    looks_like_path = model.startswith((".", "/", "~")) or path.exists()
    if not looks_like_path:
        if "/" not in model:  # every Inspect model string is provider/name
            raise RunInputError(
                f"{option} {model}: no such directory and not an Inspect model string, expected "
                "a checkpoint folder (e.g. ./ckpt) or provider/model (e.g. openai-api/local/qwen)"
            )
        provider = model.split("/", 1)[0]
        known = model_providers()
        if provider not in known:
            raise RunInputError(
                f"{option} {model}: no such directory and {provider!r} is not an Inspect model "
                f"provider, expected a checkpoint folder or provider/model with one of "
                f"{', '.join(known)}"
            )
        return model
    if not path.is_dir():
        raise RunInputError(
            f"{option} {model}: no such checkpoint directory, expected a folder with "
            "config.json, tokenizer files and a chat template (or an Inspect model string)"
        )
    check_checkpoint(path)
    if engine == "vllm" and not os.environ.get("VLLM_BASE_URL"):
        raise RunInputError(
            f"--engine vllm: VLLM_BASE_URL is not set; start `vllm serve {path} "
            "--enable-auto-tool-choice --tool-call-parser hermes` and export "
            "VLLM_BASE_URL=http://127.0.0.1:8000/v1"
        )
    return checkpoint_model(path, engine)


def checkpoint_model(path: Path, engine: str = "hf") -> str:
    """The Inspect model string of the checkpoint folder ``path``: ``ENGINE/ABSOLUTE_PATH``.

    What ``--model DIR`` runs, and the model name its logs carry.
    """
    return f"{engine}/{path.resolve()}"


def check_mock_model(model_name: str) -> None:
    """Fail with one line when Inspect's ``mockllm`` cannot count tokens (offline), before a run.

    ``mockllm`` counts tokens with tiktoken's ``o200k_base`` file, downloaded on first use; without
    it every sample fails on a connection error. The embedded reference policy is the model that
    runs offline.
    """
    if not model_name.startswith("mockllm/"):
        return
    try:
        import tiktoken

        tiktoken.get_encoding("o200k_base")
    except Exception as err:  # tiktoken's download raises the HTTP library's errors
        raise RunInputError(
            f"--model {model_name}: Inspect's mock model counts tokens with tiktoken's o200k_base "
            f"file, which is not cached and could not be downloaded ({type(err).__name__}); "
            "leave --model out to run the embedded reference policy, which runs offline"
        ) from None


def model_providers() -> list[str]:
    """The names of the Inspect model providers installed (built in and by entry point)."""
    import inspect_ai  # noqa: F401  (registers the built-in providers)
    from inspect_ai._util.entrypoints import ensure_entry_points
    from inspect_ai._util.registry import registry_find, registry_unqualified_name

    ensure_entry_points()
    return sorted(
        {registry_unqualified_name(i) for i in registry_find(lambda i: i.type == "modelapi")}
    )


def generation_model_args(
    model_name: str, model_args: dict[str, Any], temperature: float | None
) -> dict[str, Any]:
    """``model_args`` plus greedy decoding for Inspect's ``hf/`` provider unless sampling is asked.

    That provider samples by default (``do_sample=True``), and transformers refuses a temperature
    of 0 when sampling, which IFEval asks for. So ``hf/`` models decode greedily unless
    ``--temperature`` is above 0 or ``-M do_sample=...`` says otherwise; other providers take the
    temperature as it is.
    """
    if not model_name.startswith("hf/") or "do_sample" in model_args:
        return model_args
    return {**model_args, "do_sample": bool(temperature)}


def check_load_args(model_args: dict[str, Any]) -> None:
    """Fail with one line when ``-M`` asks the machine for what it lacks, before any load.

    A CUDA ``device`` / ``device_map`` without CUDA, a bfloat16 ``dtype`` on a GPU without it
    (:func:`hat_eval._device.check_model_kwargs`), or an ``attn_implementation`` that loads a
    Hub kernel not cached while the Hub is offline (:func:`hat_eval._hub.check_kernel_request`).
    """
    from hat_eval._device import DeviceError, check_model_kwargs
    from hat_eval._hub import HubKernelError, check_kernel_request

    try:
        check_model_kwargs(model_args, where="-M")
        check_kernel_request(model_args, where="-M")
    except (DeviceError, HubKernelError) as err:
        raise RunInputError(str(err)) from None


def resolve_judge(
    judge: str | None,
    *,
    request_timeout: int = DEFAULT_REQUEST_TIMEOUT_S,
    max_retries: int = DEFAULT_MAX_RETRIES,
    max_tokens: int | None = None,
) -> Model | None:
    """The ``--judge`` grader, checked as ``--model`` is before anything runs (None: no judge).

    ``judge`` is a checkpoint folder (Inspect's ``hf/``, decoding greedily) or an Inspect model
    string. One that is not resolvable, a server that does not answer the pre-flight, or a
    provider whose package or variable is missing fails with one line naming ``--judge``. A
    grader behind a server has each request bounded as the model's are (:func:`server_bounds`);
    its replies are capped by the judge itself (:func:`hat_eval.judge._grader.judge_max_tokens` of
    the reply format) unless ``max_tokens`` (``--judge-max-tokens``) says otherwise.
    """
    from inspect_ai._util.error import PrerequisiteError
    from inspect_ai.model import GenerateConfig, get_model

    from hat_eval._hub import hub_kernel_setting

    from ._preflight import preflight

    if judge is None:
        return None
    name = resolve_model(judge, "hf", option="--judge")
    args = generation_model_args(name, {}, 0.0)  # the judge rates at temperature 0
    preflight(name, args, request_timeout, option="--judge")
    attempt_timeout, retries = server_bounds(name, request_timeout, max_retries)
    config = GenerateConfig(
        attempt_timeout=attempt_timeout, max_retries=retries, max_tokens=max_tokens
    )
    if config.model_dump(exclude_none=True):  # only what was set (a local grader: nothing)
        args = {**args, "config": config}
    try:
        with hub_kernel_setting():  # a local grader loads here (the command's flag holds)
            return get_model(name, **args)
    except PrerequisiteError as err:
        raise RunInputError(f"--judge {judge}: {one_line(err.message)}") from None


def server_bounds(
    model_name: str, request_timeout: int, max_retries: int
) -> tuple[int | None, int | None]:
    """Inspect's ``attempt_timeout`` and ``max_retries`` for a model behind a server (else None).

    Inspect retries a failed request to a server without end by default (a body that is not a
    chat completion was seen retried in silence for minutes); here each try has
    ``request_timeout`` seconds and a request is tried at most ``max_retries + 1`` times, so a
    server that stops answering fails its samples within about
    ``(max_retries + 1) * request_timeout`` seconds plus Inspect's backoff (3 s, then more).
    """
    if model_name.split("/", 1)[0] in IN_PROCESS_PROVIDERS:  # generated in this process
        return None, None
    return request_timeout, max_retries


def check_checkpoint(path: Path) -> None:
    """Fail with one line unless ``path`` is a checkpoint the suites can run.

    It needs a config, weights, a tokenizer and a chat template that renders tools, tool calls
    and tool results (:func:`hat_eval._checkpoint.check_tools_template`).
    """
    if not (path / "config.json").is_file():
        raise RunInputError(
            f"{path}: config.json is missing, expected a Hugging Face checkpoint directory"
        )
    if not any(path.glob("*.safetensors")) and not any(path.glob("pytorch_model*.bin")):
        raise RunInputError(
            f"{path}: no weights, expected *.safetensors or pytorch_model*.bin beside config.json "
            "(model.save_pretrained)"
        )
    tok_cfg = path / "tokenizer_config.json"
    if not ((path / "tokenizer.json").is_file() or tok_cfg.is_file()):
        raise RunInputError(
            f"{path}: no tokenizer (tokenizer.json or tokenizer_config.json), expected the "
            "tokenizer saved beside the weights (tokenizer.save_pretrained)"
        )
    template = (path / "chat_template.jinja").is_file() or (path / "chat_template.json").is_file()
    if not template and tok_cfg.is_file():
        try:
            template = bool(json.loads(tok_cfg.read_text(encoding="utf-8")).get("chat_template"))
        except ValueError:
            raise RunInputError(
                f"{tok_cfg}: not valid JSON, expected the tokenizer config"
            ) from None
    if not template:
        raise RunInputError(
            f"{path}: the tokenizer has no chat template, expected chat_template.jinja or a "
            "chat_template entry in tokenizer_config.json"
        )
    from hat_eval._checkpoint import CheckpointError, check_tools_template

    try:  # the suites need tools, tool calls and tool results rendered
        check_tools_template(path)
    except CheckpointError as err:
        raise RunInputError(str(err)) from None


def one_line(message: object) -> str:
    """A message from Inspect (text with rich markup, or any renderable) as one plain line."""
    from rich.text import Text

    text = Text.from_markup(message).plain if isinstance(message, str) else str(message)
    text = " ".join(text.split())
    return text.removeprefix("ERROR: ")


EVOLUTION = "evolution"
"""The suite that runs a harness changelog (``--harness-version``, ``--changelog``)."""


def check_changelog_options(
    names: list[str], version: str | None, changelog: Path | None
) -> str | None:
    """Validate ``--harness-version`` and ``--changelog`` before anything runs.

    Returns the changelog file to run (None: the suite's own). Exits 2 with one line naming
    the file and field when the changelog or a version's harness is invalid, or the version
    is not in the changelog; a usage error when the options are given without the suite.
    """
    if version is None and changelog is None:
        return None
    if EVOLUTION not in names:
        raise RunOptionError(
            f"--harness-version and --changelog apply to the {EVOLUTION} suite, not "
            f"{', '.join(names)}",
            "harness_version" if version is not None else "changelog",
        )
    from hat_eval.episode import check_changelog
    from hat_eval.harness import HarnessError, load_changelog
    from hat_eval.suites import suite_recipe

    path = changelog.resolve() if changelog is not None else suite_recipe(EVOLUTION).changelog
    assert path is not None
    try:
        loaded = load_changelog(path)
        check_changelog(loaded)
        loaded.select(version)
    except HarnessError as err:
        raise RunInputError(str(err)) from None
    return str(path) if changelog is not None else None
