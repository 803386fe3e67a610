"""The query analyst's brain: question -> typed QueryPlan -> validated SQL.

    vocab = Vocabulary.from_connection(con)          # names of the one match the connection is scoped to
    plan = plan_question("who dealt the most damage after minute 20?", vocab, previous=())
    queries = compile_plan(plan, vocab)              # validated SQL; exactly one has primary=True
    validate_sql(sql)                                # raises UnsafeSqlError for anything unsafe

The LLM planner is optional and off by default: `combat_analysis.planner.llm.LlmPlanner`.
docs/planner.md describes the catalog, the plans and the SQL they compile to.
"""

from combat_analysis.planner.compile import PlanError, compile_plan
from combat_analysis.planner.offline import plan_question
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary
from combat_analysis.warehouse.gate import UnsafeSqlError, validate_sql

__all__ = ["Vocabulary", "PlayerInfo", "plan_question", "compile_plan", "validate_sql", "UnsafeSqlError",
           "PlanError"]
