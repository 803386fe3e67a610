"""A throwaway PostgreSQL server for the team-deployment test (tests/system/): where Debian installs it, a free
port, and the server's address with a way to query it."""

from __future__ import annotations

import contextlib
import glob
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path


def pg_bin() -> Path | None:
    """The folder of the newest installed PostgreSQL's programs, or None."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"), key=lambda p: int(Path(p).parts[4]))
    if found:
        return Path(found[-1]).parent
    on_path = shutil.which("pg_ctl")
    return Path(on_path).parent if on_path else None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass(frozen=True)
class Postgres:
    host: str
    port: int
    user: str
    password: str
    db: str

    def env(self) -> dict[str, str]:
        """The variables deploy/dagster.team.yaml reads."""
        return {"DAGSTER_PG_HOST": self.host, "DAGSTER_PG_PORT": str(self.port), "DAGSTER_PG_USER": self.user,
                "DAGSTER_PG_PASSWORD": self.password, "DAGSTER_PG_DB": self.db}

    def connect(self, db: str | None = None):
        import psycopg2  # comes with the postgres extra (dagster-postgres)

        return psycopg2.connect(host=self.host, port=self.port, user=self.user, password=self.password,
                                dbname=db or self.db)

    def create_database(self, name: str) -> str:
        with contextlib.closing(self.connect("postgres")) as con:
            con.autocommit = True
            with con.cursor() as cur:
                cur.execute(f"CREATE DATABASE {name}")
        return name

    def catalog(self, database: str) -> str:
        """The warehouse lake's catalog setting (COMBAT_ANALYSIS_CATALOG) for a database on this server."""
        return (f"postgres:dbname={database} host={self.host} port={self.port} user={self.user} "
                f"password={self.password}")

    def rows(self, sql: str, params: tuple = ()) -> list[tuple]:
        with contextlib.closing(self.connect()) as con, con.cursor() as cur:
            cur.execute(sql, params)
            return cur.fetchall()
