"""The lockfile's bytes do not move when its writer changes inside.

A committed lockfile is reviewed as a diff, so the same definitions must give the same bytes
from one release to the next. The digests below are of the bytes of format 2, for the
reference servers' real definitions, every red-team drift round, the detector and red-team
corpora as tools, and hostile text (CR LF, hidden and bidi characters, the CR sentinel, tag
characters, odd numbers). Format 2's bytes are format 1's with the `hash` and `*_hash` lines
and the `version` number changed, and nothing else: the reviewed text is laid out as before,
so moving to format 2 rewrites no definition line of a committed lockfile.
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
    lock = lf.Lockfile({"s": lf.ServerPin(surface)})
    return hashlib.sha256(storage.dumps(lock).encode("utf-8")).hexdigest()[:24]


def input_digest(surface: Surface) -> str:
    """What went in: a corpus edited since the digests were taken is not a writer change."""
    items = [[kind.value, name, item] for kind, name, item in surface.all_items()]
    return digest(items)[7:23]


GOLDEN: dict[str, tuple[str, str]] = {
    "real-filesystem": ("5d1795b05edd049e", "0cecc6959203dd05f4dea5fb"),
    "real-everything": ("4b3a057643d0e9f4", "93aa69e8f6d9b138ac871d67"),
    "real-github": ("7e7280e41b58301a", "4087bc084d1ad0315e6e0275"),
    "real-slack": ("23777ba5bfe93644", "38636c7c01245bba33dca94d"),
    "real-postgres": ("a15666880355565e", "a3d97a382143dec942120ff6"),
    "redteam_drift_1": ("ce64e546c6eac43b", "c9a993fc9a6c1c5e5ba83390"),
    "redteam_drift_10": ("bfae7ac4e7878478", "c8fdf40f4a41ef54e63f9ad9"),
    "redteam_drift_11": ("7f201c6978a641d9", "252dfc4462af41c7982249ac"),
    "redteam_drift_12": ("dea18ead97455215", "eea94bb69e98431afef06968"),
    "redteam_drift_13": ("9f7fe5c15cf9aead", "5bc61792d2023552768fdda4"),
    "redteam_drift_14": ("0dec67a5da4eada4", "18397e4a764aab171042acad"),
    "redteam_drift_15": ("62e39880e007ad6e", "df9207d5a67c5cc84f8ea925"),
    "redteam_drift_16": ("8b924269415113f8", "9aa84946c14beea39f34710b"),
    "redteam_drift_17": ("2ce10ad5ac38de19", "9e4c9638d827cceb7caf36bb"),
    "redteam_drift_18": ("702455a53a1ac4c1", "a0af84d7242de97c424ed78d"),
    "redteam_drift_19": ("9406422fc19f84be", "342bfed8abaee41edb54cbd7"),
    "redteam_drift_2": ("09cee309ba5993a9", "5df8d7f9068fae9613e5b436"),
    "redteam_drift_20": ("f3a355e557261fd0", "913b01cb2147ee3d5ae5923b"),
    "redteam_drift_21": ("7b9a4a339bf891c6", "a39ae097b78f52b92eae717b"),
    "redteam_drift_22": ("6e0e8a5034ad75ff", "bdf84c88d2fe3a15f71efe88"),
    "redteam_drift_23": ("f536136142daba83", "cc3e78647e2bcd81069a7919"),
    "redteam_drift_24": ("0c0eb3f8c907538b", "74f87d1fbbcd081779fa35a4"),
    "redteam_drift_25": ("a4e036d8ddcff8b5", "8b5c7789cd381f946ae106a4"),
    "redteam_drift_26": ("415f9a6848f666fd", "104bc5319d0e98bbdd4f9b9e"),
    "redteam_drift_27": ("831718f37f0a0af4", "02459a89234e41d8e74eeb83"),
    "redteam_drift_28": ("5b5d6f176f8e0858", "92eb3ae79be8889080333de2"),
    "redteam_drift_29": ("02adb8745946f65c", "cb8d37ed2525e1e78a2c927e"),
    "redteam_drift_3": ("020524acf9e06c44", "27b213998c5327d5b6d1f5da"),
    "redteam_drift_30": ("ff94e7dfa109a364", "4b9ef31dd3d2c9bff96fc977"),
    "redteam_drift_31": ("f758b5f1b2c74abd", "a67641af14e52e8b60ebef42"),
    "redteam_drift_32": ("b31f319ccd2ae276", "3fc2e933140172b2eff83550"),
    "redteam_drift_33": ("14505e75466cab43", "43852a5212588c017651a956"),
    "redteam_drift_34": ("0457fbb72c99042e", "72e9462eb3fecafc0b7d933d"),
    "redteam_drift_35": ("e4f40a695b8e112b", "48aafcade3d369e0498ad473"),
    "redteam_drift_36": ("d85f1d00fe623afb", "a6012c5f69998042e8a6388c"),
    "redteam_drift_4": ("14c0b7104c043edb", "4857ce49a737c568555c0917"),
    "redteam_drift_5": ("cf952352a7d34442", "e912478f77d8c583d0d76d68"),
    "redteam_drift_6": ("16bf2df462ae6314", "7e6b16fd3f8d8c21397c536f"),
    "redteam_drift_7": ("15e1c40eb65c7b51", "b968e29ac8214299ac2c2746"),
    "redteam_drift_8": ("378b595394dd5657", "94623ac6b72495caa792de0b"),
    "redteam_drift_9": ("9eaa4a07d387d42f", "5783d9e7856e598eadb136b1"),
    "corpora-as-tools": ("2e44a5ddf2e91081", "bb946a0ee95190ad6522d2d7"),
    "hostile": ("59a7dd9239966eaf", "083fab59b66d36206fc7d5ea"),
    "hostile-sentinel": ("4962c7a6a786e17d", "ba9a2e9f26a835d734e0ba92"),
}
"""Corpus entry -> (digest of its definitions, digest of its lockfile's bytes), as format 2
gives them (`python tests/test_lockfile_bytes.py` prints them for the tree it runs in)."""


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
