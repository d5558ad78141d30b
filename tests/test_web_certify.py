"""Certified verdicts on the page (issue 56): POST /api/certify proves a puzzle's verdict and
sends the certificate (a base64 zip of its files); POST /api/verify checks one sent back,
and a tampered one is never answered 'proved'; bad input is a 4xx with one line. Then the
page itself: the prove button in Chromium, at desktop and phone size."""

from __future__ import annotations

import base64
import hashlib
import io
import json
import zipfile
from pathlib import Path

import pytest
from conftest import PHONE, open_page

from sudokulab import certificates as certify_package
from sudokulab.check import check
from sudokulab.formats.text import parse
from sudokulab.puzzle import line_of

EASY = "..3.2.6..9..3.5..1..18.64....81.29..7.......8..67.82....26.95..8..2.3..9..5.1.3.."
CLASH = "11" + "." * 79
FOUR = "1..." + "." * 12           # a 4x4 with many solutions: counted exactly, with a proof


@pytest.fixture(scope="module")
def client():
    """The app with its helpers, for the whole module (a helper's imports once)."""
    from fastapi.testclient import TestClient

    from sudokulab.web.app import create_app

    with TestClient(create_app()) as client:
        yield client


@pytest.fixture(scope="module")
def hard(client, top95) -> tuple[str, dict]:
    """top95's first puzzle (no singles solve it) and its /api/certify answer."""
    puzzle = line_of(top95[0][0].givens)
    answer = client.post("/api/certify", json={"puzzle": puzzle, "tag": "t:1:1"})
    assert answer.status_code == 200
    return puzzle, answer.json()


def files(answer: dict) -> dict[str, bytes]:
    """The certificate's files, by name, from an answer's zip."""
    data = base64.b64decode(answer["certificate"]["zip"])
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def zipped(found: dict[str, bytes]) -> str:
    """Files as the base64 zip /api/verify takes."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for name, data in found.items():
            archive.writestr(name, data)
    return base64.b64encode(buffer.getvalue()).decode()


def tampered(found: dict[str, bytes], proof: list[str] | None = None, **changes) -> str:
    """The certificate with its JSON keys changed and/or its proof replaced (the proof's
    sha256 updated, so that the proof itself is judged), zipped."""
    found = dict(found)
    [json_name] = [name for name in found if name.endswith(".json")]
    data = {**json.loads(found[json_name]), **changes}
    if proof is not None:
        text = ("\n".join(proof) + "\n").encode()
        found[data["drat"]["file"]] = text
        data["drat"] = {**data["drat"], "sha256": hashlib.sha256(text).hexdigest()}
    found[json_name] = json.dumps(data).encode()
    return zipped(found)


def proof_of(found: dict[str, bytes]) -> list[str]:
    """The proof's lines."""
    [name] = [name for name in found if name.endswith(".drat")]
    return found[name].decode().splitlines()


def test_a_unique_puzzle_is_proved_and_its_certificate_holds_its_files(hard, top95):
    puzzle, answer = hard
    assert (answer["status"], answer["verdict"], answer["said"]) == (
        "proved", "unique", "proved: one solution")
    assert answer["tag"] == "t:1:1" and answer["lemmas"] > 0
    assert tuple(answer["solutions"][0]) == tuple(top95[0][1])
    assert not check(parse(puzzle), tuple(answer["solutions"][0]))
    names = sorted(Path(name).suffix for name in files(answer))
    assert names == [".cnf", ".drat", ".json"]
    assert answer["certificate"]["name"].endswith(".zip")


def test_the_certificate_sent_back_is_verified(client, hard):
    _, answer = hard
    back = client.post("/api/verify", json={"certificate": answer["certificate"]["zip"],
                                            "tag": "t:1:2"}).json()
    assert (back["status"], back["verdict"], back["tag"]) == ("proved", "unique", "t:1:2")


@pytest.mark.parametrize("puzzle, verdict, said, count", [
    (CLASH, "none", "proved: no solution", 0),
    (FOUR, "multiple", "two solutions shown", 72),
])
def test_no_solution_and_two_solutions_are_said_so(client, puzzle, verdict, said, count):
    answer = client.post("/api/certify", json={"puzzle": puzzle}).json()
    assert (answer["status"], answer["verdict"], answer["said"]) == ("proved", verdict, said)
    assert answer["count"] == count
    if verdict == "multiple":
        one, two = answer["solutions"]
        assert one != two and not check(parse(puzzle), tuple(one))
        assert not check(parse(puzzle), tuple(two))


def variants(found: dict[str, bytes], top95) -> dict[str, str]:
    """Tampered certificates, each of which must be rejected."""
    lines = proof_of(found)
    data = json.loads(next(v for k, v in found.items() if k.endswith(".json")))
    givens = [row[:] for row in data["puzzle"]["givens"]]
    r, c = next((r, c) for r in range(9) for c in range(9) if givens[r][c])
    givens[r][c] = givens[r][c] % 9 + 1
    other = "".join(map(str, top95[1][1]))
    return {
        "the empty clause dropped": tampered(found, proof=lines[:-1]),
        "every lemma dropped": tampered(found, proof=["0"]),
        "a given changed": tampered(found, puzzle={**data["puzzle"], "givens": givens}),
        "the solution swapped": tampered(found, solutions=[other]),
        "the verdict changed": tampered(found, verdict="none", solutions=[], count=0),
        "the proof changed, its hash not": zipped({**found, next(
            k for k in found if k.endswith(".drat")): "\n".join(lines[:-1]).encode()}),
    }


def test_a_tampered_certificate_is_never_answered_proved(client, hard, top95):
    _, answer = hard
    for what, certificate in variants(files(answer), top95).items():
        back = client.post("/api/verify", json={"certificate": certificate})
        assert back.status_code == 200, what
        data = back.json()
        assert (data["status"], data["verdict"], data["said"]) == ("rejected", None,
                                                                   "not proved"), what
        assert data["message"].startswith("the certificate is rejected: ")
        assert "\n" not in data["message"]


def test_a_certificate_another_proof_was_swapped_into_is_rejected(client, hard, top95):
    _, answer = hard
    other = client.post("/api/certify", json={"puzzle": line_of(top95[1][0].givens)}).json()
    back = client.post("/api/verify", json={
        "certificate": tampered(files(answer), proof=proof_of(files(other)))}).json()
    assert back["status"] == "rejected" and "lemma" in back["message"]


def test_a_certificate_that_fails_its_check_is_never_shown_proved(monkeypatch, tmp_path):
    """The route's own path: the certificate made is verified before anything is said;
    one whose proof does not hold (here: its empty clause cut) is answered 'rejected'."""
    from sudokulab.certificates import certificate as made
    from sudokulab.web import certificates

    def cut(puzzle, folder, name, **options):
        written = made.certify(puzzle, folder, name, **options)
        data = json.loads(written.json_path.read_text())
        proof = written.drat_path.read_text().replace("\n0\n", "\n")
        written.drat_path.write_text(proof)
        data["drat"]["sha256"] = hashlib.sha256(proof.encode()).hexdigest()
        written.json_path.write_text(json.dumps(data))
        return written

    monkeypatch.setattr(certify_package, "certify", cut)
    answer = certificates.certified(parse(CLASH))
    assert (answer["status"], answer["verdict"], answer["said"]) == ("rejected", None,
                                                                     "not proved")
    assert "empty clause" in answer["message"]


@pytest.mark.parametrize("route, body, status, says", [
    ("/api/certify", {"puzzle": "12x"}, 400, "wrong length"),
    ("/api/certify", {"puzzle": EASY, "timeout": 0}, 422, "timeout"),
    ("/api/certify", {}, 422, "puzzle"),
    ("/api/verify", {"certificate": "not base64!"}, 400, "not a base64 zip"),
    ("/api/verify", {"certificate": base64.b64encode(b"PK not a zip").decode()}, 400,
     "not a base64 zip"),
    ("/api/verify", {"certificate": zipped({"a.cnf": b"p cnf 1 1\n1 0\n"})}, 400,
     "0 .json files"),
    ("/api/verify", {"certificate": zipped({"a.json": b"[1, 2]"})}, 400,
     "not a sudokulab certificate"),
    ("/api/verify", {"certificate": zipped({"../../a.json": b"{}"})}, 400,
     "not a sudokulab certificate"),
])
def test_bad_input_is_a_4xx_with_one_line(client, route, body, status, says):
    answer = client.post(route, json={**body, "tag": "bad"})
    assert answer.status_code == status
    data = answer.json()
    assert says in data["error"] and "\n" not in data["error"]
    assert data["tag"] == "bad"
    assert "sudokulab-verify" not in data["error"]  # the zip's names, not the server's folder
    if "not a sudokulab certificate" in says:
        assert data["error"].startswith("a.json: ")


def test_the_prove_button_shows_proved_with_the_certificate(page, tmp_path):
    paste(page, EASY)
    page.click("#prove")
    page.wait_for_selector("#prove-status[data-status='proved']", timeout=120_000)
    assert page.text_content("#prove-status").startswith("proved: one solution")
    link = page.locator("#prove-download")
    assert link.is_visible() and link.get_attribute("download").endswith(".zip")
    with page.expect_download() as download:
        link.click()
    saved = tmp_path / "certificate.zip"
    download.value.save_as(saved)
    with zipfile.ZipFile(saved) as archive:
        assert sorted(Path(n).suffix for n in archive.namelist()) == [".cnf", ".drat", ".json"]
    page.screenshot(path=str(tmp_path / "prove-desktop.png"))


def test_two_solutions_are_shown_and_a_new_puzzle_forgets_them(page, tmp_path):
    paste(page, "." * 16)
    page.click("#prove")
    page.wait_for_selector("#prove-status[data-status='proved']", timeout=120_000)
    assert page.text_content("#prove-status").startswith("two solutions shown (exactly 288")
    assert page.locator("#prove-solutions pre").count() == 2
    page.locator("#prove-solutions").scroll_into_view_if_needed()
    page.screenshot(path=str(tmp_path / "prove-two.png"))
    paste(page, EASY)
    assert page.text_content("#prove-status") == ""
    assert page.is_hidden("#prove-download") and page.is_hidden("#prove-solutions")


def test_the_prove_button_on_a_phone(phone, tmp_path):
    paste(phone, EASY)
    phone.click("#prove")
    phone.wait_for_selector("#prove-status[data-status='proved']", timeout=120_000)
    assert phone.locator("#prove-download").is_visible()
    phone.screenshot(path=str(tmp_path / "prove-phone.png"))


def test_each_tab_tags_its_requests_with_an_id_of_its_own(contexts, server):
    """Issue 54: two tabs (and the setter's bench) never send the same tag."""
    tags = []
    for _ in range(2):
        for tab in open_page(contexts(PHONE), server):
            tab.on("request", lambda r: tags.append(json.loads(r.post_data)["tag"])
                   if r.url.endswith("/api/certify") else None)
            paste(tab, EASY)
            with tab.expect_response("**/api/certify"):
                tab.click("#prove")
    first, second = (tag.split(":") for tag in tags)
    assert len(first) == 3 and len(second) == 3
    assert first[0] != second[0] and len(first[0]) >= 16  # a random id per page load


def paste(page, text: str) -> None:
    """Load a puzzle through the paste box."""
    loads = int(page.get_attribute("body", "data-loads") or 0)
    page.fill("#paste", text)
    page.click("#load-paste")
    page.wait_for_function(f"Number(document.body.dataset.loads) > {loads}")
