"""On-disk verdict cache, so re-running a check does not pay for (or wait on) the same answer.

Entries are keyed by a SHA-256 over the model, the prompt version and the canonical payload:
a new prompt or model asks again, and any byte of the definition that differs does too. An
entry that does not read back as a valid verdict is ignored (and overwritten by the next
answer), so a corrupt or hand-edited file can cost a request but never supply a verdict.
Failed explains are never cached. Writes are atomic, so concurrent checks see an old entry
or a new one, never half of one.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mcplock_tui.core.canonical import canon_json
from mcplock_tui.errors import ExplainError
from mcplock_tui.explain.base import Verdict, parse_verdict
from mcplock_tui.storage import write_text_atomic


def default_cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "mcplock-tui" / "explain"


def cache_key(model: str, prompt_version: int, payload: Mapping[str, Any]) -> str:
    return hashlib.sha256(canon_json([model, prompt_version, payload]).encode("ascii")).hexdigest()


class VerdictCache:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder if folder is not None else default_cache_dir()

    def path_for(self, key: str) -> Path:
        return self.folder / f"{key}.json"

    def get(self, key: str) -> Verdict | None:
        try:
            doc: Any = json.loads(self.path_for(key).read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            return None
        if not isinstance(doc, dict) or doc.get("key") != key:
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
            self.folder.mkdir(parents=True, exist_ok=True)
            text = json.dumps(doc, ensure_ascii=True, indent=2) + "\n"
            write_text_atomic(self.path_for(key), text)
        except OSError:
            pass
