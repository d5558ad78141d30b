"""Certificates, bounded and trimmed (issue 56): POST /api/certify stops its helper process
at the request's timeout and says so; `solve --certify DIR --trim` writes each proof's
trimmed core beside it, which verify replays."""

from __future__ import annotations

import json
import multiprocessing

from sudokulab.cli import main

HARD = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......"
EMPTY_25 = "." * 625  # 25x25 with no givens: a thousand grids to list before 'multiple'


def helpers() -> list:
    """The web helper processes alive in this process's children."""
    return [p for p in multiprocessing.active_children()
            if p.name == "sudokulab-tutor" and p.is_alive()]


def test_a_certificate_past_its_timeout_is_stopped_and_said_so():
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app

    with TestClient(create_app()) as client:
        assert not helpers()
        answer = client.post("/api/certify", json={"puzzle": EMPTY_25, "timeout": 0.1})
        assert answer.status_code == 200
        body = answer.json()
        assert body["status"] == "timeout" and "helper was stopped" in body["message"]
        assert "certificate" not in body and body.get("verdict") is None
        assert not helpers()  # the certifying process is gone, not left working
        assert client.app.state.tutor.live == 0


def test_a_timeout_past_the_servers_bound_is_refused():
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app
    from sudokulab.web.models import MAX_TIMEOUT

    with TestClient(create_app()) as client:
        answer = client.post("/api/certify", json={"puzzle": HARD, "timeout": MAX_TIMEOUT + 1})
        assert answer.status_code == 422 and "timeout" in answer.text
        assert not helpers()


def test_trim_writes_the_core_which_verify_replays(tmp_path, capsys):
    folder = tmp_path / "certs"
    assert main(["solve", "-b", "sat", "--certify", str(folder), "--trim", HARD]) == 0
    data = json.loads((folder / "puzzle-1.json").read_text())
    core = (folder / "puzzle-1.core.drat").read_text().splitlines()
    assert data["core"]["file"] == "puzzle-1.core.drat"
    assert 0 < data["core"]["lemmas"] < data["drat"]["lemmas"]
    assert core[-1].strip() == "0"  # the empty clause: still a whole refutation
    from sudokulab.certificates import verify

    assert verify(folder / "puzzle-1.json").core == data["core"]["lemmas"]


def test_without_trim_there_is_no_core(tmp_path):
    folder = tmp_path / "certs"
    assert main(["solve", "-b", "sat", "--certify", str(folder), HARD]) == 0
    assert not list(folder.glob("*.core.drat"))
    assert json.loads((folder / "puzzle-1.json").read_text()).get("core") is None


def test_trim_without_certify_is_refused(capsys):
    assert main(["solve", "--trim", HARD]) == 2
    assert "--trim trims the proof of a certificate: give --certify DIR" in capsys.readouterr().err
