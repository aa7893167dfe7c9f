"""/api/docs/ (issue 28): "Swagger UI from a CDN at version @latest (blank offline, unpinned):
serve a pinned copy from the project". The copy is drf-spectacular-sidecar's build, served as
the project's static files (tests/browser/test_api_docs_browser.py loads it offline); it is
pinned to one version in pyproject.toml (">=" let a fresh install take any later build), and
that is the version installed."""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from django.test import Client

ROOT = Path(__file__).resolve().parents[1]


def test_swagger_ui_is_pinned_to_one_version_and_served_from_the_project(db):
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    pins = [d for d in deps if d.startswith("drf-spectacular-sidecar")]
    assert len(pins) == 1 and re.fullmatch(r"drf-spectacular-sidecar==[\d.]+", pins[0]), pins
    assert importlib.metadata.version("drf-spectacular-sidecar") == pins[0].split("==")[1]
    page = Client().get("/api/docs/").content.decode()
    scripts = re.findall(r'<script[^>]+src="([^"]+)"', page) + \
        re.findall(r'<link[^>]+href="([^"]+)"', page)
    assert any("swagger-ui-dist" in s for s in scripts), scripts
    assert not [s for s in scripts if s.startswith(("http:", "https:", "//"))], scripts
    assert "@latest" not in page
