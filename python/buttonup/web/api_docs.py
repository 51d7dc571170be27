"""``/api/docs`` and ``/api/redoc``: the API's documentation (Swagger UI and ReDoc) from
files installed with the web extra (the fastapi-offline package's copies), so that both
load with no network, where FastAPI's own pages would fetch their scripts from a CDN."""

from __future__ import annotations

from pathlib import Path

import fastapi_offline
from fastapi import FastAPI
from fastapi.openapi.docs import get_redoc_html, get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles

DOCS_URL = "/api/docs"
#: ReDoc's page, also served at FastAPI's usual ``/redoc``.
REDOC_URLS = ("/api/redoc", "/redoc")
#: Swagger UI's and ReDoc's scripts, style sheet and icon, served under the docs' path.
ASSETS_URL = "/api/docs/assets"
ASSETS = Path(fastapi_offline.__file__).resolve().parent / "static"


def add_api_docs(app: FastAPI) -> None:
    """Serves the documentation of ``app``'s OpenAPI schema at :data:`DOCS_URL` and
    :data:`REDOC_URLS`."""
    openapi_url = app.openapi_url or "/api/openapi.json"
    app.mount(ASSETS_URL, StaticFiles(directory=ASSETS), name="api-docs-assets")

    @app.get(DOCS_URL, include_in_schema=False)
    async def api_docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=openapi_url,
            title=f"{app.title}: the HTTP API",
            swagger_js_url=f"{ASSETS_URL}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS_URL}/swagger-ui.css",
            swagger_favicon_url=f"{ASSETS_URL}/favicon.png",
        )

    async def redoc() -> HTMLResponse:
        return get_redoc_html(
            openapi_url=openapi_url,
            title=f"{app.title}: the HTTP API",
            redoc_js_url=f"{ASSETS_URL}/redoc.standalone.js",
            redoc_favicon_url=f"{ASSETS_URL}/favicon.png",
            with_google_fonts=False,
        )

    for url in REDOC_URLS:
        app.add_api_route(url, redoc, methods=["GET"], include_in_schema=False)
