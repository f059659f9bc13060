"""The application layer's view of a project: which servers, which lockfile, which policy.

Built from a plain :class:`Options` value, so the CLI, the app and any other shell share one
way of loading config, lockfile and policy without passing argparse namespaces around. Each
step raises an :class:`MCPLockError` subclass with one plain line; shells turn that into
exit code 2 or a banner.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

from mcplock_tui.config import load_servers
from mcplock_tui.core.lockfile import Lockfile
from mcplock_tui.core.policy import Policy, parse_policy
from mcplock_tui.errors import (
    ConfigError,
    LockfileError,
    NoLockfileError,
    PinHashError,
    PolicyError,
    git_restore,
)
from mcplock_tui.evidence.ledger import read_bound
from mcplock_tui.spec import ServerSpec
from mcplock_tui.storage import load_document

DEFAULT_LOCK = "mcplock.lock"
POLICY_FILE = "mcplock.toml"
DEFAULT_TIMEOUT = 30.0


@dataclass(frozen=True, slots=True)
class Options:
    """What a shell was asked for; every field has the CLI's default."""

    config: tuple[Path, ...] = ()
    """Client config files; empty means discover them."""
    servers: tuple[str, ...] = ()
    """Only these servers; empty means all configured ones."""
    lock: Path | None = None
    policy: Path | None = None
    timeout: float = DEFAULT_TIMEOUT
    log_dir: Path | None = None

    @classmethod
    def from_attrs(cls, source: object) -> Options:
        """From any object with the CLI's attribute names (``config``, ``server``, ...)."""
        return cls(
            config=tuple(getattr(source, "config", None) or ()),
            servers=tuple(getattr(source, "server", None) or ()),
            lock=getattr(source, "lock", None),
            policy=getattr(source, "policy", None),
            timeout=getattr(source, "timeout", DEFAULT_TIMEOUT),
            log_dir=getattr(source, "log_dir", None),
        )


@dataclass(frozen=True, slots=True)
class Workspace:
    cwd: Path
    lock_path: Path
    specs: list[ServerSpec]
    all_names: list[str]
    """Every configured server, selected or not."""
    policy: Policy
    log_dir: Path
    timeout: float


def lock_path(options: Options, cwd: Path) -> Path:
    path = options.lock or cwd / DEFAULT_LOCK
    return path if path.is_absolute() else cwd / path


def default_log_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    stamp = time.strftime("%Y%m%d-%H%M%S")
    return Path(base) / "mcplock-tui" / "logs" / f"{stamp}-{os.getpid()}"


def load_policy(options: Options, lock: Path) -> Policy:
    path = options.policy or lock.parent / POLICY_FILE
    if not path.exists():
        if options.policy:
            raise PolicyError(f"{path}: policy file not found")
        return Policy()
    try:
        doc = load_document(path)
    except LockfileError as exc:
        raise PolicyError(str(exc)) from None
    table = doc.get("policy", {})
    if not isinstance(table, dict):
        raise PolicyError(f"{path}: [policy] must be a table")
    try:
        return parse_policy(table, str(path))
    except ConfigError as exc:  # the core raises its config error; the kind is "policy"
        raise PolicyError(str(exc)) from None


def open_workspace(options: Options, cwd: Path | None = None) -> Workspace:
    here = cwd or Path.cwd()
    # With --server only the selected entries are validated, so one broken entry elsewhere
    # does not block them; "unconfigured" and --prune are computed only without --server.
    specs = load_servers(here, list(options.config), list(options.servers))
    names = [s.name for s in specs]
    lock = lock_path(options, here)
    if options.timeout <= 0:
        raise ConfigError("--timeout must be a positive number of seconds")
    return Workspace(
        cwd=here,
        lock_path=lock,
        specs=specs,
        all_names=names,
        policy=load_policy(options, lock),
        log_dir=options.log_dir or default_log_dir(),
        timeout=options.timeout,
    )


def read_lock_or_explain(path: Path) -> Lockfile:
    try:
        return read_bound(path)
    except FileNotFoundError:
        raise NoLockfileError(
            f"no lockfile at {path}; run `mcplock-tui pin` to capture the servers and create it"
        ) from None
    except PinHashError:
        raise  # names `pin --server NAME --replace` already
    except LockfileError as exc:
        # A file that does not read at all (a bad merge, a truncated write) holds every
        # reviewed decision: the way back is the committed copy, not a fresh pin.
        raise LockfileError(
            f"{exc}; restore the reviewed lockfile with {git_restore(path)}"
        ) from None
