import json
from dataclasses import fields, replace
from pathlib import Path

import pytest

from hat_eval.loadtest import ClientConfig, MtpConfig, SweepConfig, run_level, write_run_files
from hat_eval.loadtest._config import (
    locust_fields,
    with_overrides,
)
from hat_eval.loadtest._option_fields import (
    ConfigError,
    option_flag,
)
from hat_eval.loadtest._runner import LOCUSTFILE, LoadTestError, locust_command


def sweep(tmp_path, **kw):
    client = kw.pop("client", ClientConfig("http://127.0.0.1:9", "m"))
    return SweepConfig(client, out=tmp_path, **kw)


@pytest.mark.parametrize("cls", [ClientConfig, SweepConfig, MtpConfig])
def test_every_option_carries_its_help(cls):
    for f in fields(cls):
        assert f.metadata["help"].strip(), f.name


@pytest.mark.parametrize(
    ("build", "needle"),
    [
        (lambda: ClientConfig("h", "m", stall_timeout_s=0), "stall_timeout_s (0) must be at least"),
        (lambda: ClientConfig("h", "m", max_tokens=0), "max_tokens (0) must be at least 1"),
        (lambda: sweep(Path("o"), users=()), "one or more positive concurrency levels"),
        (lambda: sweep(Path("o"), users=(4, 0)), "one or more positive"),
        (lambda: sweep(Path("o"), duration_s=0.5), "duration_s (0.5) must be at least 1"),
        (
            lambda: sweep(Path("o"), prompts=Path("p.jsonl"), messages_source="m:f"),
            "exclude each other",
        ),
        (
            lambda: MtpConfig(ClientConfig("h", "m"), ClientConfig("h", "m"), confidence=1.0),
            "confidence (1) must be below 1",
        ),
    ],
)
def test_bad_values_name_the_field_the_value_and_the_rule(build, needle):
    with pytest.raises(ConfigError, match=needle.replace("(", r"\(").replace(")", r"\)")):
        build()


def test_config_json_round_trips_without_the_api_key(tmp_path):
    client = ClientConfig(
        "http://127.0.0.1:9", "m", max_tokens=9, stream_usage=False, api_key="sk-secret"
    )
    cfg = sweep(tmp_path, client=client, users=(1, 3), harness=Path("h.yaml"), max_requests=7)
    path = cfg.write()
    assert path == tmp_path / "config.json"
    text = path.read_text()
    assert "sk-secret" not in text and "api_key" not in text
    data = json.loads(text)
    assert data["client"]["max_tokens"] == 9 and data["users"] == [1, 3]
    back = SweepConfig.read(path)
    assert back == replace(cfg, client=replace(client, api_key=None))


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("nope", "not JSON"),
        ("[]", "expected a JSON object"),
        ('{"client": {"host": "h", "model": "m"}, "speed": 1}', "unknown field speed"),
        ('{"client": {"host": "h"}}', "missing field client.model"),
        ('{"client": {"host": "h", "model": "m", "max_tokens": "many"}}', "client.max_tokens"),
        ('{"client": {"host": "h", "model": "m"}, "users": [1, 0]}', "positive concurrency"),
    ],
)
def test_a_bad_config_file_names_the_file_and_the_field(tmp_path, text, needle):
    path = tmp_path / "config.json"
    path.write_text(text)
    with pytest.raises(ConfigError, match=needle) as err:
        SweepConfig.read(path)
    assert str(path) in str(err.value)
    with pytest.raises(ConfigError, match="cannot read"):
        SweepConfig.read(tmp_path / "none.json")


def test_flags_derive_from_field_names():
    assert option_flag("stall_timeout_s") == "--stall-timeout"
    assert option_flag("slo_p95_s") == "--slo-p95"
    assert option_flag("messages_source") == "--messages-source"


def test_locust_options_override_the_file_with_values_of_the_fields_types(tmp_path):
    cfg = sweep(tmp_path, client=ClientConfig("h", "m", max_tokens=9))
    # the Locust web UI hands custom options back as strings; "" and None are left unset
    out = with_overrides(
        cfg,
        {"max_tokens": "64", "stream_usage": "false", "tokenizer": "", "temperature": None},
    )
    assert out.client.max_tokens == 64 and out.client.stream_usage is False
    assert out.client.temperature == 0.0 and out.tokenizer is None and out.client.model == "m"
    with pytest.raises(ConfigError, match="max_tokens"):
        with_overrides(cfg, {"max_tokens": "many"})
    names = {name for _cls, name, _tp in locust_fields()}
    assert {"model", "max_tokens", "stall_timeout_s", "harness", "max_requests"} <= names
    assert not {"host", "users", "duration_s", "out", "workers"} & names  # Locust's own options


def test_locust_gets_only_the_config_path_and_its_own_options(tmp_path):
    cfg = sweep(tmp_path, users=(4,), workers=2, max_requests=9, tokenizer="tok")
    cmd = locust_command(cfg, 4)
    assert cmd[cmd.index("-f") + 1] == str(LOCUSTFILE)
    assert LOCUSTFILE.is_file() and LOCUSTFILE.parent.name == "loadtest"  # inside the package
    assert cmd[cmd.index("--hat-config") + 1] == str(tmp_path / "config.json")
    assert cmd[cmd.index("--raw-dir") + 1] == str(tmp_path / "users-4" / "raw")
    ours = {"--" + a.split("--")[1] for a in cmd if a.startswith("--")} & {
        option_flag(name) for _cls, name, _tp in locust_fields()
    }
    assert not ours  # no option is declared twice: the children read them from config.json
    assert cfg.requests_per_process(2) == 5 and cfg.requests_per_process(1) == 9


def test_a_level_needs_the_run_files(tmp_path):
    cfg = sweep(tmp_path, messages_source="hat_eval.loadtest:builtin_questions", n_prompts=2)
    with pytest.raises(LoadTestError, match="write_run_files"):
        run_level(cfg, 1)
    path = write_run_files(cfg)
    assert path == cfg.config_path and len(cfg.prompts_path.read_text().splitlines()) == 2
