"""Fixtures of the system tests: a PostgreSQL server, Chromium and every report, logs to kill an ingest on and
the states a reader may see, `make demo` run once, and `dagster dev` serving a home with the sample match."""

from __future__ import annotations

import contextlib
import os
import pwd
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import dagster as dg
import pytest

from assets.ingest import match_warehouse, raw_match_log
from assets.reports import match_report
from combat_analysis.app import remote
from combat_analysis.app.report_server import make_server
from combat_analysis.ingest.run import ingest_log
from combat_analysis.ingest.simulate import simulated_match_id, write_match
from resources import CombatHome
from tests.support.commands import SCREEN_COLUMNS, cli
from tests.support.crash import state
from tests.support.dagster import drop_log, local_dagster_home, new_instance, resources_for
from tests.support.paths import ROOT, SAMPLE_LOG, SAMPLE_MATCH_ID
from tests.support.postgres import Postgres, free_port, pg_bin
from tests.support.processes import stop_group
from tests.support.reports import reports_once


@pytest.fixture(scope="module")
def postgres() -> Iterator[Postgres]:
    """A throwaway PostgreSQL server. PostgreSQL refuses to run as root, so as root (CI) it runs as the
    `postgres` user on a directory that user owns."""
    bin_dir = pg_bin()
    if bin_dir is None:
        message = "PostgreSQL is not installed (Debian: apt-get install postgresql; .ci/run does it)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    as_root = os.geteuid() == 0
    owner = pwd.getpwnam("postgres") if as_root else None
    as_owner = ["runuser", "-u", "postgres", "--"] if as_root else []
    # Not under pytest's tmp_path: its parent is private to root, and the server user must reach its files.
    root = Path(tempfile.mkdtemp(prefix="combat-pg-"))
    server = Postgres(host="127.0.0.1", port=free_port(), user="dagster", password=secrets.token_hex(12),
                      db="dagster")
    password_file = root / "password"
    password_file.write_text(server.password, encoding="utf-8")
    if owner:
        for path in (root, password_file):
            os.chown(path, owner.pw_uid, owner.pw_gid)
    data = root / "data"

    def run(*command: str) -> None:
        done = subprocess.run([*as_owner, *command], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{command[0]} failed: {done.stderr or done.stdout}"

    run(str(bin_dir / "initdb"), "-D", str(data), "-U", server.user, f"--pwfile={password_file}",
        "--auth-local=trust", "--auth-host=scram-sha-256", "-E", "UTF8", "--no-sync")
    options = (f"-c listen_addresses=127.0.0.1 -c port={server.port} -c unix_socket_directories={root} "
               "-c fsync=off -c synchronous_commit=off -c full_page_writes=off")
    run(str(bin_dir / "pg_ctl"), "-D", str(data), "-l", str(root / "server.log"), "-o", options, "-w", "-t", "60",
        "start")
    try:
        with contextlib.closing(server.connect("postgres")) as con:
            con.autocommit = True
            with con.cursor() as cur:
                cur.execute(f"CREATE DATABASE {server.db}")
        yield server
    finally:
        subprocess.run([*as_owner, str(bin_dir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "stop"],
                       capture_output=True, timeout=120)
        shutil.rmtree(root, ignore_errors=True)


CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"


@pytest.fixture(scope="module")
def chromium() -> str:
    if not Path(CHROMIUM).exists():
        if os.environ.get("CI"):
            pytest.fail(f"Chromium not found at {CHROMIUM}; CI must install it (apt-get install -y chromium)")
        pytest.skip(f"Chromium not installed at {CHROMIUM} (install: apt-get install -y chromium)")
    return CHROMIUM


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return reports_once(tmp_path_factory)


SEED = 41


MATCH_ID = simulated_match_id(SEED)


@pytest.fixture(scope="module")
def logs(tmp_path_factory) -> dict[str, Path]:
    work = tmp_path_factory.mktemp("crash-logs")
    old, new = work / "old.log", work / "new.log"
    write_match(old, SEED, minutes=4)
    write_match(new, SEED, minutes=5)  # same match id, other content: a replacement
    first, second = work / "a.log", work / "b.log"
    write_match(first, 51, minutes=4)
    write_match(second, 52, minutes=4)
    both = work / "two-matches.log"
    both.write_bytes(first.read_bytes().rstrip(b"\r\n") + b",\r\n" + second.read_bytes().removeprefix(b"\xef\xbb\xbf"))
    return {"old": old, "new": new, "both": both}


@pytest.fixture(scope="module")
def expected(logs, tmp_path_factory) -> dict[str, dict]:
    """The states a reader may see: nothing, the old match, the new match, the two matches."""
    states = {"empty": {}}
    for name in ("old", "new", "both"):
        root = tmp_path_factory.mktemp(f"expected-{name}")
        ingest_log(logs[name], root)
        states[name] = state(root)
    assert states["old"][MATCH_ID][0] != states["new"][MATCH_ID][0]
    assert len(states["both"]) == 2
    return states


@pytest.fixture(scope="module")
def old_warehouse(logs, tmp_path_factory) -> Path:
    home = tmp_path_factory.mktemp("old-home")
    ingest_log(logs["old"], home / "warehouse")
    return home


@pytest.fixture(scope="module")
def demo(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path, Path]:
    tmp = tmp_path_factory.mktemp("demo")
    dagster_home, data = tmp / "dagster_home", tmp / "data"
    dagster_home.mkdir()
    shutil.copyfile(ROOT / "deploy" / "dagster.local.yaml", dagster_home / "dagster.yaml")
    env = {**os.environ, "DAGSTER_HOME": str(dagster_home), "COMBAT_ANALYSIS_HOME": str(data),
           "MPLBACKEND": "Agg", "COLUMNS": str(SCREEN_COLUMNS)}
    # Run from an unrelated directory: the code location is an installed module, no sys.path edits needed.
    run = subprocess.run([sys.executable, str(ROOT / "scripts" / "demo.py")], cwd=tmp, env=env,
                         capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stdout + run.stderr
    return run, dagster_home, data


@pytest.fixture(scope="module")
def report_server(tmp_path_factory):
    """The sample's match report materialized with a report server configured, and that server running."""
    home = tmp_path_factory.mktemp("report-links")
    server = make_server(home, port=0)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_port}"
    instance = new_instance()
    instance.add_dynamic_partitions("matches", [SAMPLE_MATCH_ID])
    drop_log(home, SAMPLE_LOG)
    resources = {**resources_for(home), "home": CombatHome(home=str(home), reports_url=url)}
    assert dg.materialize(
        [raw_match_log, match_warehouse, match_report], partition_key=SAMPLE_MATCH_ID, instance=instance,
        resources=resources,
        run_config={"ops": {"raw_match_log": {"config": {"path": str(home / "incoming" / SAMPLE_LOG.name)}}}},
    ).success
    event = instance.get_latest_materialization_event(dg.AssetKey("match_report"))
    yield home, url, event.asset_materialization.metadata["report_url"].value
    server.shutdown()
WEBSERVER_START_S = 240


def _serving(base_url: str) -> bool:
    try:
        remote.find_repository(remote.GraphQL(base_url))
    except remote.RemoteError:
        return False
    return True


@pytest.fixture(scope="module")
def webserver(tmp_path_factory):
    """`dagster dev` serving the project, over a data home that already holds the sample match."""
    tmp = tmp_path_factory.mktemp("remote-ask")
    data = tmp / "data"
    ingested = cli(data, "ingest", str(SAMPLE_LOG))
    assert ingested.returncode == 0, ingested.stderr
    # Every run in process: each ingest and report run of the module then costs one process, not a run worker and
    # a forkserver. That a question's run goes in process whatever the variable names (multiprocess) is shown by
    # test_postgres_deploy.py, whose daemon runs both kinds.
    env = {**os.environ, "DAGSTER_HOME": str(local_dagster_home(tmp / "dagster_home")),
           "COMBAT_ANALYSIS_HOME": str(data), "COMBAT_ANALYSIS_EXECUTOR": "in_process", "MPLBACKEND": "Agg"}
    base_url = f"http://127.0.0.1:{free_port()}"
    with open(tmp / "dagster_dev.log", "w") as log:
        server = subprocess.Popen(
            [str(Path(sys.executable).parent / "dagster"), "dev", "-w", str(ROOT / "workspace.yaml"),
             "-h", "127.0.0.1", "-p", base_url.rsplit(":", 1)[1]],
            cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
        try:
            deadline = time.monotonic() + WEBSERVER_START_S
            while not _serving(base_url):
                assert server.poll() is None, (tmp / "dagster_dev.log").read_text()
                assert time.monotonic() < deadline, "the webserver did not serve the project in time"
                time.sleep(2)
            yield base_url, data
        finally:
            stop_group(server)  # nothing of `dagster dev`'s group is left behind
