"""The ways in: the console script and its commands.

- `main`: the console script `combat-analysis`; dispatches to the client, the CLI or the server;
- `client`: the thin client that hands `ask` to a running answer server (imports nothing of the answer path);
- `server`: `combat-analysis serve`, the resident answer process;
- `remote`: `ask --dagster-url`, a question asked of a running Dagster webserver over its GraphQL API;
- `cli`: the commands (`ingest`, `ask`, `simulate`, `matches`, `cleanup-handles`) and their options.

The top layer: may import every other package of combat_analysis. `cli` and `server` never import each other.
"""
