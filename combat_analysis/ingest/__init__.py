"""Logs in, matches out: reading SMITE 2 combat logs into the warehouse.

- `logfile`: framing and surveying a log file as the game writes it (BOM, CRLF, trailing commas, `.gz`);
- `derive`: parse, check and derive every warehouse table for a batch of logs in one DuckDB connection (its
  long statements are the `.sql` files in `sql/`);
- `run`: the ingest run: batches, the one-writer commit, the progress callbacks (`ingest_log`, `ingest_logs`);
- `simulate`: realistic simulated matches in the real format.

May import `warehouse`, `catalog`, `contracts`, `formatting`, `settings` and `keys`.
"""
