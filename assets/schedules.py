"""Schedules: the daily digest of the day's matches, and the nightly housekeeping (expired data handles and
question partitions)."""

import dagster as dg

from assets.jobs import daily_digest_job, housekeeping_job

# Named explicitly: Dagster would otherwise call them <job>_schedule, unlike the README and the Python names.
daily_digest_schedule = dg.build_schedule_from_partitioned_job(
    daily_digest_job, name="daily_digest_schedule", hour_of_day=23, minute_of_hour=30,
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Digest of the matches that landed today, written late each evening.",
)

housekeeping_schedule = dg.ScheduleDefinition(
    name="housekeeping_schedule", job=housekeeping_job, cron_schedule="15 4 * * *",
    default_status=dg.DefaultScheduleStatus.RUNNING,
    description="Every night: delete expired data handles, and expire question partitions inactive for longer "
                "than the retention setting.",
)
