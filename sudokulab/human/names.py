"""HoDoKu's technique names and library codes, mapped onto the lab's techniques.

HoDoKu (version 2.2.0) names every technique, gives it a four-digit code used in its library
format (`:0100:...` is Locked Candidates Type 1) and, in its default step configuration, a
level and a score. `CATALOGUE` lists them all (HoDoKu's own names and codes: its library
format, http://hodoku.sourceforge.net/en/libs.php, and technique pages,
http://hodoku.sourceforge.net/en/techniques.php; levels and scores as its default step
configuration sets them), each with the lab technique(s) that make the same deduction: a
name, a code or a short name (`u1`, `bf2`) given to `--techniques` selects those. A HoDoKu
technique the lab lacks maps to none, and `technique_named` says so in one line.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache


@dataclass(frozen=True)
class Entry:
    """One technique of HoDoKu's catalogue: its code ('' for a group name that has none),
    name, short name, level and score, and the lab techniques that make its deductions."""

    code: str
    name: str
    short: str
    level: str
    score: int
    lab: tuple[str, ...]


FISH = ("X-Wing", "Swordfish", "Jellyfish", "Squirmbag", "Whale", "Leviathan")


def _e(code: str, name: str, short: str, level: str, score: int, *lab: str) -> Entry:
    """An entry; without lab names, the lab technique of the same name if there is one."""
    return Entry(code, name, short, level, score, lab)


def _fish() -> list[Entry]:
    """The fish codes: 03[kind][size-2], levels and scores of HoDoKu's default table."""
    out = []
    kinds = (("0", "", "bf", ("Hard",) * 3 + ("Unfair",) * 3, (140, 150, 160, 470, 470, 470)),
             ("1", "Finned ", "fbf", ("Hard",) + ("Unfair",) * 5, (130, 200, 250, 470, 470, 470)),
             ("2", "Sashimi ", "sbf", ("Hard",) + ("Unfair",) * 5, (150, 240, 260, 470, 470, 470)),
             ("3", "Franken ", "ff", ("Unfair",) * 3 + ("Extreme",) * 3,
              (300, 350, 370, 470, 470, 470)),
             ("4", "Finned Franken ", "fff", ("Unfair",) * 3 + ("Extreme",) * 3,
              (390, 410, 430, 470, 470, 470)),
             ("5", "Mutant ", "mf", ("Extreme",) * 6, (450, 450, 450, 470, 470, 470)),
             ("6", "Finned Mutant ", "fmf", ("Extreme",) * 6, (470,) * 6))
    for digit, prefix, short, levels, scores in kinds:
        for size, fish in enumerate(FISH):
            out.append(_e(f"03{digit}{size}", prefix + fish, f"{short}{size + 2}", levels[size],
                          scores[size]))
    return out


CATALOGUE: tuple[Entry, ...] = (
    _e("0000", "Full House", "fh", "Easy", 4),
    _e("0002", "Hidden Single", "h1", "Easy", 14),
    _e("0003", "Naked Single", "n1", "Easy", 4),
    _e("", "Locked Candidates", "lc", "Medium", 50, "Locked Candidates Type 1 (Pointing)",
       "Locked Candidates Type 2 (Claiming)"),
    _e("0100", "Locked Candidates Type 1 (Pointing)", "lc1", "Medium", 50),
    _e("0101", "Locked Candidates Type 2 (Claiming)", "lc2", "Medium", 50),
    _e("0110", "Locked Pair", "l2", "Medium", 40),
    _e("0111", "Locked Triple", "l3", "Medium", 60),
    _e("0200", "Naked Pair", "n2", "Medium", 60),
    _e("0201", "Naked Triple", "n3", "Medium", 80),
    _e("0202", "Naked Quadruple", "n4", "Hard", 120),
    _e("0210", "Hidden Pair", "h2", "Medium", 70),
    _e("0211", "Hidden Triple", "h3", "Medium", 100),
    _e("0212", "Hidden Quadruple", "h4", "Hard", 150),
    *_fish(),
    _e("", "Kraken Fish", "kf", "Extreme", 500),
    _e("0371", "Kraken Fish Type 1", "kf1", "Extreme", 500),
    _e("0372", "Kraken Fish Type 2", "kf2", "Extreme", 500),
    _e("0400", "Skyscraper", "sk", "Hard", 130),
    _e("0401", "2-String Kite", "2sk", "Hard", 150),
    _e("0402", "Empty Rectangle", "er", "Hard", 120),
    _e("0403", "Turbot Fish", "tf", "Hard", 120),
    _e("0404", "Dual 2-String Kite", "d2sk", "Hard", 150),
    _e("0405", "Dual Empty Rectangle", "der", "Hard", 120),
    _e("", "Simple Colors", "sc", "Hard", 150, "Simple Colors Trap", "Simple Colors Wrap"),
    _e("0500", "Simple Colors Trap", "sc1", "Hard", 150),
    _e("0501", "Simple Colors Wrap", "sc2", "Hard", 150),
    _e("", "Multi Colors", "mc", "Hard", 200, "Multi Colors 1", "Multi Colors 2"),
    _e("0502", "Multi Colors 1", "mc1", "Hard", 200),
    _e("0503", "Multi Colors 2", "mc2", "Hard", 200),
    _e("0600", "Uniqueness Test 1", "u1", "Hard", 100),
    _e("0601", "Uniqueness Test 2", "u2", "Hard", 100),
    _e("0602", "Uniqueness Test 3", "u3", "Hard", 100),
    _e("0603", "Uniqueness Test 4", "u4", "Hard", 100),
    _e("0604", "Uniqueness Test 5", "u5", "Hard", 100),
    _e("0605", "Uniqueness Test 6", "u6", "Hard", 100),
    _e("0606", "Hidden Rectangle", "hr", "Hard", 100),
    _e("0607", "Avoidable Rectangle Type 1", "ar1", "Hard", 100),
    _e("0608", "Avoidable Rectangle Type 2", "ar2", "Hard", 100),
    _e("0610", "Bivalue Universal Grave + 1", "bug1", "Hard", 100),
    _e("0701", "X-Chain", "x", "Unfair", 260),
    _e("0702", "XY-Chain", "xyc", "Unfair", 260),
    _e("0703", "Remote Pair", "rp", "Hard", 110),
    _e("", "Nice Loop/AIC", "nl", "Unfair", 280, "AIC", "Continuous Nice Loop",
       "Discontinuous Nice Loop"),
    _e("0706", "Continuous Nice Loop", "cnl", "Unfair", 280),
    _e("0707", "Discontinuous Nice Loop", "dnl", "Unfair", 280),
    _e("0708", "AIC", "aic", "Unfair", 280),
    _e("", "Grouped Nice Loop/AIC", "gnl", "Unfair", 300, "Grouped AIC",
       "Grouped Continuous Nice Loop", "Grouped Discontinuous Nice Loop"),
    _e("0709", "Grouped Continuous Nice Loop", "gcnl", "Unfair", 300),
    _e("0710", "Grouped Discontinuous Nice Loop", "gdnl", "Unfair", 300),
    _e("0711", "Grouped AIC", "gaic", "Unfair", 300),
    _e("0800", "XY-Wing", "xy", "Hard", 160),
    _e("0801", "XYZ-Wing", "xyz", "Hard", 180),
    _e("0803", "W-Wing", "w", "Hard", 150),
    _e("0901", "Almost Locked Set XZ-Rule", "axz", "Unfair", 300, "ALS-XZ"),
    _e("0902", "Almost Locked Set XY-Wing", "axy", "Unfair", 320, "ALS-XY-Wing"),
    _e("0903", "Almost Locked Set XY-Chain", "ach", "Unfair", 340, "ALS-XY-Chain"),
    _e("0904", "Death Blossom", "db", "Unfair", 360),
    _e("1101", "Sue de Coq", "sdc", "Unfair", 250),
    _e("1201", "Template Set", "ts", "Extreme", 10000),
    _e("1202", "Template Delete", "td", "Extreme", 10000),
    _e("", "Forcing Chain", "fc", "Extreme", 500, "Forcing Chain Contradiction",
       "Forcing Chain Verity"),
    _e("1301", "Forcing Chain Contradiction", "fcc", "Extreme", 500),
    _e("1302", "Forcing Chain Verity", "fcv", "Extreme", 500),
    _e("", "Forcing Net", "fn", "Extreme", 700, "Forcing Net Contradiction",
       "Forcing Net Verity"),
    _e("1303", "Forcing Net Contradiction", "fnc", "Extreme", 700),
    _e("1304", "Forcing Net Verity", "fnv", "Extreme", 700),
)


def key(name: str) -> str:
    """A name as looked up: lower case, without spaces, hyphens or a trailing '(...)'."""
    return re.sub(r"[\s\-_]+", "", re.sub(r"\s*\(.*\)\s*$", "", name.strip().lower()))


def lab_names(entry: Entry, known: Collection[str]) -> tuple[str, ...]:
    """The lab techniques an entry stands for, among the `known` names (lower case; none
    when the lab lacks it)."""
    names = entry.lab or (entry.name,)
    return tuple(name for name in names if name.lower() in known)


@lru_cache(maxsize=1)
def _index() -> dict[str, Entry]:
    """Every code, name (full and without its '(...)') and short name, to its entry."""
    out: dict[str, Entry] = {}
    for entry in CATALOGUE:
        for word in (entry.code, entry.short, entry.name):
            if word:
                out.setdefault(word.strip().lower(), entry)
                out.setdefault(key(word), entry)
    return out


def entry_named(name: str) -> Entry | None:
    """HoDoKu's entry for a code ('0100', '03101' with a siamese fish's trailing 1, '0600-1'
    with a variant of its library, '0600-x' a fail case), a name or a short name; None when
    HoDoKu has none."""
    index = _index()
    word = re.sub(r"^(\d{4,5})-\w+$", r"\1", name.strip().lower())  # the library's variants
    found = index.get(word) or index.get(key(word))
    if found is None and re.fullmatch(r"\d{5}", word) and word.endswith("1"):
        found = index.get(word[:4])
    return found


@lru_cache(maxsize=1)
def _codes() -> dict[str, Entry]:
    """Lab technique name (lower case) to the HoDoKu entry with a code that makes it."""
    out: dict[str, Entry] = {}
    for entry in CATALOGUE:
        if entry.code:
            for name in entry.lab or (entry.name,):
                out.setdefault(name.lower(), entry)
    return out


def hodoku_of(technique: str) -> Entry | None:
    """HoDoKu's coded entry for a lab technique name (None for the lab's own, e.g. killer
    techniques and Nested Forcing Net)."""
    return _codes().get(technique.lower())


def catalogue_rows(known: Collection[str]) -> list[tuple[str, str, str, int, str]]:
    """(code, HoDoKu name, level, score, lab techniques among `known` or 'not yet') per
    coded entry, for `explain --list`."""
    return [(e.code, e.name, e.level, e.score, ", ".join(lab_names(e, known)) or "not yet")
            for e in CATALOGUE if e.code]


def listing(known: Collection[str]) -> str:
    """HoDoKu's catalogue as a table: code, name, level, score and the lab's technique
    among `known` (lower-case names)."""
    from tabulate import tabulate

    return tabulate(catalogue_rows(known), headers=("HoDoKu code", "HoDoKu name", "level", "score",
                                               "lab technique"), tablefmt="simple")
