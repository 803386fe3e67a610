"""The console script `combat-analysis`: one entry point that dispatches, so the CLI and the server never import
each other.

- `ask`, with an answer server running in its data home: handed to it by the thin client (`app.client`), which
  imports nothing of the answer path;
- `serve`: the answer server (`app.server`), handed the CLI's own `ask` (`cli.served_ask`) to answer with;
- everything else, and `ask` when no server answers it: the CLI (`app.cli`).
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from combat_analysis.app.client import RESIDENT_ENV, ask_resident


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if "ask" in argv[:3] and os.environ.get(RESIDENT_ENV, "1") != "0":
        code = ask_resident(argv)
        if code is not None:
            return code
    from combat_analysis.app import cli  # lazy: an `ask` the server answered never imports the CLI

    args = cli.build_parser().parse_args(argv)
    if args.command == "serve":
        return serve(args)
    return cli.run(args)


def serve(args) -> int:
    """`combat-analysis serve`: keep an answer process warm for `ask` in this data home."""
    # lazy: only `serve` imports the server, and the CLI whose `ask` it answers with
    from combat_analysis.app import cli, server
    from combat_analysis.settings import Paths  # lazy: as above

    paths = Paths.from_env(args.home)
    cli.err.print(f"loading the answer path (Python, the planner, DuckDB, matplotlib) for {paths.home} ...")

    def ready(path: Path) -> None:
        cli.err.print(f"answering `combat-analysis ask` on {path}; stops after {args.idle_minutes:g} idle minutes, "
                      "or with Ctrl-C")

    return server.serve(paths.home, cli.served_ask, idle_minutes=args.idle_minutes, on_ready=ready)


if __name__ == "__main__":
    sys.exit(main())
