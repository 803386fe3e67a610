"""Partitions: one per match, one per question (so no answer overwrites another), one per day for digests."""

import dagster as dg

match_partitions = dg.DynamicPartitionsDefinition(name="matches")
question_partitions = dg.DynamicPartitionsDefinition(name="questions")
digest_days = dg.DailyPartitionsDefinition(start_date="2025-01-01", end_offset=1)
