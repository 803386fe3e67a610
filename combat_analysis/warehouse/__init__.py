"""The warehouse: where the matches are kept and the only way planned SQL reads them.

- `store`: the DuckLake every match is kept in (a SQL catalog and Parquet data files), one transaction per
  file, with time travel, history, removal and restore, merging and expiry (docs/warehouse.md);
- `extensions`: the DuckDB extensions the lake needs, loaded from their pinned packages, never downloaded;
- `migrate`: an earlier home's snapshot folders moved into the lake;
- `query`: the locked DuckDB connection every planned statement runs on;
- `gate`: the SQL gate, which lets through only one read-only, allow-listed query over the warehouse views;
- `handles`: data handles, large result tables written as Parquet with an expiry.

May import `catalog`, `contracts`, `formatting`, `settings` and `keys`; never the planner or anything above it
(the read path checks SQL with its own gate).
"""
