"""Ask a running Dagster webserver a question, in one call: `combat-analysis ask --dagster-url URL "question"`
or `remote.ask(URL, "question")` from any program.

It speaks the webserver's GraphQL API over plain HTTP (the core never imports dagster), in four steps:

1. `addDynamicPartition`: a new partition of `questions` for this question (a key of its own, so no earlier
   answer is touched);
2. `launchRun` of `answer_question_job` for that partition, the question in the run config of `query_plan`
   (which registers it in the data home, as the question sensor does for a file);
3. polls the run, with each stage's progress on stderr (a run the daemon has not started yet says so);
4. reads the answer from the materializations: `answer_report`'s `direct_answer` and report paths,
   `query_plan`'s `intent` (`refuse` for a refusal).

Failures are `RemoteError`s whose message says what to do and whose `exit_code` is the CLI's: 2 for bad input
(the question, the options, a run its own checks refused), 3 for the rest (no webserver at the address, a run
that failed, a timeout). An answer exits 0, a refusal 1.
"""

from __future__ import annotations

import json
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass
from datetime import datetime, timezone

from pydantic import ValidationError

from combat_analysis.app.exits import Exit
from combat_analysis.formatting import count
from combat_analysis.inbox.requests import QuestionRequest
from combat_analysis.keys import check_key

JOB = "answer_question_job"
QUESTION_PARTITIONS = "questions"
PLAN_ASSET, FINAL_ASSET = "query_plan", "answer_report"
PARTITION_TAG = "dagster/partition"
DEFAULT_TIMEOUT_S = 900.0
POLL_S = 1.0
QUEUED_HINT_S = 30.0  # a run still queued after this long: say that a daemon must start it
HTTP_TIMEOUT_S = 30.0

# The command line's one exit-code policy (app/exits.py), under the names this module's callers use.
ANSWERED, REFUSED, BAD_INPUT, INTERNAL_ERROR = Exit.OK, Exit.REFUSED, Exit.BAD_INPUT, Exit.INTERNAL
DONE = frozenset({"SUCCESS", "FAILURE", "CANCELED"})
# Errors a run raises about what it was asked (the question, its key, its match), not about itself: by class name.
INPUT_ERRORS = frozenset({"Failure", "WarehouseError", "RequestError", "ValidationError", "KeyRefused"})

Progress = Callable[[str], None]


class RemoteError(Exception):
    """The remote ask could not give an answer; the message says why and what to do."""

    exit_code = INTERNAL_ERROR


class RemoteBadInput(RemoteError):
    exit_code = BAD_INPUT


class RemoteUnreachable(RemoteError):
    """Nothing answers at the address, or what answers is not a Dagster webserver with this project."""


class RemoteRunFailed(RemoteError):
    """The run ended without an answer; the message carries the failed stage's error."""


class RemoteTimeout(RemoteError):
    """The run did not finish in time; it keeps running on the server."""


@dataclass(frozen=True)
class RemoteAnswer:
    """An answer read from a run's materializations. The report paths are on the server's file system."""

    question: str
    direct_answer: str
    refused: bool
    partition: str
    run_id: str
    run_url: str
    match_id: str = ""
    warehouse_snapshot: str = ""
    report_html: str = ""
    report_markdown: str = ""

    @property
    def exit_code(self) -> int:
        return REFUSED if self.refused else ANSWERED

    def to_json(self) -> str:
        return json.dumps({**asdict(self), "exit_code": self.exit_code}, indent=2)


# ------------------------------------------------------------------------------------------- the transport

def webserver_url(url: str) -> str:
    """The webserver's base URL: a scheme added when missing, a trailing `/` or `/graphql` dropped."""
    url = url.strip()
    if "://" not in url:
        url = f"http://{url}"
    parsed = urllib.parse.urlsplit(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise RemoteBadInput(f"--dagster-url {url!r} is not an http(s) address such as http://localhost:3000")
    path = parsed.path.rstrip("/").removesuffix("/graphql")
    return urllib.parse.urlunsplit((parsed.scheme, parsed.netloc, path, "", ""))


@dataclass(frozen=True)
class GraphQL:
    """One webserver's GraphQL endpoint."""

    base_url: str
    timeout_s: float = HTTP_TIMEOUT_S

    def query(self, text: str, variables: dict | None = None) -> dict:
        body = json.dumps({"query": text, "variables": variables or {}}).encode("utf-8")
        request = urllib.request.Request(f"{self.base_url}/graphql", body, {"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout_s) as response:
                payload = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            raise RemoteUnreachable(f"{self.base_url}/graphql answered HTTP {exc.code} ({exc.reason}): is "
                                    "this a Dagster webserver's address?") from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise RemoteUnreachable(f"cannot reach the Dagster webserver at {self.base_url} ({reason}); start it "
                                    "there (`make dev`, or `dagster-webserver` with `dagster-daemon run`) or "
                                    "correct --dagster-url") from None
        except ValueError:
            raise RemoteUnreachable(f"{self.base_url}/graphql did not answer in JSON: is this a Dagster "
                                    "webserver's address?") from None
        if payload.get("errors"):
            messages = "; ".join(e.get("message", str(e)) for e in payload["errors"])
            raise RemoteError(f"the webserver at {self.base_url} refused the request: {messages}")
        return payload["data"]


# ------------------------------------------------------------------------------------------ the four calls

REPOSITORIES = """{ repositoriesOrError { __typename
  ... on RepositoryConnection { nodes { name location { name } jobs { name } } }
  ... on Error { message } } }"""

LOAD_ERRORS = """{ workspaceOrError { ... on Workspace { locationEntries { name
  locationOrLoadError { __typename ... on PythonError { message } } } } } }"""

ADD_PARTITION = """mutation($repo: RepositorySelector!, $name: String!, $key: String!) {
  addDynamicPartition(repositorySelector: $repo, partitionsDefName: $name, partitionKey: $key) {
    __typename ... on Error { message } } }"""

LAUNCH = """mutation($params: ExecutionParams!) { launchRun(executionParams: $params) {
  __typename
  ... on LaunchRunSuccess { run { runId } }
  ... on RunConfigValidationInvalid { errors { message } }
  ... on Error { message } } }"""

STATUS = """query($id: ID!) { runOrError(runId: $id) { __typename
  ... on Run { status stepStats { stepKey status } }
  ... on Error { message } } }"""

MATERIALIZATIONS = """query($id: ID!) { runOrError(runId: $id) { ... on Run {
  assetMaterializations { assetKey { path } metadataEntries { label
    ... on TextMetadataEntry { text } ... on PathMetadataEntry { path } ... on UrlMetadataEntry { url }
    ... on IntMetadataEntry { intRepr } ... on FloatMetadataEntry { floatRepr }
    ... on BoolMetadataEntry { boolValue } ... on MarkdownMetadataEntry { mdStr }
    ... on JsonMetadataEntry { jsonString } } } } } }"""

EVENTS = """query($id: ID!, $after: String) { runOrError(runId: $id) { ... on Run {
  eventConnection(afterCursor: $after, limit: 500) { cursor hasMore events { __typename
    ... on ExecutionStepFailureEvent { stepKey message error { className message cause { className message } } }
    ... on RunFailureEvent { message error { className message } } } } } } }"""


def find_repository(client: GraphQL) -> dict:
    """The selector of the repository that defines `answer_question_job`."""
    found = client.query(REPOSITORIES)["repositoriesOrError"]
    for repo in found.get("nodes") or ():
        if any(job["name"] == JOB for job in repo["jobs"]):
            return {"repositoryLocationName": repo["location"]["name"], "repositoryName": repo["name"]}
    why = found.get("message") or _load_errors(client) or "no code location defines it"
    raise RemoteUnreachable(f"the webserver at {client.base_url} has no {JOB}: {why} (is it serving this "
                            "project's workspace.yaml?)")


def _load_errors(client: GraphQL) -> str:
    entries = (client.query(LOAD_ERRORS).get("workspaceOrError") or {}).get("locationEntries") or ()
    failed = [f"code location {e['name']!r} failed to load: {_first_line(e['locationOrLoadError']['message'])}"
              for e in entries if (e.get("locationOrLoadError") or {}).get("__typename") == "PythonError"]
    return "; ".join(failed)


def add_partition(client: GraphQL, repo: dict, key: str) -> None:
    """Registers the question partition; one that exists already is fine (its run refuses another question)."""
    result = client.query(ADD_PARTITION, {"repo": repo, "name": QUESTION_PARTITIONS, "key": key})
    result = result["addDynamicPartition"]
    if result["__typename"] not in ("AddDynamicPartitionSuccess", "DuplicateDynamicPartitionError"):
        raise RemoteError(f"could not add the question partition {key!r}: {result.get('message', result)}")


def run_config(request: QuestionRequest) -> dict:
    """The question as `query_plan`'s config (`assets.questions.QuestionConfig`)."""
    return {"ops": {PLAN_ASSET: {"config": {
        "question": request.question, "match_id": request.match_id or "",
        "previous_queries": list(request.previous_queries), "followups": request.followups,
    }}}}


def launch(client: GraphQL, repo: dict, key: str, request: QuestionRequest) -> str:
    """Launches the question's run; its id."""
    params = {"selector": {**repo, "jobName": JOB}, "runConfigData": run_config(request),
              "executionMetadata": {"tags": [{"key": PARTITION_TAG, "value": key},
                                             {"key": "combat_analysis/asked_by", "value": "remote ask"}]}}
    result = client.query(LAUNCH, {"params": params})["launchRun"]
    if result["__typename"] == "LaunchRunSuccess":
        return result["run"]["runId"]
    if result["__typename"] == "RunConfigValidationInvalid":
        raise RemoteBadInput("the webserver refused the question's run config: "
                             + "; ".join(e["message"] for e in result["errors"]))
    raise RemoteError(f"could not launch {JOB}: {result.get('message', result['__typename'])}")


# ------------------------------------------------------------------------------------------------ waiting

@dataclass(frozen=True)
class RunState:
    status: str
    steps: tuple[tuple[str, str], ...]  # (step key, status) in the order the run reports them


def run_state(client: GraphQL, run_id: str) -> RunState:
    found = client.query(STATUS, {"id": run_id})["runOrError"]
    if found["__typename"] != "Run":
        raise RemoteError(f"run {run_id} is gone from the webserver: {found.get('message', found['__typename'])}")
    return RunState(found["status"], tuple((s["stepKey"], s["status"] or "") for s in found["stepStats"]))


def news(before: RunState | None, now: RunState) -> list[str]:
    """What changed between two looks at a run, as progress lines."""
    lines = [] if before is not None and before.status == now.status else [f"run {now.status.lower()}"]
    seen = dict(before.steps) if before else {}
    for step, status in now.steps:
        if status and seen.get(step) != status:
            lines.append(f"{step}: {status.lower().replace('_', ' ')}")
    return lines


def wait(client: GraphQL, run_id: str, timeout_s: float, progress: Progress, run_url: str,
         poll_s: float = POLL_S) -> RunState:
    """Polls the run until it ends; progress lines as it goes. Raises `RemoteTimeout` after `timeout_s`."""
    started = time.monotonic()
    before, hinted = None, False
    while True:
        now = run_state(client, run_id)
        for line in news(before, now):
            progress(line)
        if now.status in DONE:
            return now
        waited = time.monotonic() - started
        if now.status == "QUEUED" and waited > QUEUED_HINT_S and not hinted:
            progress(f"still queued after {waited:.0f} s: the Dagster daemon starts queued runs "
                     "(`make dev` runs one; else `dagster-daemon run`)")
            hinted = True
        if waited > timeout_s:
            raise RemoteTimeout(f"no answer within {timeout_s:g} s; the run goes on, see {run_url}")
        before = now
        time.sleep(poll_s)


# -------------------------------------------------------------------------------------------- the outcome

_VALUE_FIELDS = ("text", "path", "url", "intRepr", "floatRepr", "boolValue", "mdStr", "jsonString")


def entry_value(entry: dict) -> str:
    """A metadata entry's value as text, whatever its type."""
    return next((str(entry[f]) for f in _VALUE_FIELDS if entry.get(f) is not None), "")


def materialized(client: GraphQL, run_id: str) -> dict[str, dict[str, str]]:
    """Each asset the run materialized: its metadata as label -> text (the last materialization of each)."""
    found = client.query(MATERIALIZATIONS, {"id": run_id})["runOrError"]
    return {"/".join(m["assetKey"]["path"]): {e["label"]: entry_value(e) for e in m["metadataEntries"]}
            for m in found.get("assetMaterializations") or ()}


def answer_from(assets: dict[str, dict[str, str]], key: str, run_id: str, run_url: str) -> RemoteAnswer:
    final, plan = assets.get(FINAL_ASSET), assets.get(PLAN_ASSET, {})
    if final is None:
        raise RemoteRunFailed(f"run {run_id} succeeded but materialized no {FINAL_ASSET}; see {run_url}")
    return RemoteAnswer(
        question=final.get("question", plan.get("question", "")), direct_answer=final.get("direct_answer", ""),
        refused=plan.get("intent") == "refuse", partition=key, run_id=run_id, run_url=run_url,
        match_id=plan.get("match_id", ""), warehouse_snapshot=plan.get("warehouse_snapshot", ""),
        report_html=final.get("report_html", ""), report_markdown=final.get("report_markdown", ""))


def run_events(client: GraphQL, run_id: str) -> Iterator[dict]:
    after = None
    while True:
        found = client.query(EVENTS, {"id": run_id, "after": after})["runOrError"].get("eventConnection") or {}
        yield from found.get("events") or ()
        if not found.get("hasMore"):
            return
        after = found["cursor"]


def _first_line(text: str) -> str:
    return next((line.strip() for line in (text or "").splitlines() if line.strip()), "")


def _without_class(message: str, class_name: str | None) -> str:
    """`pkg.module.WarehouseError: match ...` -> `match ...`: the class is Python's detail, the rest the reason."""
    head, _, rest = message.partition(": ")
    return rest if class_name and rest and head.split(".")[-1] == class_name else message


def _cause(error: dict | None) -> dict:
    """The innermost error: Dagster wraps what the stage raised in its own step error."""
    while error and error.get("cause"):
        error = error["cause"]
    return error or {}


def failure(client: GraphQL, run_id: str, status: str, run_url: str) -> RemoteError:
    """Why the run ended without an answer: the failed stage and its error, else the run's own message."""
    events = list(run_events(client, run_id))
    for event in events:
        if event["__typename"] == "ExecutionStepFailureEvent":
            cause = _cause(event.get("error"))
            kind = RemoteBadInput if cause.get("className") in INPUT_ERRORS else RemoteRunFailed
            message = _without_class(_first_line(cause.get("message") or event["message"]), cause.get("className"))
            return kind(f"the {event['stepKey']} stage failed: {message} (run {run_url})")
    runs = [_first_line(e["message"]) for e in events if e["__typename"] == "RunFailureEvent"]
    return RemoteRunFailed(f"run {status.lower()}: {runs[-1] if runs else 'no reason recorded'} (run {run_url})")


# ------------------------------------------------------------------------------------------- the one call

def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def question_request(question: str, match: str | None, previous: tuple[str, ...], followups: bool) -> QuestionRequest:
    """The request as the run will check it, checked here first, so a bad one launches nothing."""
    try:
        return QuestionRequest(question=" ".join(question.split()), match_id=match or None,
                               previous_queries=tuple(previous), followups=followups)
    except ValidationError as exc:  # a match id keys.py cannot map is one too
        raise RemoteBadInput("; ".join(f"{'.'.join(map(str, r['loc']))}: {r['msg']}" for r in exc.errors())) from None


def partition_key(request: QuestionRequest, now: datetime | None = None) -> str:
    """A key of this ask's own: the request's readable key and the time, so asking again answers afresh
    (a partition keeps the warehouse snapshot its first answer read)."""
    stamp = (now or datetime.now(timezone.utc)).strftime("%Y%m%dt%H%M%S%fz")
    return check_key(f"{request.key()}-{stamp}", "question partition key")


def ask(url: str, question: str, *, match: str | None = None, previous: tuple[str, ...] = (),
        followups: bool = True, key: str | None = None, timeout: float = DEFAULT_TIMEOUT_S,
        progress: Progress = _stderr) -> RemoteAnswer:
    """Ask the Dagster webserver at `url` (e.g. http://localhost:3000) `question`, as a run of
    `answer_question_job` in a new question partition (`key`, else one of its own), and wait for the answer.

    `match`: a match id (default: the run chooses as `ask` does, across matches or the latest one). Progress
    lines go to `progress` (stderr by default). Raises `RemoteError` (see the module's docstring)."""
    request = question_request(question, match, previous, followups)
    key = check_key(key, "question partition key") if key else partition_key(request)
    client = GraphQL(webserver_url(url))
    repo = find_repository(client)
    add_partition(client, repo, key)
    run_id = launch(client, repo, key, request)
    run_url = f"{client.base_url}/runs/{run_id}"
    progress(f"asked {client.base_url} as question partition {key!r}: run {run_url}")
    state = wait(client, run_id, timeout, progress, run_url)
    if state.status != "SUCCESS":
        raise failure(client, run_id, state.status, run_url)
    done = sum(1 for _, status in state.steps if status == "SUCCESS")
    progress(f"answered: {count(done, 'stage')} ran")
    return answer_from(materialized(client, run_id), key, run_id, run_url)


# ------------------------------------------------------------------------------------------------ the CLI

def print_answer(answer: RemoteAnswer, as_json: bool) -> None:
    """The answer and where its report is, on stdout (progress went to stderr)."""
    if as_json:
        print(answer.to_json())
        return
    print(answer.direct_answer)
    if answer.report_html:
        print(f"report: {answer.report_html}")
    print(f"run: {answer.run_url}")


def main(args) -> int:
    """`combat-analysis ask --dagster-url URL ...`: the exit code (0 answered, 1 refused, 2 bad input, 3 an
    internal error)."""
    try:
        if args.log or args.dagster or args.as_of is not None:
            raise RemoteBadInput("--dagster-url asks the webserver's own warehouse: use --match (drop a new log "
                                 "into its incoming folder first), not --log, --dagster or --as-of")
        answer = ask(args.dagster_url, " ".join(args.question), match=args.match, previous=tuple(args.previous or ()),
                     followups=not args.no_followups, timeout=args.timeout)
    except RemoteError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return exc.exit_code
    print_answer(answer, args.json)
    return answer.exit_code
