"""A PostgreSQL server for the tests: ``$TABLETAPE_TEST_POSTGRES``, or a throw-away cluster.

Without the variable, a cluster is made with the installed binaries (``/usr/lib/postgresql/*/bin``)
in a temp dir, on a free port, and removed after the session. PostgreSQL refuses to run as root,
so as root the cluster belongs to ``nobody`` (its temp dir too) and ``initdb``/``pg_ctl`` run
through ``runuser``. It runs with ``fsync=off``: its data dies with the session anyway.
"""

from __future__ import annotations

import glob
import os
import shutil
import subprocess
import tempfile
import uuid
from contextlib import contextmanager
from typing import Iterator

import ports

ENV = "TABLETAPE_TEST_POSTGRES"


def binaries() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


@contextmanager
def server() -> Iterator[str]:
    """The URL of a server the tests may create schemas in; raises LookupError (why) if none."""
    given = os.environ.get(ENV)
    if given:
        yield given
        return
    bin_dir = binaries()
    if bin_dir is None:
        raise LookupError(f"no PostgreSQL: set ${ENV} or install the Debian package postgresql")
    root = tempfile.mkdtemp(prefix="tabletape-pg-")
    as_user: list[str] = []
    if os.geteuid() == 0:
        if shutil.which("runuser") is None:
            raise LookupError("running as root without runuser: PostgreSQL refuses to run as root")
        os.chmod(root, 0o755)
        shutil.chown(root, "nobody")
        as_user = ["runuser", "-u", "nobody", "--"]
    data = os.path.join(root, "data")
    log = os.path.join(root, "server.log")

    def run(*args: str) -> None:
        subprocess.run([*as_user, *args], check=True, capture_output=True, cwd=root)

    run(f"{bin_dir}/initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync")
    with ports.reserved() as port:  # until it listens: no other worker's server gets the port
        options = f"-p {port} -k {root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c max_connections=200"
        run(f"{bin_dir}/pg_ctl", "-D", data, "-l", log, "-o", options, "-w", "-t", "60", "start")
    try:
        yield f"postgresql://postgres@127.0.0.1:{port}/postgres"
    finally:
        subprocess.run([*as_user, f"{bin_dir}/pg_ctl", "-D", data, "-m", "immediate", "stop"], capture_output=True, cwd=root)
        shutil.rmtree(root, ignore_errors=True)


def fresh_schema(url: str) -> str:
    """A URL whose tables land in a new, empty schema of the server (one per test: fast, isolated)."""
    import psycopg

    name = "t_" + uuid.uuid4().hex[:12]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {name}")
    sep = "&" if "?" in url else "?"
    return f"{url}{sep}options=-csearch_path%3D{name}"


def drop_schema(url: str, schema_url: str) -> None:
    """Remove the schema ``fresh_schema`` made for ``schema_url``, with its tables."""
    import psycopg

    name = schema_url.rsplit("%3D", 1)[1]
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {name} CASCADE")
