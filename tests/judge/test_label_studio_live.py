"""A live round trip through a real Label Studio server (slow, opt-in: ``--label-studio VENV``).

Label Studio 1.23 runs from its own virtual environment (``scripts/label-studio-venv.sh VENV``)
on loopback with a temporary data directory. Authentication uses personal access tokens: new
organizations have legacy tokens switched off, so each user logs in through the web form,
creates a personal access token (``POST /api/token/``, a JWT refresh token) and trades it for an
access token (``POST /api/token/refresh/``) sent as ``Authorization: Bearer``. Two annotators:
the admin made by ``label-studio start --username`` and a second user who signs up through the
organization's invite link. Each project is created with our labelling configuration, our
exported tasks are imported through the API, both annotators submit annotations through the API,
and the JSON export is read back by ``hat-eval study analyze`` and ``hat-eval judge agreement``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from hat_eval.cli import app

pytestmark = pytest.mark.slow

ADMIN = "admin@example.com"
SECOND = "rater2@example.com"
PASSWORD = "hat-eval-Pass-123"
LEGACY_TOKEN = "hat-eval-legacy-token-0001"
RATED = ("factual_accuracy", "compliance")
RATING_CONFIG = (
    '<View>\n  <Text name="message" value="$message"/>\n  <Text name="answer" value="$answer"/>\n'
    + "".join(f'  <Rating name="{d}" toName="answer" maxRating="5"/>\n' for d in RATED)
    + "</View>\n"
)
runner = CliRunner()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    base: str
    log: Path


@pytest.fixture(scope="module")
def server(label_studio_venv: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    data = tmp_path_factory.mktemp("label-studio-data")
    port = _free_port()
    env = {
        **os.environ,
        "LABEL_STUDIO_BASE_DATA_DIR": str(data),
        "SENTRY_DSN": "",
        "FRONTEND_SENTRY_DSN": "",
        "COLLECT_ANALYTICS": "false",
    }
    env.pop("VIRTUAL_ENV", None)
    log = data / "server.log"
    command = [
        str(label_studio_venv / "bin" / "label-studio"),
        "start",
        "--no-browser",
        "--internal-host",
        "127.0.0.1",
        "--port",
        str(port),
        "--username",
        ADMIN,
        "--password",
        PASSWORD,
        "--user-token",
        LEGACY_TOKEN,
    ]
    with log.open("wb") as out:
        proc = subprocess.Popen(command, env=env, stdout=out, stderr=subprocess.STDOUT)
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 300
        while True:
            if proc.poll() is not None:
                pytest.fail(
                    f"label-studio exited with {proc.returncode}: {log.read_text()[-3000:]}"
                )
            try:
                if httpx.get(f"{base}/health", timeout=5).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(
                    f"label-studio did not answer /health in 300 s: {log.read_text()[-3000:]}"
                )
            time.sleep(2)
        yield Server(base, log)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=30)


def _form_post(client: httpx.Client, path: str, fields: dict[str, str]) -> httpx.Response:
    client.get(path)
    csrf = client.cookies.get("csrftoken")
    assert csrf, f"no CSRF cookie from {path}"
    return client.post(
        path,
        data={**fields, "csrfmiddlewaretoken": csrf},
        headers={"Referer": f"{client.base_url}{path}"},
    )


def _bearer(server: Server, session: httpx.Client) -> httpx.Client:
    """A personal access token (JWT refresh) for the logged-in user, traded for an access token."""
    created = session.post(
        "/api/token/",
        headers={"X-CSRFToken": session.cookies.get("csrftoken") or "", "Referer": server.base},
    )
    assert created.status_code == 201, created.text
    refresh = created.json()["token"]
    access = httpx.post(f"{server.base}/api/token/refresh/", json={"refresh": refresh}, timeout=60)
    assert access.status_code == 200, access.text
    return httpx.Client(
        base_url=server.base,
        headers={"Authorization": f"Bearer {access.json()['access']}"},
        timeout=120,
    )


@pytest.fixture(scope="module")
def users(server: Server) -> Iterator[dict[str, Any]]:
    admin_session = httpx.Client(base_url=server.base, follow_redirects=True, timeout=120)
    _form_post(admin_session, "/user/login/", {"email": ADMIN, "password": PASSWORD})
    assert admin_session.cookies.get("sessionid"), "admin login failed"
    admin = _bearer(server, admin_session)
    invite = admin.get("/api/invite")
    assert invite.status_code == 200, invite.text
    second_session = httpx.Client(base_url=server.base, follow_redirects=True, timeout=120)
    signup = _form_post(
        second_session, invite.json()["invite_url"], {"email": SECOND, "password": PASSWORD}
    )
    assert second_session.cookies.get("sessionid"), f"signup failed: {signup.status_code}"
    second = _bearer(server, second_session)
    ids = {
        "admin": admin.get("/api/current-user/whoami").json()["id"],
        "second": second.get("/api/current-user/whoami").json()["id"],
    }
    yield {"admin": admin, "second": second, "ids": ids}
    for client in (admin_session, admin, second_session, second):
        client.close()


def test_legacy_token_is_refused_for_a_new_organization(server: Server) -> None:
    response = httpx.get(
        f"{server.base}/api/projects/",
        headers={"Authorization": f"Token {LEGACY_TOKEN}"},
        timeout=60,
    )
    assert response.status_code == 401
    assert "legacy token" in response.text.lower()


def _project(client: httpx.Client, title: str, config: str, tasks: list[dict[str, Any]]) -> int:
    created = client.post("/api/projects/", json={"title": title, "label_config": config})
    assert created.status_code == 201, created.text
    project = int(created.json()["id"])
    imported = client.post(f"/api/projects/{project}/import", json=tasks)
    assert imported.status_code == 201, imported.text
    assert imported.json()["task_count"] == len(tasks)
    return project


def _task_ids(client: httpx.Client, project: int) -> dict[str, int]:
    listed = client.get("/api/tasks/", params={"project": project, "page_size": 1000})
    assert listed.status_code == 200, listed.text
    body = listed.json()
    tasks = body["tasks"] if isinstance(body, dict) else body
    return {t["data"]["sample_id"]: int(t["id"]) for t in tasks}


def _annotate(client: httpx.Client, task: int, result: list[dict[str, Any]]) -> None:
    posted = client.post(f"/api/tasks/{task}/annotations/", json={"result": result})
    assert posted.status_code == 201, posted.text


def _export(client: httpx.Client, project: int, path: Path) -> list[dict[str, Any]]:
    exported = client.get(f"/api/projects/{project}/export", params={"exportType": "JSON"})
    assert exported.status_code == 200, exported.text
    path.write_bytes(exported.content)
    tasks = json.loads(exported.content)
    assert isinstance(tasks, list)
    return tasks


def test_study_round_trip(users: dict[str, Any], logs: dict[str, Any], tmp_path: Path) -> None:
    study = tmp_path / "study"
    exported = runner.invoke(
        app,
        ["study", "export", "--a", str(logs["a"]), "--b", str(logs["b"]), "--n", "6"]
        + ["--seed", "3", "--format", "label-studio", "--out", str(study)],
    )
    assert exported.exit_code == 0, exported.output
    tasks = json.loads((study / "tasks.json").read_text())
    config = (study / "label_config.xml").read_text()
    admin, second = users["admin"], users["second"]
    project = _project(admin, "hat-eval study", config, tasks)
    ids = _task_ids(admin, project)
    assert sorted(ids) == sorted(t["data"]["sample_id"] for t in tasks)
    # the admin always picks the left answer; the second rater picks right, then tie, in turn
    picks = {"admin": {}, "second": {}}
    for n, sample_id in enumerate(sorted(ids)):
        for who, side in (("admin", "left"), ("second", ("right", "tie")[n % 2])):
            picks[who][sample_id] = side
            _annotate(
                users[who],
                ids[sample_id],
                [
                    {
                        "from_name": "preference",
                        "to_name": "message",
                        "type": "choices",
                        "value": {"choices": [side]},
                    }
                ],
            )
    export = tmp_path / "study_export.json"
    rows = _export(second, project, export)
    completed = {a["completed_by"] for t in rows for a in t["annotations"]}
    assert completed == {users["ids"]["admin"], users["ids"]["second"]}

    analyzed = runner.invoke(
        app,
        ["study", "analyze", "--labels", str(export), "--key", str(study / "key.json")]
        + ["--out", str(tmp_path / "analysis")],
    )
    assert analyzed.exit_code == 0, analyzed.output
    report = json.loads((tmp_path / "analysis" / "study.json").read_text())
    key = json.loads((study / "key.json").read_text())["items"]
    assert report["n_items"] == len(tasks) and report["n_votes"] == 2 * len(tasks)
    assert report["n_annotators"] == 2 and report["n_multi_rated"] == len(tasks)
    for item in report["items"]:
        a_side = key[item["sample_id"]]["a_side"]
        votes = sorted(item["votes"].values())
        expected = sorted(
            "tie" if side == "tie" else ("A" if side == a_side else "B")
            for side in (picks["admin"][item["sample_id"]], picks["second"][item["sample_id"]])
        )
        assert votes == expected


def test_ratings_round_trip_into_judge_agreement(
    users: dict[str, Any], logs: dict[str, Any], tmp_path: Path
) -> None:
    from inspect_ai.log import read_eval_log

    log = read_eval_log(str(logs["a"]))
    tasks = [
        {"data": {"sample_id": str(s.id), "message": str(s.input), "answer": s.output.completion}}
        for s in log.samples or []
    ]
    admin = users["admin"]
    project = _project(admin, "hat-eval ratings", RATING_CONFIG, tasks)
    ids = _task_ids(admin, project)
    submitted: dict[tuple[str, str, str], int] = {}
    for n, sample_id in enumerate(sorted(ids)):
        for who, offset in (("admin", 0), ("second", n % 2)):
            result = []
            for k, dim in enumerate(RATED):
                rating = 1 + (n + k) % 4 + offset
                submitted[(sample_id, dim, who)] = rating
                result.append(
                    {
                        "from_name": dim,
                        "to_name": "answer",
                        "type": "rating",
                        "value": {"rating": rating},
                    }
                )
            _annotate(users[who], ids[sample_id], result)
    export = tmp_path / "ratings_export.json"
    _export(admin, project, export)
    scores = tmp_path / "judge.csv"
    scores.write_text(
        "sample_id,dimension,rating\n"
        + "".join(
            f"{s},{d},{r}\n" for (s, d, who), r in sorted(submitted.items()) if who == "admin"
        )
    )
    result = runner.invoke(
        app,
        ["judge", "agreement", "--labels", str(export), "--scores", str(scores)]
        + ["--out", str(tmp_path / "agreement"), "--n-boot", "100"],
    )
    assert result.exit_code == 0, result.output
    report = json.loads((tmp_path / "agreement" / "agreement.json").read_text())
    for dim in RATED:
        entry = report["dimensions"][dim]
        assert entry["n_items"] == len(tasks) and entry["n_annotators"] == 2
        assert entry["n_human_labels"] == 2 * len(tasks)
        assert entry["krippendorff_alpha_humans"] is not None
        # the judge copies the admin, so it agrees exactly with one of the two raters per item
        same = sum(submitted[(s, dim, "admin")] == submitted[(s, dim, "second")] for s in ids)
        assert entry["exact_agreement"] == pytest.approx((len(ids) + same) / (2 * len(ids)))
    calibrated = runner.invoke(
        app,
        ["judge", "calibrate", "--labels", str(export), "--scores", str(scores)]
        + ["--out", str(tmp_path / "calibration"), "--n-boot", "100", "--folds", "3"],
    )
    assert calibrated.exit_code == 0, calibrated.output
    doc = json.loads((tmp_path / "calibration" / "calibration.json").read_text())
    assert set(doc["dimensions"]) == set(RATED)
    for dim in RATED:
        assert doc["dimensions"][dim]["n_items"] == len(tasks)
        assert doc["dimensions"][dim]["held_out"]["after"] is not None
