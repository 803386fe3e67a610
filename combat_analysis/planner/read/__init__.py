"""The readers of a question's words, each for one slot: what a question names and asks, before any plan.

- `reading`: the whole reading (`read_question`): names found and masked first, then figures, shape, qualifiers;
- `names`: players, gods, abilities, items, NPCs, teams and roles as people type them (loosely, by fragment);
- `words`: the words the planner knows, so the unread ones can be told apart;
- `timewords`: time windows ("first 10 minutes", "after minute 20", "early game");
- `conditions`: conditions on a figure ("more than 10 kills");
- `scope`: which matches a question is about ("across all matches", "this week", "in match 5147276662");
- `parts`: a question in several parts ("who got first blood and who won");
- `exclusions`: what a question leaves out ("excluding supports"), turned into the plan's filters.

May import the planner's `vocabulary` and `plans.refusals` (an exclusion the log cannot honour is refused), and
the layers below the planner.
"""
