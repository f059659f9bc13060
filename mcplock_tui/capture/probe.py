"""``--probe``: capture each server again as the clients people actually use.

Each probe is a fresh connection whose ``initialize`` carries the ``clientInfo`` of a common
client, and lists everything twice in that one session. The answers go to
:func:`mcplock_tui.core.probe.with_probe`, which reports any difference from the normal
capture as critical. Probes of all servers and identities run concurrently, each under the
server's own timeout, and each writes its own stderr log so none overwrites another's.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import partial
from pathlib import Path
from typing import Any

import anyio
from mcp_types import Implementation

from mcplock_tui.capture.client import capture_one
from mcplock_tui.core.model import CaptureResult, Surface
from mcplock_tui.core.probe import ProbeAnswer, with_probe
from mcplock_tui.core.report import Report
from mcplock_tui.core.surface import build_surface
from mcplock_tui.spec import ServerSpec

IDENTITIES: tuple[tuple[str, Implementation], ...] = (
    ("Claude Code", Implementation(name="claude-code", version="2.0.14")),
    ("Cursor", Implementation(name="cursor-vscode", version="1.0.0")),
    ("VS Code", Implementation(name="Visual Studio Code", version="1.105.0")),
)
"""(label, clientInfo) of the clients a two-faced server is most likely to single out."""


def _initialize_of(surface: Surface) -> dict[str, Any]:
    init: dict[str, Any] = {k: v for k, v in surface.server.items() if k != "launch"}
    if surface.instructions is not None:
        init["instructions"] = surface.instructions
    return init


def _second_surface(spec: ServerSpec, first: Surface, lists: Mapping[str, Any]) -> Surface:
    return build_surface(
        initialize_result=_initialize_of(first),
        launch=spec.launch(),
        tools=lists.get("tools", ()),
        prompts=lists.get("prompts", ()),
        resources=lists.get("resources", ()),
        resource_templates=lists.get("resourceTemplates", ()),
        warnings=[],
    )


async def probe_identity(
    spec: ServerSpec,
    label: str,
    identity: Implementation,
    *,
    timeout: float,  # noqa: ASYNC109  the server's deadline, applied in capture_one
    log_dir: Path,
) -> list[ProbeAnswer]:
    """Two answers from one session as ``identity``: the first and the second listing."""
    second: dict[str, list[Any]] = {}
    result: CaptureResult = await capture_one(
        spec,
        timeout=timeout,
        log_dir=log_dir / f"probe-{identity.name.replace(' ', '-').lower()}",
        client_info=identity,
        second=second,
    )
    if result.surface is None:
        return [ProbeAnswer(label, error=result.error or "capture failed")]
    answers = [ProbeAnswer(label, result.surface)]
    try:
        again = _second_surface(spec, result.surface, second)
    except Exception as exc:  # hostile data must not escape as an exception
        return [*answers, ProbeAnswer(f"{label} (second listing)", error=type(exc).__name__)]
    return [*answers, ProbeAnswer(f"{label} (second listing)", again)]


async def probe_all(
    specs: Sequence[ServerSpec],
    *,
    timeout: float = 30.0,  # noqa: ASYNC109  per-server deadlines, applied in capture_one
    log_dir: Path,
) -> dict[str, list[ProbeAnswer]]:
    """Every spec as every identity, concurrently; answers keyed by server name."""
    answers: dict[str, dict[str, list[ProbeAnswer]]] = {spec.name: {} for spec in specs}

    async def run(spec: ServerSpec, label: str, identity: Implementation) -> None:
        got = await probe_identity(spec, label, identity, timeout=timeout, log_dir=log_dir)
        answers[spec.name][label] = got

    async with anyio.create_task_group() as tg:
        for spec in specs:
            for label, identity in IDENTITIES:
                tg.start_soon(run, spec, label, identity)
    return {
        name: [a for label, _ in IDENTITIES for a in by_label.get(label, [])]
        for name, by_label in answers.items()
    }


def probe_sync(
    specs: Sequence[ServerSpec], *, timeout: float = 30.0, log_dir: Path
) -> dict[str, list[ProbeAnswer]]:
    """:func:`probe_all` for callers without an event loop (the headless check)."""
    return anyio.run(partial(probe_all, specs, timeout=timeout, log_dir=log_dir))


def probe_report(
    report: Report,
    specs: Sequence[ServerSpec],
    captures: Mapping[str, CaptureResult],
    *,
    timeout: float,
    log_dir: Path,
) -> Report:
    """Probe the servers that were captured, and add what they answered differently."""
    baselines = {n: r.surface for n, r in captures.items() if r.surface is not None}
    probed = [s for s in specs if s.name in baselines]
    if not probed:
        return report
    return with_probe(report, baselines, probe_sync(probed, timeout=timeout, log_dir=log_dir))
