"""``/api/docs`` and ``/redoc`` with the network off: a real headless Chromium that can
resolve no host but the loopback one loads the pages of ``buttonup serve``, and Swagger
UI and ReDoc draw the API's routes from the OpenAPI schema (FastAPI's own pages fetched
their scripts from a CDN, and stayed blank without one)."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

import pytest
from web_needs import skip_without

if not os.environ.get("BUTTONUP_REQUIRE_WEB"):
    skip_without("httpx", "fastapi", "fastapi_offline")

import httpx
from web_browsers import dump_dom, serving


@pytest.fixture(scope="module")
def server() -> Iterator[str]:
    with serving() as url:
        yield url


@pytest.mark.parametrize("path", ["/api/docs", "/api/redoc", "/redoc"])
def test_the_docs_pages_name_no_other_host(server: str, path: str) -> None:
    page = httpx.get(server + path)
    assert page.status_code == 200
    assert not re.findall(r"https?://(?!127\.0\.0\.1)", page.text), page.text
    for asset in re.findall(r"(?:src|href)=['\"](/api/docs/assets/[^'\"]+)", page.text):
        assert httpx.get(server + asset).status_code == 200, asset


def test_the_docs_draw_the_routes_with_the_network_off(server: str) -> None:
    # Every host but the server's is unknown: no CDN can answer.
    dom = dump_dom(
        f"{server}/api/docs",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=20000",
    )
    paths = set(re.findall(r'data-path="(/api/[^"]+)"', dom))
    assert {"/api/bestmove", "/api/analyze"} <= paths, dom[-3000:]


def test_redoc_draws_the_routes_with_the_network_off(server: str) -> None:
    dom = dump_dom(
        f"{server}/redoc",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
        "--virtual-time-budget=20000",
    )
    operations = set(re.findall(r'data-section-id="(operation/[^"]+)"', dom))
    assert any("bestmove" in operation for operation in operations), dom[-3000:]
