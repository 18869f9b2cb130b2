"""Render a report page in headless Chromium (no network): a screenshot, and what went wrong
while it loaded (console errors, uncaught errors, images that did not load).

    python tests/browser.py reports/demo/report.html /tmp/demo.png
    python tests/browser.py --site site /tmp/shots    # the built docs site, served on localhost
"""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import tempfile
import threading
from contextlib import contextmanager
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlparse

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "",
                             shutil.which("chromium-browser") or "") if p and Path(p).exists()), None)
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio"]

# Runs before anything else on the page: records console errors, uncaught errors and failed
# resource loads; after load, every image that did not decode; all into an attribute that
# --dump-dom shows.
PROBE = """<script>(function(){
var log=[];function put(){document.documentElement.setAttribute('data-probe',JSON.stringify(log));}
var err=console.error;console.error=function(){log.push('console.error: '+Array.prototype.join.call(arguments,' '));put();err.apply(console,arguments);};
window.addEventListener('error',function(e){var t=e.target;
 if(t&&t!==window&&(t.src||t.href)){log.push('failed to load: '+(t.src||t.href).slice(0,80));}
 else{log.push('error: '+e.message);} put();},true);
window.addEventListener('load',function(){var imgs=document.images;
 for(var i=0;i<imgs.length;i++){if(!imgs[i].complete||imgs[i].naturalWidth===0){log.push('missing image: '+(imgs[i].alt||i));}}
 document.documentElement.setAttribute('data-images',String(imgs.length));put();});
put();})();</script>"""


def render(html_path: Path, png_path: Path | None = None, width: int = 1200,
           height: int = 6000) -> dict:
    """{"problems": [...], "images": n} of loading ``html_path``; a screenshot to ``png_path``."""
    html_path = Path(html_path).resolve()
    text = html_path.read_text()
    probed = re.sub(r"<head>", "<head>" + PROBE, text, count=1)
    with tempfile.TemporaryDirectory() as tmp:
        page = Path(tmp) / "page.html"
        page.write_text(probed)
        base = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}"]
        dom = subprocess.run([*base, "--virtual-time-budget=5000", "--dump-dom", page.as_uri()],
                             capture_output=True, text=True, timeout=120)
        if png_path is not None:
            subprocess.run([*base, f"--screenshot={Path(png_path).resolve()}", html_path.as_uri()],
                           capture_output=True, text=True, timeout=120)
    return _problems(dom)


def _problems(dom: subprocess.CompletedProcess) -> dict:
    probe = re.search(r"data-probe=\"([^\"]*)\"", dom.stdout)
    images = re.search(r"data-images=\"(\d+)\"", dom.stdout)
    if probe is None:
        return {"problems": [f"the page did not load: {dom.stderr.strip()[-300:]}"], "images": 0}
    problems = json.loads(probe.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    if images is None:
        problems.append("the load event never fired")
    return {"problems": problems, "images": int(images.group(1)) if images else 0}


class _ProbingHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a folder, with the probe put first into every HTML page's head."""

    def do_GET(self):
        path = Path(self.translate_path(self.path))
        if path.is_dir():
            path = path / "index.html"
        if path.suffix != ".html" or not path.is_file():
            return super().do_GET()
        body = re.sub(r"<head>", "<head>" + PROBE, path.read_text(encoding="utf-8"), count=1).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@contextmanager
def serve(folder: Path):
    """A server of ``folder`` on 127.0.0.1 (a free port) for the duration; yields its base URL."""
    handler = functools.partial(_ProbingHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def render_url(url: str, png_path: Path | None = None, width: int = 1280, height: int = 2400) -> dict:
    """{"problems": [...], "images": n} of loading ``url`` from a `serve` server (which puts
    the probe in), and a screenshot to ``png_path``."""
    with tempfile.TemporaryDirectory() as tmp:
        base = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp}/profile", f"--window-size={width},{height}"]
        dom = subprocess.run([*base, "--virtual-time-budget=5000", "--dump-dom", url],
                             capture_output=True, text=True, timeout=120)
        if png_path is not None:
            subprocess.run([*base, f"--screenshot={Path(png_path).resolve()}", url],
                           capture_output=True, text=True, timeout=120)
    return _problems(dom)


class _Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.nav: list[str] = []
        self.all: list[str] = []
        self._nav_depth = 0

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "nav":
            self._nav_depth += 1
        if tag == "a" and attrs.get("href"):
            self.all.append(attrs["href"])
            if self._nav_depth:
                self.nav.append(attrs["href"])

    def handle_endtag(self, tag):
        if tag == "nav":
            self._nav_depth -= 1


def _ids(page: Path) -> set[str]:
    return set(re.findall(r'\bid="([^"]+)"', page.read_text(encoding="utf-8")))


def broken_links(site: Path) -> list[str]:
    """Every link of every page of a built site that leads nowhere inside it: a missing file, or
    an anchor the target page has no element for. External links count as broken (the site
    must work without a network)."""
    site = Path(site).resolve()
    broken = []
    for page in sorted(site.rglob("*.html")):
        parser = _Links()
        parser.feed(page.read_text(encoding="utf-8"))
        for href in parser.all:
            parts = urlparse(href)
            if parts.scheme in ("http", "https") or parts.netloc:
                broken.append(f"{page.relative_to(site)}: external link {href}")
                continue
            if parts.scheme:  # mailto:, javascript: ...
                continue
            if parts.path.startswith("/"):  # from the site's root (the 404 page's links)
                target = (site / unquote(parts.path).lstrip("/")).resolve()
            else:
                target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if target.is_dir():
                target = target / "index.html"
            if not target.is_relative_to(site) or not target.exists():
                broken.append(f"{page.relative_to(site)}: {href}")
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in _ids(target):
                broken.append(f"{page.relative_to(site)}: {href} (no such anchor)")
    return broken


def check_site(site: Path, pages: list[str], shots: Path | None = None) -> dict:
    """Serve a built site on localhost and load ``pages`` in Chromium: their problems, their
    navigation links (each fetched over HTTP), and screenshots into ``shots``."""
    import urllib.request

    out = {"pages": {}, "nav_links": 0, "broken_nav": [], "broken_links": broken_links(site)}
    with serve(Path(site)) as base:
        nav: set[str] = set()
        for name in pages:
            url = urljoin(base, name)
            png = Path(shots) / (name.replace("/", "_").replace(".html", ".png")) if shots else None
            out["pages"][name] = render_url(url, png)
            parser = _Links()
            parser.feed((Path(site) / name).read_text(encoding="utf-8"))
            nav.update(urljoin(url, href).split("#")[0] for href in parser.nav
                       if not urlparse(href).scheme)
        for link in sorted(nav):
            try:
                with urllib.request.urlopen(link, timeout=30) as response:
                    ok = response.status == 200
            except OSError:
                ok = False
            if not ok:
                out["broken_nav"].append(link.removeprefix(base))
        out["nav_links"] = len(nav)
    return out


if __name__ == "__main__":
    if sys.argv[1] == "--site":
        shots = Path(sys.argv[3]) if len(sys.argv) > 3 else None
        if shots:
            shots.mkdir(parents=True, exist_ok=True)
        result = check_site(Path(sys.argv[2]), ["index.html", "rulesets/skat.html", "columns.html"], shots)
    else:
        result = render(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps(result, indent=1))
