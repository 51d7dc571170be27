"""``buttonup export-site DIR``: the page of ``buttonup serve`` as static files that play
with the engine in the browser (docs/wasm.md). DIR gets ``index.html``, the page's
scripts and styles under ``static/``, and the WebAssembly package (the ES-module build
of scripts/build-wasm.sh) under ``static/wasm/``; any static file server (or none but a
browser that allows modules from its folder) serves it, and it makes no request to
``/api``: ``static/offline.js`` gives the page a ``LocalEngine`` (local_engine.js)
before app.js starts.

Needs no web framework: only the files of the package and the WebAssembly build."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from buttonup.web.pages import render

STATIC = Path(__file__).resolve().parent / "static"
#: The files of the WebAssembly package that the page loads.
WASM_FILES = ("buttonup_wasm.js", "buttonup_wasm_bg.wasm")
#: The script that gives app.js its engine, loaded just before it.
OFFLINE_SCRIPT = '<script type="module" src="static/offline.js"></script>'
APP_SCRIPT = '<script type="module" src="static/app.js"></script>'
#: Browsers run no module script (nor fetch the .wasm) for a page opened from a file, so
#: a classic script says so on the page, with the command that serves the folder.
FILE_NOTICE = """<script>
if (location.protocol === "file:") {
  document.addEventListener("DOMContentLoaded", () => {
    const notice = document.createElement("div");
    notice.id = "served-only";
    notice.setAttribute("role", "alert");
    notice.innerHTML = "<strong>This page must be served, not opened as a file.</strong> " +
      "Browsers do not run its scripts from <code>file://</code>. In this folder run " +
      "<code>python3 -m http.server 8000</code>, then open " +
      "<a href='http://localhost:8000/'>http://localhost:8000/</a>.";
    notice.style.cssText = "margin:1em;padding:1em;border:2px solid #b00;font-size:1.1em";
    document.body.prepend(notice);
    const status = document.getElementById("status");
    if (status) status.textContent = "Serve this folder over HTTP to play (see above).";
    for (const button of document.querySelectorAll("#setup button")) button.disabled = true;
  });
}
</script>"""
#: What `buttonup export-site` prints: opening index.html from a file does not play.
SERVE_HINT = (
    "serve the folder (python3 -m http.server 8000 in it), then open http://localhost:8000/"
)
#: The pages of a server's online matches (docs/online.md): useless
#: without one, so left out of the offline site (whose page hides the friend choice).
SERVER_ONLY = frozenset({"online.js", "mine.js"})


class NoWasmPackage(ValueError):
    """No ES-module build of the WebAssembly package where one was looked for."""


def wasm_candidates() -> list[Path]:
    """Where the WebAssembly package is looked for: ``BUTTONUP_WASM_PKG``, a package
    shipped beside the page, then the source checkout's ``target/wasm-pkg``."""
    found = []
    given = os.environ.get("BUTTONUP_WASM_PKG")
    if given:
        found.append(Path(given))
    found.append(Path(__file__).resolve().parent / "wasm")
    checkout = Path(__file__).resolve().parents[3]
    if (checkout / "wasm" / "Cargo.toml").is_file():
        found.append(checkout / "target" / "wasm-pkg")
    return found


def web_build(package: Path) -> Path | None:
    """The folder of the ES-module build in a package folder (its ``web/``), or the
    folder itself when it is one."""
    for folder in (package / "web", package):
        if all((folder / name).is_file() for name in WASM_FILES) and is_es_module(folder):
            return folder
    return None


def is_es_module(folder: Path) -> bool:
    """Whether the glue is the ES-module build (``--target web``), not Node's."""
    glue = (folder / WASM_FILES[0]).read_text(encoding="utf-8", errors="replace")
    return "export default" in glue or "export { initSync" in glue


def find_wasm(package: Path | None) -> Path:
    """The ES-module build to ship, or a ValueError saying how to make one."""
    candidates = [package] if package is not None else wasm_candidates()
    for candidate in candidates:
        folder = web_build(candidate)
        if folder is not None:
            return folder
    looked = ", ".join(str(c) for c in candidates)
    raise NoWasmPackage(
        f"no WebAssembly package in {looked}: in a clone of buttonup, scripts/build-wasm.sh "
        "builds one (and a later `pip install .` ships it), or name one with --wasm"
    )


def checkout_at(folder: Path) -> Path | None:
    """``folder`` or the nearest folder above it that is a clone of buttonup (whose
    scripts/build-wasm.sh can build the package), or None."""
    for candidate in (folder, *folder.parents):
        if (candidate / "scripts" / "build-wasm.sh").is_file() and (
            candidate / "wasm" / "Cargo.toml"
        ).is_file():
            return candidate
    return None


def offline_index() -> str:
    """The page's index.html for a static folder: paths relative to it, and the local
    engine's script before app.js."""
    html = render("index")
    html = html.replace('"/static/', '"static/')
    if APP_SCRIPT not in html:
        raise ValueError("the page's index.html does not load static/app.js as expected")
    return html.replace(APP_SCRIPT, f"{FILE_NOTICE}\n{OFFLINE_SCRIPT}\n{APP_SCRIPT}", 1)


def export_site(destination: Path, package: Path | None = None) -> list[Path]:
    """Writes the offline page into ``destination`` (made if needed; files already there
    are replaced) and returns the files written."""
    wasm = find_wasm(package)
    if destination.exists() and not destination.is_dir():
        raise ValueError(f"{destination} exists and is not a folder")
    static = destination / "static"
    (static / "wasm").mkdir(parents=True, exist_ok=True)
    written = []
    for source in sorted(STATIC.iterdir()):
        if source.is_file() and source.name not in SERVER_ONLY:
            written.append(Path(shutil.copyfile(source, static / source.name)))
    for name in (*WASM_FILES, "buttonup_wasm.d.ts"):
        if (wasm / name).is_file():
            written.append(Path(shutil.copyfile(wasm / name, static / "wasm" / name)))
    index = destination / "index.html"
    index.write_text(offline_index(), encoding="utf-8")
    written.append(index)
    return written
