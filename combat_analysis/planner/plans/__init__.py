"""From a reading to a `QueryPlan`.

- `intents`: the plan of one reading: the first intent family that recognises it, and the dependent shapes;
- `events`: event lists, match patterns and build orders; `figures`: figures composed from the slots;
- `draft`: who a question is about (`Entities`), the plan under construction (`Draft`) and its summary;
- `cues`: the cue words of the intent families;
- `superlatives`: a yes or no whether one subject holds a superlative, or is the one an event names (`check`, `compare`);
- `single`: one question read on its own: names checked, special shapes first, `faithful.check`, compiled once;
- `followup`: a short question that leans on the one before it, answered by merging slots;
- `crossmatch`: a question across matches as a season figure of docs/season.md;
- `refusals`: what is not answered, and how a refusal says so.

May import `planner.read`, the planner's `vocabulary`, `compile` and `faithful`, and the layers below the planner.
"""
