"""Accessibility audits with axe-core in the browser tests.

``.ci/run`` installs axe-core from npm into ``.browser-tools`` (a folder git ignores, no lock
file); :func:`audit` injects it into a page and returns the violations. A missing axe-core fails
the test with the command that installs it: the audits never skip.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

ROOT = Path(__file__).resolve().parents[2]
#: The axe-core release ``.ci/run`` installs.
AXE_VERSION = "4.14.1"
AXE = ROOT / ".browser-tools" / "node_modules" / "axe-core" / "axe.min.js"
INSTALL = f"npm install --no-save --prefix .browser-tools axe-core@{AXE_VERSION}"


def audit(page: Page) -> list[dict[str, Any]]:
    """The axe-core violations of the page as it is now (its context made with ``audit``)."""
    if not AXE.exists():
        pytest.fail(f"axe-core is not installed: run .ci/run, or {INSTALL}", pytrace=False)
    if not page.evaluate("typeof window.axe === 'object'"):
        page.add_script_tag(path=str(AXE))
    version = page.evaluate("window.axe.version")
    assert version == AXE_VERSION, f"axe-core {version} is installed; .ci/run pins {AXE_VERSION}"
    result = page.evaluate("async () => (await window.axe.run(document)).violations")
    return [
        {
            "id": v["id"],
            "impact": v["impact"],
            "help": v["help"],
            "nodes": [n["target"] for n in v["nodes"]][:5],
        }
        for v in result
    ]


def assert_accessible(page: Page, where: str) -> None:
    """No axe-core violation on the page; the failure names each rule and its elements."""
    found = audit(page)
    assert not found, f"axe-core on {where}: " + "; ".join(
        f"{v['id']} ({v['impact']}): {v['help']} at {v['nodes']}" for v in found
    )
