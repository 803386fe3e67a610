"""An ability's figure with a player or god said after "on": the one casting it, when the ability is theirs alone.

Players say "Chain Lightning damage on Zeus" for "playing Zeus". The qualifier reader reads "on <god>" as the one
hit, which for an ability only that god's player casts is always 0. So an "on" qualifier naming a player is dropped
(the player stays a subject of the question, so the figure becomes theirs) when:

- every ability the question names was cast in this match by that player and nobody else
  (`Vocabulary.cast_by`: its damage, healing, crowd control or killing blows);
- every figure read is one the player does (its catalog source's actor is the source or the killer), never one
  they receive ("damage taken", "healing received", "deaths");
- no verb of landing or using stands before "on" ("hits landed on", "used it on", "cast on").

Otherwise the target reading stays, as does any other preposition ("to", "against", "into", "dealt to").
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from combat_analysis.catalog import METRICS
from combat_analysis.planner.read.names import fold
from combat_analysis.planner.vocabulary import Vocabulary

# Verbs whose "on" is the one hit: "hits landed on him", "used it on", "put on", "cast on"
_TARGET_VERB = re.compile(r"\b(?:land(?:s|ed|ing)?|hit|hitting|us(?:e|es|ed|ing)|cast(?:s|ed|ing)?|put(?:s|ting)?|"
                          r"appl(?:y|ies|ied|ying)|inflict(?:s|ed|ing)?|unload(?:s|ed|ing)?)\s+(?:\w+\s+)?on\b")
_DOERS = ("source", "killer")  # a catalog source's actor when the figure is done by the player


def _done_by_actor(metric_ids: Sequence[str]) -> bool:
    """Every figure is one its player does (damage, hits, crits, healing, kills), none one they receive."""
    sources = [METRICS[m].source for m in metric_ids if m in METRICS]
    return all(s is None or s.actor in _DOERS for s in sources)


def casting_players(qualifiers: Sequence, abilities: Sequence[str], metric_ids: Sequence[str], text: str,
                    vocab: Vocabulary) -> tuple[tuple, tuple[str, ...]]:
    """The qualifiers with every "on <player>" that names the only caster of the question's abilities left out, and a
    note for each reading made."""
    if not abilities or not _done_by_actor(metric_ids):
        return tuple(qualifiers), ()
    kept, notes = [], []
    for q in qualifiers:
        casters = {fold(p) for a in abilities for p in vocab.cast_by(a)}
        if q.preposition == "on" and q.kind == "player" and q.name and casters == {fold(q.name)} \
                and not _TARGET_VERB.search(text):
            said = " and ".join(abilities)
            notes.append(f"'on' {q.name} read as {q.name} casting {said}, which nobody else casts in this match, "
                         f"not as hits on {q.name}")
            continue
        kept.append(q)
    return tuple(kept), tuple(notes)
