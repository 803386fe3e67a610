"""combat-analysis: answer questions about SMITE 2 combat logs.

The domain core. It never imports dagster: the Dagster layer (`assets/`, `resources/`) calls into it. Its
packages follow the data's path, one job each, in layers; a layer may import only the layers below it
(`[tool.importlinter]` in pyproject.toml checks it):

 1. `app`: the console script, the resident client and server, the CLI;
 2. `reports`: the match and season reports;
 3. `answer`: the pipeline, its first stage and its two stage sequences (one match, across matches);
 4. `planner`: a question to a `QueryPlan` and its SQL;
 5. `season`: the figures across matches and their answers;
 6. `charts`: matplotlib charts, drawn here or in a worker process;
 7. `render`: the one document model and its templates;
 8. `inbox`: files dropped in, and when answers expire;
 9. `ingest`: logs into the warehouse;
10. `warehouse`: snapshots, the locked read connection, the SQL gate, data handles;
11. `catalog`: the metric catalog and NPC kinds;
12. `contracts`: the plan, the package, the schema, match selections;
13. `formatting`: numbers, clocks, plurals and shares;
14. `settings` and `keys`: the data home's paths; partition keys as folder names.
"""

__version__ = "0.1.0"
