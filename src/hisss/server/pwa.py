"""The installable web app: the service worker's script and the offline page.

The front end's files are served under versioned addresses (:mod:`hisss.server.app`). The
service worker (``static/sw.js``, served as ``/sw.js`` so that it looks after every page of the
site) is told that version and the list of those addresses, keeps them, and answers a page asked
for without a network with the offline page, which says in every language of the catalogs that
playing needs the server. The web app manifest is a static file beside them.
"""

from __future__ import annotations

import json
from functools import cache
from html import escape
from importlib import resources
from importlib.resources.abc import Traversable

from hisss.i18n import LANGUAGES, get_catalog

#: Files the service worker does not keep: pages and the worker itself, served otherwise.
_NOT_KEPT = {"index.html", "sw.js"}


def _files(folder: Traversable, prefix: str = "") -> list[str]:
    found = []
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.is_dir():
            found += _files(entry, f"{prefix}{entry.name}/")
        elif prefix or entry.name not in _NOT_KEPT:
            found.append(prefix + entry.name)
    return found


def kept_files(version: str) -> list[str]:
    """The versioned addresses of every file of the front end the service worker keeps."""
    static = resources.files("hisss.server").joinpath("static")
    return [f"/static/{version}/{name}" for name in _files(static)]


@cache
def service_worker(version: str) -> str:
    """The service worker's script for the front end's ``version``."""
    script = resources.files("hisss.server").joinpath("static/sw.js").read_text("utf-8")
    files = json.dumps(kept_files(version))
    return f"const VERSION = {json.dumps(version)};\nconst FILES = {files};\n{script}"


@cache
def offline_page(version: str) -> str:
    """The page shown without a network: what it means, in every language, and a way back."""
    parts = []
    for code in LANGUAGES:
        words = get_catalog(code)
        parts.append(
            f'<section lang="{code}" class="panel offline">'
            f"<h1>{escape(words.text('offline.title'))}</h1>"
            f"<p>{escape(words.text('offline.text'))}</p>"
            f'<p><a class="button primary" href="/">{escape(words.text("offline.again"))}</a></p>'
            "</section>"
        )
    english = get_catalog("en")
    page = (
        "<!doctype html>\n"
        '<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(english.text('offline.title'))} · Hisss</title>\n"
        '<link rel="icon" href="/static/img/icon.svg" type="image/svg+xml">\n'
        '<link rel="stylesheet" href="/static/css/hisss.css">\n'
        '</head>\n<body>\n<header class="topbar"><span class="brand">'
        '<img src="/static/img/icon.svg" alt="" width="32" height="32"> Hisss</span></header>\n'
        f'<main id="main" class="offline-page">{"".join(parts)}</main>\n</body>\n</html>\n'
    )
    return page.replace('="/static/', f'="/static/{version}/')
