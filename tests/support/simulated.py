"""Simulated matches for tests, with any match id and any player names: the simulator's log, rewritten event by
event in the real framing (BOM, CRLF, a comma after every line but the last)."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

from combat_analysis.ingest.simulate import write_match

PLAYER_FIELDS = ("sourceowner", "targetowner")
# Player names that are markup, links and emoji: a report must show each as the text it is.
HOSTILE_NAMES = ["<img src=x onerror=alert(a)>", "[click](javascript:alert(b))", "*bold* | pipe", "`tick` ~~x~~",
                 "# Heading", "<script>alert(c)</script>", "![img](http://127.0.0.1:9/t.png)", "a_b_c", "</sub><b>",
                 "Zoë 张伟 🐉"]
# Player names built from role words and slang: a question must read each as the player, never as a role.
ROLE_WORD_TAGS = ["mid_diff99", "Jungle_Carry", "supp4life", "xX_feeder_Xx", "solo_queen7"]


def rewrite_events(log: Path, change: Callable[[dict], dict]) -> None:
    lines = Path(log).read_text(encoding="utf-8-sig").strip().splitlines()
    events = [change(json.loads(line.rstrip(","))) for line in lines]
    body = ",\r\n".join(json.dumps(event, ensure_ascii=False) for event in events)
    Path(log).write_text(body + "\r\n", encoding="utf-8-sig", newline="")


def simulated_log(folder: Path, seed: int, match_id: str, *, scale: float = 0.1,
                  names: dict[str, str] | None = None) -> Path:
    """`<folder>/match-<seed>.log`, a small simulated match whose id is `match_id` (any text: numeric, quoted,
    a path, emoji); `names` renames players (old name -> new name) wherever they appear."""
    log = Path(folder) / f"match-{seed}.log"
    write_match(log, seed, scale=scale)
    names = names or {}

    def change(event: dict) -> dict:
        if event.get("eventType") == "start":
            return {**event, "matchID": match_id}
        for field in PLAYER_FIELDS:
            if event.get(field) in names:
                event[field] = names[event[field]]
        if "text" in event:
            for old, new in names.items():
                event["text"] = event["text"].replace(old, new)
        return event

    rewrite_events(log, change)
    return log


def roster(log: Path) -> list[str]:
    """The players of a log, in the order their roles were assigned."""
    lines = Path(log).read_text(encoding="utf-8-sig").strip().splitlines()
    events = (json.loads(line.rstrip(",")) for line in lines)
    return [e["sourceowner"] for e in events if e.get("type") == "RoleAssigned"]


def doubled_damage(src: Path, out: Path, player: str) -> Path:
    """A copy of a log with every damage line of `player` doubled: the same match, other figures (as a corrected
    upload of a match would be)."""
    import re

    def double(line: str) -> str:
        if '"Damage"' in line and f'"sourceowner":"{player}"' in line.replace(" ", ""):
            return re.sub(r'("value1":\s*")(\d+)(")', lambda m: f"{m[1]}{int(m[2]) * 2}{m[3]}", line)
        return line

    text = src.read_text(encoding="utf-8-sig")
    out.write_text("".join(double(line) for line in text.splitlines(keepends=True)), encoding="utf-8")
    return out
