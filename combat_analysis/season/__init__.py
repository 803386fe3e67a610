"""The season: figures across matches and their answers.

- `figures`: player profiles, god and role records, head-to-head, trends and leaderboards, one SQL query each
  over the warehouse opened across matches (docs/season.md);
- `answers`: a plan's season figure run through the gate and laid out as rows, and the sentence that answers it.

May import `charts`, `render`, `inbox`, `ingest`, `warehouse`, `catalog`, `contracts`, `formatting`,
`settings` and `keys`.
"""
