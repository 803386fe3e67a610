"""The question sensor waits for a question's match: no run while the match is not in the warehouse, a run as
soon as it lands, and after the wait a run that fails naming the match and the wait; saving a file again asks it
again."""

from __future__ import annotations

import json
import os

import dagster as dg

from assets.questions import WAITED_TAG, QuestionConfig, question_assets
from assets.sensors import QuestionCursor, question_files_sensor
from combat_analysis.ingest.run import ingest_log
from resources import CombatHome
from tests.support.dagster import new_instance, resources_for
from tests.support.simulated import simulated_log


def tick(home, cursor=None, wait_minutes: int = 30):
    resources = {**resources_for(home), "home": CombatHome(home=str(home), question_wait_minutes=wait_minutes)}
    with dg.build_sensor_context(instance=new_instance(), resources=resources, cursor=cursor) as context:
        return question_files_sensor(context)


def drop_question(home, name: str, question: str, match_id: str | None):
    folder = home / "questions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(json.dumps({"question": question, "match_id": match_id} if match_id else {"question": question}))
    return path


def test_a_question_waits_for_its_match_then_is_asked(tmp_path):
    home = tmp_path / "home"
    path = drop_question(home, "late.json", "Which player healed the most?", "arrives-later")
    waiting = tick(home)
    assert waiting.run_requests == []
    assert "late.json waits for match 'arrives-later'" in waiting.skip_reason.skip_message
    assert str(path) in QuestionCursor.parse(waiting.cursor).waiting
    assert tick(home, waiting.cursor).run_requests == []  # still waiting, and still remembered
    ingest_log(simulated_log(tmp_path, 64, "arrives-later"), home / "warehouse")
    landed = tick(home, waiting.cursor)
    [request] = landed.run_requests
    assert WAITED_TAG not in request.tags
    assert QuestionCursor.parse(landed.cursor).waiting == {}
    assert tick(home, landed.cursor).run_requests == []  # asked once

    # Saving the file again (same words, a new modification time) asks it again, under the same partition.
    os.utime(path, ns=(path.stat().st_atime_ns, path.stat().st_mtime_ns + 1_000_000_000))
    [again] = tick(home, landed.cursor).run_requests
    assert again.partition_key == request.partition_key and again.run_key != request.run_key


def test_a_question_on_an_empty_warehouse_waits_for_a_first_match(tmp_path):
    home = tmp_path / "home"
    drop_question(home, "any.json", "Who won?", None)
    assert "waits for a first match" in tick(home).skip_reason.skip_message


def test_after_the_wait_the_question_run_fails_naming_the_match_and_the_wait(tmp_path):
    home = tmp_path / "home"
    drop_question(home, "never.json", "How much gold did team 2 earn?", "never-lands")
    waiting = tick(home)
    assert waiting.run_requests == []
    [request] = tick(home, waiting.cursor, wait_minutes=0).run_requests  # the bound has passed
    assert "'never-lands' was not in the warehouse after" in request.tags[WAITED_TAG]
    instance = new_instance()
    instance.add_dynamic_partitions("questions", [request.partition_key])
    result = dg.materialize(question_assets, partition_key=request.partition_key, instance=instance,
                            resources=resources_for(home), tags=request.tags, raise_on_error=False,
                            run_config=dg.RunConfig(ops={"query_plan": QuestionConfig()}))
    assert not result.success
    failure = next(e for e in result.all_events if e.is_step_failure)
    description = failure.step_failure_data.user_failure_data.description
    assert "'never-lands' is not in the warehouse" in description and "waited for it" in description
