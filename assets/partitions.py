"""Partitions: one per match, one per question (so no answer overwrites another), one per day for digests."""

import dagster as dg

# The names as constants: DynamicPartitionsDefinition.name is Optional (a partition_fn needs none), while the
# instance's partition calls take a str.
MATCH_PARTITIONS = "matches"
QUESTION_PARTITIONS = "questions"
match_partitions = dg.DynamicPartitionsDefinition(name=MATCH_PARTITIONS)
question_partitions = dg.DynamicPartitionsDefinition(name=QUESTION_PARTITIONS)
digest_days = dg.DailyPartitionsDefinition(start_date="2025-01-01", end_offset=1)
