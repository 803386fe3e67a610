"""Answering a question: the query analyst, then one of two stage sequences, in one pipeline.

- `pipeline`: `answer_question`, `run_stages`, `choose_match`; the sequence a plan takes (`sequence_for`);
- `env`: `StageEnv`, what every stage needs from outside the package; `results`: reading a question's results;
- `query_analyst`: the first stage of both sequences (the question as a plan);
- `match/`: the later stages for one match; `season/`: the later stages across matches;
- `charting`: the visualization stage's drawing, and `compose`: the composer's response, report and checks,
  both shared by the two sequences;
- `patterns` (team fights, streaks, gold swings, death recaps), `mvp` (the MVP rule), `fidelity` (every
  number traced to the data) and `report` (the answer as markdown and HTML).

May import `planner`, `season`, `charts`, `render`, `inbox`, `ingest`, `warehouse`, `catalog`, `contracts`,
`formatting`, `settings` and `keys`. Within it, a stage of one sequence never imports the other sequence or
the pipeline.
"""
