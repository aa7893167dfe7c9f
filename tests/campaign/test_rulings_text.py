"""The 16.0 section of battles/engine/RULINGS.md says what exists (issue 29, the slips): every
test it names is a test, every file it names is a file, and the READMEs give the whole range
of campaign rulings."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

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


# The sentences of the rulebook (16.0, 8.4, 4.1, 2.0 and 3.0 of the EAGLES: Waterloo rules)
# that issue 29's rulings rest on, word for word (emphasis dropped; "note[d]" marks the
# rulebook's own "note"). Each ruling of battles/engine/RULINGS.md must quote its sentences.
RULEBOOK_SENTENCES = {
    "16-c": ("Reinforcement rates (assuming most cards are in play) are double the rates "
             "note[d] on the Battle Chart",
             "if players play with larger/smaller Battle Decks, the specified Musters and "
             "Reinforcement rates are altered proportionally"),
    "16-e": ("after their Morale Phase (before Moving or Firing any cards)",
             "Retreat concedes a victory to the opposing player",
             "When a player wins one battle, all enemy cards MUST immediately Retreat (after "
             "making any necessary Morale checks) AND, each engaged card must survive another "
             "Morale check"),
    "16-f": ("all enemy cards MUST immediately Retreat (after making any necessary Morale "
             "checks) AND, each engaged card must survive another Morale check",),
    "16-i": ("Terrain cards should always be historical",),
    "16-k": ("Use all surviving cards, adding Waterloo cards not yet in play",
             "Terrain cards should always be historical"),
    "8.4-b": ("General, Terrain, and Special cards never count for stacking, but such cards "
              "must always (see 14.0) be deployed face-up",
              "Terrain and General cards may be deployed in excess of the four card limit per "
              "Position provided they are deployed face-up"),
}


def _ruling(key: str) -> str:
    """The paragraph of ruling ``key`` in RULINGS.md, emphasis dropped, spaces collapsed."""
    text = (ROOT / "battles" / "engine" / "RULINGS.md").read_text()
    start = text.index(f"- **{key} ")
    end = min(i for i in (text.find("\n- **", start + 1), text.find("\n## ", start + 1))
              if i > 0)
    return re.sub(r"\s+", " ", text[start:end].replace("*", ""))


@pytest.mark.parametrize("key", sorted(RULEBOOK_SENTENCES))
def test_16_rulings_quote_the_rulebook_word_for_word(key):
    quoted = re.findall(r'"([^"]+)"', _ruling(key))
    for sentence in RULEBOOK_SENTENCES[key]:
        assert any(sentence in q for q in quoted), (key, sentence, quoted)
