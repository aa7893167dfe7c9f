"""A player's legal actions as the frame shows them (pure: the stdlib only): in sections of
groups, each button with its full label and, in a group of several, the short words that
differ ("Deploy Cooke (general) to your" [Left] [Centre] [Right]).

``action_sections(actions, labels, sections)``: ``sections`` is the game's table of
``(key, title, action types)``; an action of no listed type goes to "Other". Within a
section, actions on the same card or piece form one group (``group_key``).
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence


def _common_prefix(labels: list[str]) -> str:
    """The longest common start of ``labels``, cut back to a whole word ("" unless it has
    two words at least: a shared verb alone says too little)."""
    first, last = min(labels), max(labels)
    n = 0
    while n < len(first) and first[n] == last[n]:
        n += 1
    prefix = first[:n]
    prefix = prefix[:prefix.rfind(" ") + 1] if " " in prefix else ""
    return prefix if len(prefix.split()) >= 2 else ""


def _common_suffix(labels: list[str]) -> str:
    """The longest common end of ``labels``, from a whole word on (two words at least)."""
    suffix = _common_prefix([label[::-1] for label in labels])[::-1]
    return suffix if len(suffix.split()) >= 2 else ""


def split_group(items: list[dict]) -> tuple[str, str]:
    """A group's shared words, as a title before its buttons ("Deploy Cooke (general) to
    your" [Left] [Centre]) or after them ([Form column] [Form square] "Vincke's Brigade in
    your Left"); each item gets ``short``, the words that differ."""
    labels = [it["label"] for it in items]
    if len(items) > 1:
        prefix = _common_prefix(labels)
        if prefix and all(len(label) > len(prefix) for label in labels):
            for it in items:
                it["short"] = it["label"][len(prefix):]
            return prefix.rstrip(), "before"
        suffix = _common_suffix(labels)
        shorts = [label[:len(label) - len(suffix)].rstrip(" :,") for label in labels]
        if suffix and all(shorts):
            for it, short in zip(items, shorts, strict=True):
                it["short"] = short
            return suffix.strip().lstrip(":,").strip(), "after"
    for it in items:
        it["short"] = it["label"]
    return "", ""


def group_key(action: Mapping, index: int) -> tuple:
    """Actions with one key form one group: those on the same card or piece."""
    t = action.get("type")
    if t in ("deploy", "decoy", "play_special"):
        return (t, action.get("card"))
    if t == "move":
        if "piece" not in action:
            return ("enter", action.get("card"))
        withdraw = str(action.get("to", "")).endswith("reserve")
        return ("withdraw" if withdraw else "move", action.get("piece"))
    if t in ("fire", "shock", "change_formation", "occupy"):
        return (t, action.get("piece"))
    return (t, "#", index)  # one button each


def action_sections(actions: Sequence[Mapping], labels: Sequence[str],
                    sections: Sequence[tuple[str, str, Sequence[str]]]) -> list[dict]:
    """The legal ``actions`` (worded by ``labels``, one each) in ``sections`` of groups."""
    section_of = {t: key for key, _title, types in sections for t in types}
    out: dict[str, dict] = {key: {"key": key, "title": title, "groups": {}}
                            for key, title, _types in sections}
    out["other"] = {"key": "other", "title": "Other", "groups": {}}
    for i, (action, label) in enumerate(zip(actions, labels, strict=True)):
        section = out[section_of.get(str(action.get("type")), "other")]
        group = section["groups"].setdefault(group_key(action, i), [])
        group.append({"action": action, "label": label, "type": action.get("type"),
                      "json": json.dumps(action, separators=(",", ":"))})
    shown = []
    for section in out.values():
        groups = []
        for items in section["groups"].values():
            title, where = split_group(items)
            groups.append({"title": title, "where": where, "items": items})
        if groups:
            shown.append({"key": section["key"], "title": section["title"], "groups": groups,
                          "count": sum(len(g["items"]) for g in groups)})
    return shown
