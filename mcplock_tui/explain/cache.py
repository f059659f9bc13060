"""On-disk verdict cache, so re-running a check does not pay for (or wait on) the same answer.

Entries are keyed by a SHA-256 over the model, the prompt version and the canonical payload:
a new prompt or model asks again, and any byte of the definition that differs does too.

A cache entry must never be a way to supply a verdict: each carries an HMAC-SHA256 under a
key kept beside the entries (``.mac-key``, 32 random bytes, 0600, made on first use), so an
entry edited by hand, forged or copied from another machine fails its MAC and is ignored:
that costs a fresh request, never a verdict. So do corrupt entries; the next answer
overwrites them. Failed explains are never cached. Files are 0600 in a 0700 folder and
written atomically, so concurrent checks see an old entry or a new one, never half of one.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.core.verdict import Verdict
from mcplock_tui.errors import ExplainError
from mcplock_tui.explain.base import parse_verdict
from mcplock_tui.storage import private_dir, write_text_atomic

KEY_FILE = ".mac-key"
_KEY_BYTES = 32


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mcplock-tui" / "explain"


def cache_key(model: str, prompt_version: int, payload: Mapping[str, Any]) -> str:
    return hashlib.sha256(canon_json([model, prompt_version, payload]).encode("ascii")).hexdigest()


def _mac(secret: bytes, doc: Mapping[str, Any]) -> str:
    body = {k: v for k, v in doc.items() if k != "mac"}
    return hmac.new(secret, canon_json(body).encode("ascii"), hashlib.sha256).hexdigest()


class VerdictCache:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_cache_dir()

    def path_for(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def _secret(self, *, create: bool) -> bytes | None:
        """This machine's MAC key; ``None`` when there is none (and ``create`` is False)."""
        path = self.folder / KEY_FILE
        try:
            data = path.read_bytes()
            if len(data) == _KEY_BYTES:
                return data
        except FileNotFoundError:
            pass
        except OSError:
            return None
        if not create:
            return None
        private_dir(self.folder)
        data = secrets.token_bytes(_KEY_BYTES)
        try:  # O_EXCL: a concurrent check that made one first wins; read theirs
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        except FileExistsError:
            current = path.read_bytes()
            if len(current) == _KEY_BYTES:
                return current
            path.unlink()  # a truncated or foreign key file: start over
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        return data

    def get(self, key: str) -> Verdict | None:
        secret = self._secret(create=False)
        if secret is None:
            return None
        try:
            doc: Any = json.loads(self.path_for(key).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, ValueError, RecursionError):
            return None
        if not isinstance(doc, dict) or doc.get("key") != key:
            return None
        mac = doc.get("mac")
        if not isinstance(mac, str) or not hmac.compare_digest(mac, _mac(secret, doc)):
            return None
        if not isinstance(doc.get("model"), str):
            return None
        try:
            return parse_verdict(
                {k: doc.get(k) for k in ("verdict", "reason", "excerpt")}, doc["model"], cached=True
            )
        except ExplainError:
            return None

    def put(self, key: str, verdict: Verdict) -> None:
        """Best effort: a cache that cannot be written only costs a later request."""
        doc = {"key": key, **verdict.to_dict()}
        del doc["cached"]
        try:
            secret = self._secret(create=True)
            if secret is None:
                return
            doc["mac"] = _mac(secret, doc)
            text = json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
            write_text_atomic(self.path_for(key), text, mode=0o600)
        except OSError:
            pass
