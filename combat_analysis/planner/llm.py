"""An optional LLM planner: asks an OpenAI-compatible endpoint for a `QueryPlan` as JSON, never for SQL.

Off by default: nothing constructs it unless configured (`LlmPlanner.from_env()` returns None unless
`COMBAT_ANALYSIS_LLM_BASE_URL` is set). The model only fills in the typed plan (`response_format` is the
QueryPlan JSON schema); our compiler writes the SQL and `validate_sql` checks it, so a model can never reach
the database with text of its own. The plan is data: pydantic checks its names against strict patterns
(`combat_analysis.plan`), every string must be short printable text, every filter value must be a name of the
match's vocabulary or a bound `$parameter` with a plain name, and the summary a report shows is ours.
On any failure (network, timeout, HTTP error, malformed JSON, a plan that does not validate or compile) the
offline planner answers instead and the reason is recorded in `plan.assumptions`.
"""

from __future__ import annotations

import json
import os
import re
import unicodedata
import urllib.error
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pydantic import ValidationError

from combat_analysis.catalog import DIMENSIONS, METRICS
from combat_analysis.catalog.kinds import KINDS
from combat_analysis.contracts.plan import Intent, QueryPlan, Refusal
from combat_analysis.planner.compile import compile_plan
from combat_analysis.planner.offline import plan_question as offline_plan
from combat_analysis.planner.offline import summarize
from combat_analysis.planner.plans.refusals import GENERIC_SUGGESTIONS
from combat_analysis.planner.vocabulary import Vocabulary
from combat_analysis.warehouse.gate import PARAMETER_NAME

ENV_BASE_URL = "COMBAT_ANALYSIS_LLM_BASE_URL"
ENV_MODEL = "COMBAT_ANALYSIS_LLM_MODEL"
ENV_KEY_NAME = "COMBAT_ANALYSIS_LLM_API_KEY_ENV"
DEFAULT_KEY_ENV = "COMBAT_ANALYSIS_LLM_API_KEY"


class LlmPlanError(RuntimeError):
    """The model's answer cannot be used; the message says why (it ends up in plan.assumptions)."""


@dataclass(frozen=True)
class LlmPlanner:
    base_url: str  # e.g. http://127.0.0.1:8000/v1 ; /chat/completions is appended
    model: str
    api_key_env: str = DEFAULT_KEY_ENV  # the *name* of the environment variable holding the key
    timeout: float = 20.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] | None = None) -> LlmPlanner | None:
        env = os.environ if environ is None else environ
        base_url = env.get(ENV_BASE_URL)
        if not base_url:
            return None
        return cls(base_url=base_url, model=env.get(ENV_MODEL, "gpt-4o-mini"),
                   api_key_env=env.get(ENV_KEY_NAME, DEFAULT_KEY_ENV))

    def plan(self, question: str, vocab: Vocabulary, previous: Sequence[str] = ()) -> QueryPlan:
        """The model's plan if it is valid and compiles; otherwise the offline plan, saying why."""
        fallback = offline_plan(question, vocab, previous)
        if fallback.intent == Intent.REFUSE and fallback.refusal and "SQL or a command" in fallback.refusal.reason:
            return fallback  # hostile text is not forwarded anywhere
        try:
            content = self._complete(question, vocab, previous)
            return self._accept(content, question, vocab, fallback)
        except Exception as error:  # noqa: BLE001 - any failure means: answer offline
            reason = _describe(error)
            if fallback.intent == Intent.REFUSE:
                reason = re.sub(r"\s*\d+", "", reason)  # a refusal must show no number at all
            note = f"LLM planner not used ({reason}); the offline planner answered"
            return fallback.model_copy(update={"assumptions": (*fallback.assumptions, note)})

    def __call__(self, question: str, vocab: Vocabulary, previous: Sequence[str] = ()) -> QueryPlan:
        """A planner is a callable (question, vocab, previous) -> QueryPlan, like `plan_question`."""
        return self.plan(question, vocab, previous)

    # ------------------------------------------------------------------------------------ protocol

    def _complete(self, question: str, vocab: Vocabulary, previous: Sequence[str]) -> str:
        body = {
            "model": self.model,
            "temperature": 0,
            "messages": [
                {"role": "system", "content": system_prompt(vocab)},
                {"role": "user", "content": json.dumps({"question": question, "previous_questions": list(previous)},
                                                       ensure_ascii=False)},
            ],
            "response_format": {"type": "json_schema",
                                "json_schema": {"name": "QueryPlan", "schema": QueryPlan.model_json_schema()}},
        }
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        key = os.environ.get(self.api_key_env)
        if key:
            headers["Authorization"] = f"Bearer {key}"
        import urllib.request  # lazy: http, email and ssl: only a configured model pays for them

        request = urllib.request.Request(self.base_url.rstrip("/") + "/chat/completions",
                                         data=json.dumps(body).encode("utf-8"), headers=headers, method="POST")
        with urllib.request.urlopen(request, timeout=self.timeout) as response:  # noqa: S310 - configured URL
            payload = json.loads(response.read().decode("utf-8"))
        try:
            return payload["choices"][0]["message"]["content"]
        except (KeyError, IndexError, TypeError):
            raise LlmPlanError("the reply has no choices[0].message.content") from None

    def _accept(self, content: str, question: str, vocab: Vocabulary, fallback: QueryPlan) -> QueryPlan:
        try:
            raw = json.loads(content)
        except (TypeError, json.JSONDecodeError):
            raise LlmPlanError("the reply is not JSON") from None
        if not isinstance(raw, dict):
            raise LlmPlanError("the reply is not a JSON object")
        raw = {**raw, "question": question, "planner": "llm"}
        try:
            plan = QueryPlan.model_validate(raw)
        except ValidationError as error:
            raise LlmPlanError(f"the plan does not validate: {error.error_count()} error(s)") from None
        check_text(plan)
        plan = _ours(plan)
        if plan.intent == Intent.REFUSE:
            return _tidy_refusal(plan, fallback)
        check_names(plan, vocab)
        compile_plan(plan, vocab)  # raises on unknown metrics/dimensions; validate_sql runs inside
        return plan


def _ours(plan: QueryPlan) -> QueryPlan:
    """Each step marked as the model's, with our own summary of what it will run: the methodology a report
    shows describes the validated plan, never the model's account of it."""
    then = _ours(plan.then) if plan.then is not None else None
    step = plan.model_copy(update={"planner": "llm", "then": then})
    return step.model_copy(update={"summary": summarize(step)})


def _tidy_refusal(plan: QueryPlan, fallback: QueryPlan) -> QueryPlan:
    """A model's refusal keeps its reason but our digit-free suggestions (refusals must invent no numbers)."""
    reason = plan.refusal.reason if plan.refusal and plan.refusal.reason else "This cannot be answered from the combat log."
    reason = re.sub(r"\s{2,}", " ", re.sub(r"\d+", "", reason)).strip()
    suggestions = fallback.refusal.suggestions if fallback.refusal else ()
    if not suggestions:
        suggestions = GENERIC_SUGGESTIONS
    refused = plan.model_copy(update={"refusal": Refusal(reason=reason, suggestions=suggestions), "then": None,
                                      "focus": ()})
    return refused.model_copy(update={"summary": summarize(refused)})


MAX_TEXT_CHARS = 400
MAX_LIST_ITEMS = 20


def check_text(plan: QueryPlan) -> None:
    """Every string of the model's plan is short, printable text, and no list is long: its free text
    (assumptions, focus, refusal) is shown to users, escaped, but never trusted to be small or clean."""
    def walk(value, where: str) -> None:
        if isinstance(value, str):
            if len(value) > MAX_TEXT_CHARS:
                raise LlmPlanError(f"the plan's {where} is longer than {MAX_TEXT_CHARS} characters")
            if any(unicodedata.category(c) in ("Cc", "Cs") for c in value):
                raise LlmPlanError(f"the plan's {where} contains a control character")
        elif isinstance(value, dict):
            for key, item in value.items():
                walk(key, where)
                walk(item, f"{where}.{key}" if where else key)
        elif isinstance(value, (list, tuple)):
            if len(value) > MAX_LIST_ITEMS:
                raise LlmPlanError(f"the plan's {where} has more than {MAX_LIST_ITEMS} entries")
            for item in value:
                walk(item, where)

    walk(plan.model_dump(mode="json", exclude={"question"}), "")


def check_names(plan: QueryPlan, vocab: Vocabulary) -> None:
    """Every filter value and every focus entry must be a name of this match (or a bound $parameter with a
    plain name): the model may not invent, and what reports call the question's subject is a real name."""
    known: dict[str, set[str | int]] = {
        "player": set(vocab.player_names), "victim": set(vocab.player_names), "god": set(vocab.gods),
        "role": set(vocab.roles), "ability": set(vocab.abilities), "item": set(vocab.items),
        "team": {1, 2, "1", "2"}, "target_kind": set(KINDS), "source_kind": set(KINDS),
        # damage by or to a non-player ("the Fire Giant", "the towers") names the match's own NPCs
        "source": {*vocab.player_names, *vocab.npcs}, "target": {*vocab.player_names, *vocab.npcs},
        "objective": {"tower", "phoenix", "titan", "gold fury", "fire giant"},
        "phase": {"early game", "mid game", "late game"},
    }
    subjects = {"team 1", "team 2"}.union(*(known[d] for d in ("player", "god", "role", "ability", "item", "source")))
    step: QueryPlan | None = plan
    bound: set[str] = set()

    def is_parameter(value) -> bool:
        return isinstance(value, str) and value.startswith("$") and value[1:] in bound \
            and bool(PARAMETER_NAME.fullmatch(value[1:]))

    while step is not None:
        # a yes or no about the answer's subject ("..., and is that one a support") names a player, role, side or god of
        # this match
        checked = (step.check,) if step.check is not None and step.check.dimension in ("player", "role", "team", "god") \
            else ()
        if step.check is not None and not checked:
            raise LlmPlanError("the plan checks something that is not a player, role, side or god")
        for f in (*step.filters, *checked):
            allowed = known.get(f.dimension)
            for value in f.values:
                if is_parameter(value) or (f.dimension == "minute" and isinstance(value, int)):
                    continue
                if allowed is None or value not in allowed:
                    raise LlmPlanError(f"the plan names an unknown {f.dimension}")
        if any(not is_parameter(name) and name not in subjects for name in step.focus):
            raise LlmPlanError("the plan's focus names something that is not in this match")
        bound = set(step.bind)
        step = step.then


def system_prompt(vocab: Vocabulary) -> str:
    metrics = "\n".join(f"- {m.id}: {m.label} ({m.aggregation}; dimensions: {', '.join(m.dimensions) or 'none'})"
                        for m in METRICS.values())
    dimensions = ", ".join(DIMENSIONS)
    players = "; ".join(f"{p.player} (team {p.team}, {p.role}, {p.god})" for p in vocab.players)
    return f"""You turn a question about one SMITE 2 match's combat log into a QueryPlan JSON object.
Answer with the JSON object only, matching the given schema. Never write SQL or code.
Intents: ranking, lookup, comparison, breakdown, timeline, event_list, build_order, refuse.
Metric ids (use exactly these; the first metric is the headline):
{metrics}
Dimension ids for group_by and filters: {dimensions}.
Time windows are match seconds [start_s, end_s); "last N minutes" uses from_end_s = 60*N;
early game [0,600), mid game [600,1200), late game start_s 1200.
Players (use these exact names in filters): {players}.
Abilities: {', '.join(vocab.abilities[:80])}.
Items: {', '.join(vocab.items[:80])}.
Teams are 1 and 2; the winner is team {vocab.winner_team if vocab.winner_team else 'unknown'}.
For "what did the top X do" questions, rank X with limit 1, set bind {{"player": "player"}} and put the
follow-up plan in `then` with a player filter value "$player".
For a yes or no comparison of two subjects ("did A out-damage B"), make a comparison with both in focus, the one asked
about first, and set compare to "more" or "less". For a yes or no about the answer's subject after the question
("..., and is that one a support"), plan the question over everyone and set check to a filter of that player, role, team or god.
For a yes or no whether one player, side, role or god holds the most or the least ("did A get the most kills"), rank that kind
over everyone, set check to a filter of the subject and compare to "more" (the most) or "less" (the least).
Questions the log cannot answer (rank, weather, chat, other matches, lore...) or that contain SQL or commands:
intent refuse with a refusal reason. State every reading you make in assumptions."""


def _describe(error: Exception) -> str:
    if isinstance(error, urllib.error.HTTPError):
        return f"HTTP {error.code}"
    if isinstance(error, urllib.error.URLError):
        reason = error.reason
        return "timed out" if "timed out" in str(reason) else f"connection failed: {reason}"
    if isinstance(error, TimeoutError):
        return "timed out"
    if isinstance(error, json.JSONDecodeError):
        return "the reply is not JSON"
    return str(error) or type(error).__name__
