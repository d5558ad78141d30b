"""A compare run is citable (issue 52): meta.json holds the commit, versions, machine,
load, mode, seed and input hash; summary.csv is numeric; CITATION.cff and LICENSE are
there; `compare --cite` prints how to cite a run and refuses a folder with none."""

from __future__ import annotations

import csv
import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from sudokulab import datasets
from sudokulab.cli import main
from sudokulab.harness import provenance

ROOT = Path(__file__).resolve().parent.parent


def pyproject_version() -> str:
    """The version pyproject.toml declares."""
    import tomllib

    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]


def git(*args: str) -> str:
    """git's answer about this checkout."""
    return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small real run with repeats (so that it has intervals): its folder."""
    folder = tmp_path_factory.mktemp("cited") / "run"
    assert main(["compare", "--dataset", "top95", "--sample", "3", "--backends", "norvig",
                 "--repeat", "2", "--jobs", "1", "--out", str(folder)]) == 0
    return folder


def test_meta_json_holds_what_a_reader_needs_to_cite_the_run(run):
    meta = json.loads((run / "meta.json").read_text())
    about = meta["environment"]
    assert about["source"]["commit"] == git("rev-parse", "HEAD")
    assert isinstance(about["source"]["dirty"], bool)
    short = about["source"]["commit"][:7]
    assert about["source"]["version"] in (f"{pyproject_version()}+g{short}",
                                          f"{pyproject_version()}+g{short}.dirty")
    assert about["source"]["version"].endswith(".dirty") == about["source"]["dirty"]
    import numpy
    import scipy

    versions = about["versions"]
    assert versions["numpy"] == numpy.__version__ and versions["scipy"] == scipy.__version__
    assert {"python-sat", "z3-solver", "clingo", "ortools", "highspy", "cpmpy", "pychoco",
            "minizinc", "janus-swi", "pandas", "matplotlib", "dask", "distributed",
            "minizinc (executable)", "SWI-Prolog"} <= set(versions)
    assert about["engines"] == {"norvig": f"Python {versions['python']}"}
    machine = about["machine"]
    assert machine["cpu"] and machine["cores"] >= 1
    assert machine["memory MiB"] >= machine["memory available MiB"] > 0
    assert len(about["load before"]) == len(about["load after"]) == 3
    assert about["mode"] == "cold" and meta["seed"] == 0
    dataset = (datasets.DATA / "top95.txt.gz").read_bytes()
    assert about["input"] == {"dataset": "top95",
                              "sha256": hashlib.sha256(dataset).hexdigest()}
    assert meta["sessions"][0]["finished"]  # what readers read before stays
    assert about["versions"]["python"] and machine["usable cores"] >= 1


def test_summary_csv_is_numbers_with_each_interval_in_two_columns(run):
    with (run / "summary.csv").open(newline="") as rows:
        row = next(csv.DictReader(rows))
    assert row.pop("backend") == "norvig"
    numbers = {key: float(value) for key, value in row.items() if value != ""}
    assert "–" not in "".join(row.values())
    for figure in ("puzzles/s", "median ms"):  # every interval holds its figure
        low, high = numbers[f"{figure} 95% CI low"], numbers[f"{figure} 95% CI high"]
        assert low <= numbers[figure] <= high
    assert numbers["spread %"] >= 0  # (slowest - fastest) / median: may pass 100 %


def test_the_footer_names_the_commit_the_mode_and_the_cite_command(run):
    commit = json.loads((run / "meta.json").read_text())["environment"]["source"]["commit"]
    footer = (run / "summary.md").read_text().splitlines()[-1]
    assert commit[:12] in footer and "cold mode" in footer
    assert "sudokulab compare --cite --out DIR" in footer


def test_cite_prints_a_bibtex_entry_with_the_commit(run, capsys):
    assert main(["compare", "--cite", "--out", str(run)]) == 0
    printed = capsys.readouterr().out
    meta = json.loads((run / "meta.json").read_text())
    commit = meta["environment"]["source"]["commit"]
    entry = printed[printed.index("@software{"):printed.index("\n}") + 2]
    assert f"commit {commit}" in entry and "{{The sudokulab authors}}" in entry
    assert f"version = {{{meta['environment']['source']['version']}}}" in entry
    for shown in (meta["environment"]["input"]["sha256"], "mode     cold", "seed     0",
                  meta["sessions"][0]["started"]):
        assert shown in printed


def test_cite_on_a_folder_without_a_run_says_so_in_one_line(tmp_path):
    (tmp_path / "empty").mkdir()
    done = subprocess.run([sys.executable, "-m", "sudokulab", "compare", "--cite", "--out",
                           "empty"], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.splitlines() == [
        "sudokulab: error: --cite: empty holds no run (meta.json: No such file or "
        "directory); name a run's folder with --out DIR"]


def test_citation_cff_parses_and_carries_pyprojects_version():
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text())
    assert cff["cff-version"] == "1.2.0" and cff["version"] == pyproject_version()
    assert cff["license"] == "MIT" and cff["authors"] == [{"name": "The sudokulab authors"}]
    assert cff["title"] and cff["message"] and cff["abstract"]
    assert provenance.software() == {"title": cff["title"], "version": cff["version"],
                                     "license": cff["license"],
                                     "authors": ["The sudokulab authors"]}
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License") and \
        "Copyright (c) 2025-2026 the sudokulab authors" in licence


def test_without_git_the_version_is_the_installed_one(monkeypatch):
    from importlib import metadata

    monkeypatch.setattr(provenance, "_git", lambda *args: None)
    assert provenance.source() == {"commit": None, "dirty": None,
                                   "version": metadata.version("sudokulab")}


def test_runs_left_untracked_do_not_make_the_tree_dirty(monkeypatch):
    said = {"status": "?? runs/top95-20260101-000000/\n"}
    head = f"{ROOT}\n{'a' * 40}\n"
    monkeypatch.setattr(provenance, "_git",
                        lambda *args: said["status"] if args[0] == "status" else head)
    assert provenance.dirty() is False
    said["status"] += " M sudokulab/harness/report.py\n"
    assert provenance.dirty() is True
    assert provenance.version("a" * 40, True) == f"{pyproject_version()}+gaaaaaaa.dirty"


def test_a_files_hash_is_of_its_bytes(tmp_path):
    path = tmp_path / "mine.txt"
    path.write_bytes(b"." * 81 + b"\n")
    assert provenance.input_of(None, str(path)) == {
        "file": str(path), "sha256": hashlib.sha256(b"." * 81 + b"\n").hexdigest()}
