"""``buttonup serve``: the app on uvicorn, bound to 127.0.0.1 unless told otherwise."""

from __future__ import annotations

import socket
import threading
import webbrowser

import uvicorn

from buttonup.web.app import create_app


def port_free(host: str, port: int) -> str | None:
    """``None`` if ``host:port`` can be bound, else why not."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as error:
            return error.strerror or str(error)
    return None


def serve(host: str, port: int, open_browser: bool, cors_origins: tuple[str, ...]) -> int:
    """Serves until Ctrl-C; a port that cannot be bound is a one-line error (status 2)."""
    problem = port_free(host, port)
    if problem is not None:
        raise ValueError(f"cannot listen on {host}:{port}: {problem}")
    url = f"http://{host if ':' not in host else f'[{host}]'}:{port}/"
    print(f"buttonup: serving on {url} (Ctrl-C stops)", flush=True)
    if open_browser:
        threading.Timer(1.0, webbrowser.open, args=(url,)).start()
    uvicorn.run(create_app(cors_origins=cors_origins), host=host, port=port, log_level="warning")
    return 0
