"""The lockfile's bytes do not move when its writer gets faster.

A committed lockfile is reviewed as a diff, so the same definitions must give the same bytes
from one release to the next. The digests below are of the bytes the writer gave before it
was reworked for speed (the shared canonical encoder, the one-pattern reader, the skipped
hidden-character pass, inline string leaves), for the reference servers' real definitions,
every red-team drift round, the detector and red-team corpora as tools, and hostile text
(CR LF, hidden and bidi characters, the CR sentinel, tag characters, odd numbers).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest

from mcplock_tui import storage
from mcplock_tui.core import lockfile as lf
from mcplock_tui.core.canonical import digest
from mcplock_tui.core.model import Surface
from mcplock_tui.core.surface import build_surface

CORPUS = Path(__file__).resolve().parent / "corpus"

HOSTILE: list[dict[str, Any]] = [
    {
        "name": "h\r\n",
        "description": "a\r\nb\u200b\u202e\x1b[31m'''x'''\U000e0041\x00",
        "inputSchema": {"k\u200b": "v\r", "n": [1, 1.0, True, None, -0.0, 1e300]},
    },
    {
        "name": "lit",
        "description": "line1\nline2 ends with quote'",
        "annotations": {"readOnlyHint": True},
        "extraKey": {"z": [[]], "a": {}},
    },
    {"name": "xxx", "description": "tab\there\nnew", "title": 't"q\\'},
    {"name": "caf\u00e9", "description": "na\u00efve \u65e5\u672c\u8a9e \u00a0nbsp"},
]
SENTINEL = [dict(HOSTILE[0], description=HOSTILE[0]["description"] + "\ufdd0")]


def _surface(doc: dict[str, Any], tools: list[dict[str, Any]] | None = None) -> Surface:
    init = {
        "serverInfo": doc.get("serverInfo", {"name": "x"}),
        "instructions": doc.get("instructions"),
    }
    return build_surface(
        initialize_result=init,
        launch="stdio: x",
        tools=doc.get("tools", ()) if tools is None else tools,
        prompts=doc.get("prompts", ()),
        resources=doc.get("resources", ()),
    )


def _corpus_tools() -> list[dict[str, Any]]:
    tools: list[dict[str, Any]] = []
    for name in ("detectors.json", "redteam.json"):
        doc = json.loads((CORPUS / name).read_text(encoding="utf-8"))
        for i, entry in enumerate([*doc["positives"], *doc["negatives"]]):
            if entry["field"] == "item":
                if entry["kind"] == "tool":
                    tools.append({"name": f"item{i}", **entry["item"]})
            elif entry["field"] == "param":
                props = {entry["text"]: {"type": "string"}}
                tools.append({"name": f"p{name}{i}", "inputSchema": {"properties": props}})
            else:
                tools.append({"name": f"t{name}{i}", "description": entry["text"]})
    return tools


def surfaces() -> dict[str, Surface]:
    out: dict[str, Surface] = {}
    real = json.loads((CORPUS / "real_servers.json").read_text(encoding="utf-8"))["servers"]
    for name, doc in real.items():
        out[f"real-{name}"] = _surface(doc)
    for path in sorted(CORPUS.glob("redteam_drift_*.json")):
        out[path.stem] = _surface(json.loads(path.read_text(encoding="utf-8"))["base"])
    out["corpora-as-tools"] = _surface({}, _corpus_tools())
    out["hostile"] = _surface({"instructions": "Use them.\r\nCRLF kept."}, HOSTILE)
    out["hostile-sentinel"] = _surface({}, SENTINEL)
    return out


def lockfile_digest(surface: Surface) -> str:
    lock = lf.Lockfile({"s": lf.ServerPin(surface)}, lf.LogHead(7, "sha256:" + "a" * 64))
    return hashlib.sha256(storage.dumps(lock).encode("utf-8")).hexdigest()[:24]


def input_digest(surface: Surface) -> str:
    """What went in: a corpus edited since the digests were taken is not a writer change."""
    items = [[kind.value, name, item] for kind, name, item in surface.all_items()]
    return digest(items)[7:23]


GOLDEN: dict[str, tuple[str, str]] = {
    "real-filesystem": ("5d1795b05edd049e", "4fff8dde921028f7327cf973"),
    "real-everything": ("4b3a057643d0e9f4", "9d94a9d65f245eeb0ddf1750"),
    "real-github": ("7e7280e41b58301a", "c9146550ad954be96107a2b5"),
    "real-slack": ("23777ba5bfe93644", "358542cffcb8b6ab7b7e494c"),
    "real-postgres": ("a15666880355565e", "692d924667c8c46008db00b6"),
    "redteam_drift_1": ("ce64e546c6eac43b", "24f314d4154540d7700ed62d"),
    "redteam_drift_10": ("bfae7ac4e7878478", "bee4669747041503dbd41396"),
    "redteam_drift_11": ("7f201c6978a641d9", "aab2cda24dc9f76a5861a990"),
    "redteam_drift_12": ("dea18ead97455215", "de8883730bcb04d06a8702ba"),
    "redteam_drift_13": ("9f7fe5c15cf9aead", "f654206d74be85b15e1e8111"),
    "redteam_drift_14": ("0dec67a5da4eada4", "6f5537ad7af91989b8ddd3a4"),
    "redteam_drift_15": ("62e39880e007ad6e", "345b0329134714492b1528c3"),
    "redteam_drift_16": ("8b924269415113f8", "591b04b8a1247c0ac2d7cd75"),
    "redteam_drift_2": ("09cee309ba5993a9", "839156110af644cef7f389c4"),
    "redteam_drift_3": ("020524acf9e06c44", "88a3dd43993e7d5609b05d6c"),
    "redteam_drift_4": ("14c0b7104c043edb", "a772a1789cef4743241d08ad"),
    "redteam_drift_5": ("cf952352a7d34442", "065ff125a0349a415a48b223"),
    "redteam_drift_6": ("16bf2df462ae6314", "0c2af5d24918a899849d8df3"),
    "redteam_drift_7": ("15e1c40eb65c7b51", "b0b8f0c3be8708c3d328d61c"),
    "redteam_drift_8": ("378b595394dd5657", "696cbe7cc1a3a5566638ca0b"),
    "redteam_drift_9": ("9eaa4a07d387d42f", "97a0852c87229dad4086ef32"),
    "corpora-as-tools": ("2e44a5ddf2e91081", "bd0ef18447071f9c35d63887"),
    "hostile": ("59a7dd9239966eaf", "2a2464ad2d2283c48bc2b469"),
    "hostile-sentinel": ("4962c7a6a786e17d", "cdb4791e65ee3086e4cca02b"),
}
"""Corpus entry -> (digest of its definitions, digest of its lockfile's bytes), as the writer
before gave them (`python tests/test_lockfile_bytes.py` prints them for the tree it runs in)."""


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_the_bytes_are_those_of_the_writer_before(name: str) -> None:
    surface = surfaces()[name]
    taken_from, expected = GOLDEN[name]
    if input_digest(surface) != taken_from:
        pytest.skip(f"the corpus behind {name} changed since its digest was taken; regenerate")
    assert lockfile_digest(surface) == expected
    lock = lf.Lockfile({"s": lf.ServerPin(surface)})
    assert storage.loads(storage.dumps(lock)) == lock


if __name__ == "__main__":  # prints GOLDEN for the tree on sys.path
    for name, s in surfaces().items():
        print(f'    "{name}": ("{input_digest(s)}", "{lockfile_digest(s)}"),')
