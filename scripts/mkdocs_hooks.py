"""MkDocs hook: the site also shows results/, which lives outside docs/.

`make bench` writes results/ where the benches and GitHub expect it; its reports and plots
are added to the site as they are, so the manual links to them (`results/norvig.md`) and
`mkdocs build --strict` checks those links. Each report is listed under "Results" in the
navigation, so a new one needs no edit of mkdocs.yml.
"""

from __future__ import annotations

from pathlib import Path

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "results"
SHOWN = {".md", ".png", ".txt", ".csv", ".json"}  # runs.jsonl stays out: megabytes of records


def shown() -> list[Path]:
    """The files of results/ that the site shows."""
    return [path for path in sorted(RESULTS.rglob("*"))
            if path.is_file() and path.suffix in SHOWN]


def on_config(config):
    """Under the navigation's "Results" page, every report in results/."""
    reports = [str(path.relative_to(ROOT)) for path in shown() if path.suffix == ".md"]

    def grow(items: list) -> list:
        """The navigation with results.md turned into a section of the reports."""
        for item in items:
            for title, target in item.items() if isinstance(item, dict) else ():
                if target == "results.md":
                    item[title] = ["results.md", *reports]
                elif isinstance(target, list):
                    grow(target)
        return items

    config["nav"] = grow(config["nav"])
    return config


def on_files(files: Files, config) -> Files:
    """Add every report, table and plot under results/ to the site."""
    for path in shown():
        files.append(File(str(path.relative_to(ROOT)), str(ROOT), config["site_dir"],
                          config["use_directory_urls"]))
    return files
