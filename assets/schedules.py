"""Schedules: the daily digest of the day's matches, and the nightly clean-up of expired data handles."""

import dagster as dg

from assets.jobs import cleanup_handles_job, daily_digest_job

# Named explicitly: Dagster would otherwise call them <job>_schedule, unlike the README and the Python names.
daily_digest_schedule = dg.build_schedule_from_partitioned_job(
    daily_digest_job, name="daily_digest_schedule", hour_of_day=23, minute_of_hour=30,
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Digest of the matches that landed today, written late each evening.",
)

cleanup_handles_schedule = dg.ScheduleDefinition(
    name="cleanup_handles_schedule", job=cleanup_handles_job, cron_schedule="15 4 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Delete expired data handles every night.",
)
