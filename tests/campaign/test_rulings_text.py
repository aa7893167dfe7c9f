"""The 16.0 section of battles/engine/RULINGS.md says what exists (issue 29, the slips): every
test it names is a test, every file it names is a file, and the READMEs give the whole range
of campaign rulings."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def campaign_section() -> str:
    text = (ROOT / "battles" / "engine" / "RULINGS.md").read_text()
    return text[text.index("## 16.0 Campaign"):]


def test_16_slips_every_test_and_file_named_in_the_campaign_rulings_exists():
    section = campaign_section()
    defined = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        defined |= set(re.findall(r"^def (test_\w+)", path.read_text(), re.M))
    named = set(re.findall(r"`(?:[\w/]+\.py::)?(test_\w+)`", section))
    assert named and named <= defined, sorted(named - defined)
    for path in re.findall(r"`((?:tests|battles|campaigns|game)/[\w/]+\.py)", section):
        assert (ROOT / path).exists(), path


def test_16_slips_the_readmes_give_the_whole_range_of_campaign_rulings():
    last = max(re.findall(r"\*\*16-([a-z])\b", campaign_section()))
    for doc in ("battles/campaign/README.md", "campaigns/README.md",
                "battles/campaign/core.py", "tests/campaign/test_rules.py"):
        ranges = re.findall(r"16-a \.\.\. 16-([a-z])", (ROOT / doc).read_text())
        assert ranges and set(ranges) == {last}, (doc, ranges, last)


def test_16_i_the_core_cites_16_i_for_the_british_at_ligny():
    core = (ROOT / "battles" / "campaign" / "core.py").read_text()
    line = next(x for x in core.splitlines() if "British reinforcing Ligny" in x)
    assert "16-i" in line
