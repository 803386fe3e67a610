"""The reports over http, so a materialization's `report_url` opens the report in one click.

Browsers refuse a `file://` link from the Dagster UI's http page. `make dev` starts this server beside the
webserver (scripts/dev.py), and `combat-analysis serve-reports` starts it anywhere else; the resources then
write `report_url` as `<COMBAT_ANALYSIS_REPORTS_URL>/<path in the data home>`. It serves the folders that hold
reports and their charts, read-only and without listings; nothing else of the data home (the warehouse, the
requests, the packages) is reachable through it.
"""

from __future__ import annotations

import functools
import posixpath
import urllib.parse
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPORTS_URL_ENV = "COMBAT_ANALYSIS_REPORTS_URL"
DEFAULT_PORT = 3001
SERVED = ("artifacts", "reports", "season")  # the data home's folders a report and its charts live in


def report_link(home: Path, file: Path | str, base_url: str) -> str:
    """The http address of a file the server serves, or its `file://` URI without a server (`base_url` "")
    or outside the served folders.

    >>> report_link(Path("/d"), "/d/reports/m 1/report.html", "http://127.0.0.1:3001/")
    'http://127.0.0.1:3001/reports/m%201/report.html'
    >>> report_link(Path("/d"), "/elsewhere/report.html", "http://127.0.0.1:3001")
    'file:///elsewhere/report.html'
    """
    path = Path(file).absolute()
    try:
        relative = path.relative_to(Path(home).absolute())
    except ValueError:
        relative = None
    if not base_url or relative is None or not relative.parts or relative.parts[0] not in SERVED:
        return path.as_uri()
    return f"{base_url.rstrip('/')}/{urllib.parse.quote(relative.as_posix())}"


class ReportHandler(SimpleHTTPRequestHandler):
    """Files under the served folders only; no directory listings; quiet."""

    def send_head(self):  # noqa: D102 - http.server's hook for GET and HEAD
        parts = [p for p in posixpath.normpath(urllib.parse.unquote(self.path.split("?")[0])).split("/") if p]
        target = Path(self.directory, *parts)
        if not parts or parts[0] not in SERVED or ".." in parts or not target.is_file():
            self.send_error(HTTPStatus.NOT_FOUND, "no such report")
            return None
        return super().send_head()

    def log_message(self, format: str, *args) -> None:  # noqa: A002 - the base class's name
        pass


def make_server(home: Path, host: str = "127.0.0.1", port: int = DEFAULT_PORT) -> ThreadingHTTPServer:
    return ThreadingHTTPServer((host, port), functools.partial(ReportHandler, directory=str(home)))
