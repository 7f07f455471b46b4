"""A throwaway PostgreSQL server for the tests: Debian's ``initdb`` and
``pg_ctl`` (on PATH or under /usr/lib/postgresql/*/bin), a cluster in a
temporary directory, reached only through a unix socket there (no TCP), with
durability off (a test database need not survive a crash). As root (initdb
refuses root) the cluster runs as the ``postgres`` user.

``CHABUDAI_TEST_POSTGRES`` (a libpq URL of a server where the user may
create databases) uses that server instead of starting one.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path
from urllib.parse import quote

SERVER_ENV = "CHABUDAI_TEST_POSTGRES"


def binary(name: str) -> str | None:
    found = shutil.which(name)
    if found:
        return found
    candidates = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    return candidates[-1] if candidates else None


def why_not() -> str | None:
    """Why no PostgreSQL can be had here (``None``: one can)."""
    if os.environ.get(SERVER_ENV):
        return None
    missing = [n for n in ("initdb", "pg_ctl") if binary(n) is None]
    if missing:
        return (
            f"no PostgreSQL binaries ({', '.join(missing)} not on PATH nor under"
            f" /usr/lib/postgresql/*/bin): apt-get install postgresql, or set {SERVER_ENV}"
        )
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no 'postgres' user to run initdb as"
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    """``start()`` → a URL of the ``postgres`` database; ``stop()`` removes it all.
    ``durable``: commits survive the server's crash (``pg_ctl -m immediate``):
    ``synchronous_commit`` left on, as on a real server (off, the last
    commits before a crash are lost: fine for the tests that never crash it)."""

    def __init__(self, *, durable: bool = False) -> None:
        self.durable = durable
        self.dir: Path | None = None
        self.url = ""
        self.options = ""

    def _run(self, *cmd: str) -> None:
        if os.geteuid() == 0:
            cmd = ("runuser", "-u", "postgres", "--", *cmd)
        done = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} failed:\n{done.stdout}\n{done.stderr}")

    def start(self) -> str:
        initdb, pg_ctl = binary("initdb"), binary("pg_ctl")
        assert initdb and pg_ctl
        self.dir = Path(tempfile.mkdtemp(prefix="chabudai-pg-"))
        if os.geteuid() == 0:
            user = pwd.getpwnam("postgres")
            os.chown(self.dir, user.pw_uid, user.pw_gid)
        data = self.dir / "data"
        self._run(
            initdb, "-D", str(data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8"
        )
        port = _free_port()
        options = (
            f"-k {self.dir} -p {port} -c listen_addresses='' -c fsync=off"
            " -c full_page_writes=off -c max_connections=200"
            + ("" if self.durable else " -c synchronous_commit=off")
        )
        self.options = options
        self._run(
            pg_ctl, "-D", str(data), "-o", options, "-l", str(self.dir / "log"), "-w", "start"
        )
        self.url = f"postgresql://postgres@/postgres?host={quote(str(self.dir))}&port={port}"
        return self.url

    def _pg_ctl(self, *args: str) -> None:
        pg_ctl = binary("pg_ctl")
        assert pg_ctl and self.dir is not None
        self._run(pg_ctl, "-D", str(self.dir / "data"), *args)

    def restart(self, mode: str = "fast") -> None:
        """The server restarted (``pg_ctl restart -m fast|immediate``): every
        connection dropped, the same URL answers again when this returns."""
        assert self.dir is not None  # (-l: the server's output not on this pipe)
        self._pg_ctl("-m", mode, "-l", str(self.dir / "log"), "-w", "restart")

    def halt(self, mode: str = "fast") -> None:
        """The server stopped (``pg_ctl stop``), until :meth:`resume`."""
        self._pg_ctl("-m", mode, "-w", "stop")

    def resume(self) -> None:
        """The server started again after :meth:`halt` (same options, same URL)."""
        assert self.dir is not None
        self._pg_ctl("-o", self.options, "-l", str(self.dir / "log"), "-w", "start")

    def stop(self) -> None:
        if self.dir is None:
            return
        pg_ctl = binary("pg_ctl")
        if pg_ctl and self.url:
            try:
                self._run(pg_ctl, "-D", str(self.dir / "data"), "-m", "immediate", "stop")
            except RuntimeError:
                pass
        shutil.rmtree(self.dir, ignore_errors=True)
        self.dir = None


def with_database(url: str, database: str) -> str:
    """``url`` pointed at another database of the same server."""
    head, _, query = url.partition("?")
    scheme, _, rest = head.partition("://")
    authority = rest.split("/", 1)[0]
    return f"{scheme}://{authority}/{database}" + (f"?{query}" if query else "")


def with_schema(url: str, schema: str) -> str:
    """``url`` with ``search_path`` set to ``schema`` (asyncpg passes an
    unknown query parameter on as a server setting)."""
    return url + ("&" if "?" in url else "?") + f"search_path={schema}"
