"""The query analyst's brain: question -> typed QueryPlan -> validated SQL.

    vocab = Vocabulary.from_connection(con)          # names of the one match the connection is scoped to
    plan = plan_question("who dealt the most damage after minute 20?", vocab, previous=())
    queries = compile_plan(plan, vocab)              # validated SQL; exactly one has primary=True

Every statement a plan compiles to has passed the SQL gate (`warehouse.gate.validate_sql`, which raises
`UnsafeSqlError` for anything unsafe). The LLM planner is optional and off by default:
`combat_analysis.planner.llm.LlmPlanner`. docs/planner.md describes the catalog, the plans and the SQL they
compile to.

- `read/`: the readers of a question's words; `plans/`: from a reading to a plan;
- `offline`: the deterministic planner (`plan_question`); `llm`: the optional language-model planner;
- `faithful`: every word that carries meaning honoured, stated or refused; `compile`: a plan to validated SQL;
- `vocabulary`: the names of the match (or the matches) a question is planned over.

May import `season` (the cross-match figures' names), `warehouse` (the SQL gate), `catalog`, `contracts`,
`formatting`, `settings` and `keys`.
"""

from combat_analysis.planner.compile import PlanError, compile_plan
from combat_analysis.planner.offline import plan_question
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

__all__ = ["Vocabulary", "PlayerInfo", "plan_question", "compile_plan", "PlanError"]
