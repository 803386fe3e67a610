"""The simulated matches the warehouse tests (tests/warehouse/) build their warehouses from: the fixtures in
tests/warehouse/conftest.py and the tests themselves both need them."""

from __future__ import annotations

from combat_analysis.ingest.simulate import simulated_match_id

# merging the files of many matches: nine matches, more than `store.COMPACT_AFTER`
MANY_SEEDS = (401, 402, 403, 404, 405, 406, 407, 408, 409)
# the locked connection against truth.py: a numeric id as the game writes them, a name with an apostrophe
TRUTH_MATCHES = {61: "5147276662", 62: "Match O'Neil"}
# snapshots: one match in two versions (a replacement)
SNAPSHOT_SEED = 81
SNAPSHOT_MATCH_ID = str(simulated_match_id(SNAPSHOT_SEED))
