"""The query analyst's brain: question -> typed QueryPlan -> validated SQL.

    vocab = Vocabulary.from_connection(con)
    plan = plan_question("who dealt the most damage after minute 20?", vocab)
    queries = compile_plan(plan, vocab)   # exactly one has primary=True
"""

from combat_analysis.planner.compile import PlanError, compile_plan
from combat_analysis.planner.validate import UnsafeSqlError, validate_sql
from combat_analysis.planner.vocabulary import PlayerInfo, Vocabulary

__all__ = ["Vocabulary", "PlayerInfo", "plan_question", "compile_plan", "validate_sql", "UnsafeSqlError",
           "PlanError"]


def plan_question(question, vocab, previous=()):
    from combat_analysis.planner.offline import plan_question as offline_plan

    return offline_plan(question, vocab, previous)
