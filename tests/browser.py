"""Render a report page in headless Chromium (no network): a screenshot, and what went wrong
while it loaded (console errors, uncaught errors, images that did not load).

    python tests/browser.py reports/demo/report.html /tmp/demo.png
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

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
    probe = re.search(r"data-probe=\"([^\"]*)\"", dom.stdout)
    images = re.search(r"data-images=\"(\d+)\"", dom.stdout)
    if probe is None:
        return {"problems": [f"the page did not load: {dom.stderr.strip()[-300:]}"], "images": 0}
    problems = json.loads(probe.group(1).replace("&quot;", '"').replace("&amp;", "&"))
    if images is None:
        problems.append("the load event never fired")
    return {"problems": problems, "images": int(images.group(1)) if images else 0}


if __name__ == "__main__":
    out = render(Path(sys.argv[1]), Path(sys.argv[2]) if len(sys.argv) > 2 else None)
    print(json.dumps(out, indent=1))
