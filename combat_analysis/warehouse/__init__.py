"""The warehouse: where the matches are kept and the only way planned SQL reads them.

- `store`: one immutable Parquet snapshot per match, committed atomically, and the season layer across them
  (docs/warehouse.md);
- `query`: the locked DuckDB connection every planned statement runs on;
- `gate`: the SQL gate, which lets through only one read-only, allow-listed query over the warehouse views;
- `handles`: data handles, large result tables written as Parquet with an expiry.

May import `catalog`, `contracts`, `formatting`, `settings` and `keys`; never the planner or anything above it
(the read path checks SQL with its own gate).
"""
