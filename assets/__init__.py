"""Dagster assets, checks, partitions, sensors, schedules and jobs of combat-analysis."""
