"""From a reading to a `QueryPlan`.

- `intents`: the plan of one reading, by intent (rankings, lookups, events, timelines, builds...);
- `single`: one question read on its own: names checked, special shapes first, `faithful.check`, compiled once;
- `followup`: a short question that leans on the one before it, answered by merging slots;
- `crossmatch`: a question across matches as a season figure of docs/season.md;
- `refusals`: what is not answered, and how a refusal says so.

May import `planner.read`, the planner's `vocabulary`, `compile` and `faithful`, and the layers below the planner.
"""
