"""Kill chains ("multi-kills"): the log and METRICS.md define none, so a question that gives its own definition (how
many kills, how close) is answered with it, and the definition is said in the answer (`said`).

`CHAIN_SQL` (`kill_chains.sql`) finds every chain in every match of the views it runs on: one match for a question
about one match, every match for the season. Its four values are named parameters (`PARAMETERS`); the one-match
compiler writes them in as checked integers, the season binds them.
"""

from __future__ import annotations

from pathlib import Path

from combat_analysis.contracts.plan import KillChain

CHAIN_FILE = Path(__file__).with_name("kill_chains.sql")
CHAIN_SQL = "\n".join(line for line in CHAIN_FILE.read_text(encoding="utf-8").splitlines()
                      if not line.lstrip().startswith("--")).strip()
# the SQL's named parameters
PARAMETERS = ("chain_kills", "chain_seconds", "chain_window", "chain_lives")
# the columns of a chain row
COLUMNS = ("match_id", "player", "team", "role", "god", "kills", "start_second", "end_second", "victims")


def parameters(chain: KillChain) -> dict[str, int]:
    """The SQL's values for a chain, every one an integer."""
    return {"chain_kills": int(chain.kills), "chain_seconds": int(chain.seconds),
            "chain_window": 1 if chain.reading == "window" else 0, "chain_lives": 1 if chain.deaths_break else 0}


def _seconds(n: int) -> str:
    return f"{n} second" if n == 1 else f"{n} seconds"


def said(chain: KillChain) -> str:
    """How a chain was counted, as the answer says it: "a chain is at least 3 player kills by one player, each within
    10 seconds of the one before, with no death of the killer in between; a longer run counts once"."""
    close = (f"each within {_seconds(chain.seconds)} of the one before" if chain.reading == "gap"
             else f"all within {_seconds(chain.seconds)} of the chain's first kill")
    deaths = ("with no death of the killer in between" if chain.deaths_break
              else "a death of the killer in between not breaking it")
    return (f"a chain is at least {chain.kills} player kills by one player, {close}, {deaths}; "
            "a longer run counts once")


def name(chain: KillChain) -> str:
    """The chain's short name: "chains of 3+ kills"."""
    return f"chains of {chain.kills}+ kills"
