"""The ingest in real Dagster runs on logs unlike the sample: the incoming-logs sensor isolates bad files, a log
with two matches yields two partitions, numeric and path-like ids are the partition keys, a bad file fails its
run with the file named and without retries."""

from __future__ import annotations

import dagster as dg
import pytest

from assets.ingest import match_warehouse, raw_match_log
from assets.sensors import incoming_logs_sensor
from combat_analysis.inbox.requests import match_id_for_key, match_key
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from combat_analysis.warehouse.store import match_ids
from tests.support.dagster import new_instance, resources_for


def tick(instance, home, cursor=None) -> dg.SensorResult:
    with dg.build_sensor_context(instance=instance, resources=resources_for(home), cursor=cursor) as context:
        return incoming_logs_sensor(context)


def test_one_bad_file_never_blocks_the_others_and_is_named(tmp_path):
    home = tmp_path / "home"
    incoming = home / "incoming"
    write_match(incoming / "good.log", 61, minutes=3)
    (incoming / "refused.log").write_text('{"eventType": "start", "matchID": "' + "9" * 300 + '"},\n')
    (incoming / "broken.log.gz").write_bytes(b"\x1f\x8b\x08\x00 not really gzip")
    instance = new_instance()
    first = tick(instance, home)
    assert [r.partition_key for r in first.run_requests] == [str(simulated_match_id(61))]
    assert first.skip_reason is None
    # the next tick names every refused file in its skip reason, and then leaves them until they change
    second = tick(instance, home, first.cursor)
    assert second.run_requests == []
    reason = second.skip_reason.skip_message
    assert "refused.log: the match id on line 1 is 300 characters long" in reason
    assert "broken.log.gz: cannot be read" in reason
    assert tick(instance, home, second.cursor).skip_reason is None
    # a corrected file is picked up again
    write_match(incoming / "refused.log", 62, minutes=3)
    fixed = tick(instance, home, second.cursor)
    assert [r.partition_key for r in fixed.run_requests] == [str(simulated_match_id(62))]


@pytest.mark.parametrize("match_id", ["a...b", "~tilde", "Scrim #3 / Finals"])
def test_partition_keys_are_the_ids_and_back(match_id):
    key = match_key(match_id)
    assert match_id_for_key(key) == match_id
    if "..." not in match_id and not match_id.startswith("~"):
        assert key == match_id  # the UI shows the id as the log wrote it
    dg.DynamicPartitionsDefinition(name="x")  # and Dagster accepts the key
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [key])
    assert instance.has_dynamic_partition("matches", key)


def test_a_log_with_two_matches_materializes_both_partitions(tmp_path):
    home = tmp_path / "home"
    first, second = tmp_path / "a.log", tmp_path / "b.log"
    write_match(first, 71, minutes=3, id_style="odd")
    write_match(second, 72, minutes=3)
    both = home / "incoming" / "both.log"
    both.parent.mkdir(parents=True)
    both.write_bytes(first.read_bytes().rstrip(b"\r\n") + b",\r\n" + second.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    instance = new_instance()
    result = tick(instance, home)
    [request] = result.run_requests
    key = request.partition_key
    assert match_id_for_key(key) == str(simulated_match_id(71, "odd"))
    instance.add_dynamic_partitions("matches", [key])
    run = dg.materialize([raw_match_log, match_warehouse], partition_key=key, instance=instance,
                         resources=resources_for(home))
    assert run.success
    other = str(simulated_match_id(72))
    assert sorted(match_ids(home / "warehouse")) == sorted([match_id_for_key(key), other])
    assert instance.has_dynamic_partition("matches", other)
    assert instance.get_materialized_partitions(dg.AssetKey("match_warehouse")) == {key, other}
    checks = {c.check_name: c.passed for c in run.get_asset_check_evaluations()}
    assert all(checks.values()), checks


def test_a_bad_file_fails_its_run_naming_the_file_without_retrying(tmp_path):
    home = tmp_path / "home"
    log = home / "incoming" / "cut.log.gz"
    log.parent.mkdir(parents=True)
    log.write_bytes(b"\x1f\x8b\x08\x00garbage")
    instance = new_instance()
    instance.add_dynamic_partitions("matches", ["cut"])
    for assets, config in (([raw_match_log], {"ops": {"raw_match_log": {"config": {"path": str(log)}}}}),
                           ([match_warehouse], None)):
        run = dg.materialize(assets, partition_key="cut", instance=instance, resources=resources_for(home),
                             raise_on_error=False, run_config=config)
        assert not run.success
        [failure] = [e for e in run.all_events if e.event_type_value == "STEP_FAILURE"]
        assert f"{log}: the gzip archive is corrupt or holds no line" in failure.event_specific_data.error.message
        assert not [e for e in run.all_events if e.event_type_value == "STEP_UP_FOR_RETRY"]
