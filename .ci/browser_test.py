"""The review page in headless Chromium over the DevTools protocol (run by .ci/browser-test BIN BROWSER)."""
import base64
import csv
import io
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request

import websocket

BIN, BROWSER = sys.argv[1], sys.argv[2]
ROOT = os.getcwd()
SHOTS = os.path.join(ROOT, ".ci", "out", "screenshots")
HOSTILE_QUESTION = "<img src=x onerror=alert(1)> or <script>alert(3)</script>?"
HOSTILE_DESCRIPTION = "<img src=x onerror=alert(2)>"
failures = []


def say(text):
    print("browser-test: " + text, flush=True)


def fail(text):
    failures.append(text)
    say("FAIL: " + text)


def skip(text):
    bar = "browser-test: " + "*" * 68
    print(bar + "\nbrowser-test: SKIPPED: " + text + "\n" + bar, file=sys.stderr, flush=True)
    sys.exit(0)


def run(args, **kwargs):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kwargs)


def read_csv(path):
    """A HoldLab CSV: its # lines as a dict and its rows as dicts."""
    with open(path, encoding="utf-8") as handle:
        lines = handle.read().splitlines()
    head = {}
    for line in lines:
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            head[key] = value
    body = [line for line in lines if not line.startswith("#")]
    return head, list(csv.DictReader(io.StringIO("\n".join(body))))


class Browser:
    def __init__(self, work):
        self.profile = os.path.join(work, "chromium-profile")
        args = [BROWSER, "--headless=new", "--disable-gpu", "--no-first-run", "--no-default-browser-check",
                "--remote-debugging-port=0", "--user-data-dir=" + self.profile, "--window-size=1920,1080",
                "--host-resolver-rules=MAP * ~NOTFOUND", "--disable-background-networking", "--disable-extensions",
                "--disable-component-update", "--disable-sync", "--allow-file-access-from-files", "about:blank"]
        if os.geteuid() == 0:
            args.insert(1, "--no-sandbox")
        self.process = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        port_file = os.path.join(self.profile, "DevToolsActivePort")
        deadline = time.time() + 30
        while not os.path.exists(port_file):
            if self.process.poll() is not None or time.time() > deadline:
                message = self.process.stderr.read().decode(errors="replace")[-2000:] if self.process.poll() is not None else "timed out"
                self.close()
                skip("Chromium (" + BROWSER + ") cannot start: " + message.strip())
            time.sleep(0.1)
        time.sleep(0.2)
        port = open(port_file).read().split()[0]
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        targets = json.load(opener.open("http://127.0.0.1:%s/json" % port))
        page = next(t for t in targets if t["type"] == "page")
        self.socket = websocket.create_connection(page["webSocketDebuggerUrl"], timeout=60, suppress_origin=True)
        self.next_id = 0
        self.events = []

    def call(self, method, **params):
        self.next_id += 1
        ident = self.next_id
        self.socket.send(json.dumps({"id": ident, "method": method, "params": params}))
        while True:
            message = json.loads(self.socket.recv())
            if message.get("id") == ident:
                if "error" in message:
                    raise RuntimeError("%s: %s" % (method, message["error"]))
                return message.get("result", {})
            if "method" in message:
                self.events.append(message)

    def pump(self, seconds):
        self.socket.settimeout(seconds)
        try:
            while True:
                message = json.loads(self.socket.recv())
                if "method" in message:
                    self.events.append(message)
        except websocket.WebSocketTimeoutException:
            pass
        finally:
            self.socket.settimeout(60)

    def js(self, expression):
        result = self.call("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        if "exceptionDetails" in result:
            raise RuntimeError("page script failed: %s: %s" % (expression[:80], result["exceptionDetails"].get("text")))
        return result["result"].get("value")

    def key(self, key, code, key_code):
        for kind in ("rawKeyDown", "keyUp"):
            params = dict(type=kind, key=key, code=code, windowsVirtualKeyCode=key_code, nativeVirtualKeyCode=key_code)
            if kind == "rawKeyDown" and key == " ":
                params["text"] = " "
                params["type"] = "keyDown"
            self.call("Input.dispatchKeyEvent", **params)

    def close(self):
        try:
            self.process.terminate()
            self.process.wait(10)
        except Exception:
            self.process.kill()


def problems(browser, page_url):
    """Console errors, exceptions, dialogs and any request but the page itself, from the events so far."""
    found = []
    for event in browser.events:
        method, params = event["method"], event.get("params", {})
        if method == "Runtime.exceptionThrown":
            found.append("exception: " + json.dumps(params["exceptionDetails"])[:400])
        elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            found.append("console.%s: %s" % (params["type"], json.dumps(params.get("args"))[:400]))
        elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
            found.append("log error: %s (%s)" % (params["entry"].get("text"), params["entry"].get("url", "")))
        elif method == "Page.javascriptDialogOpening":
            found.append("a dialog opened: " + params.get("message", ""))
        elif method == "Network.requestWillBeSent":
            url = params["request"]["url"]
            if url != page_url and not url.startswith("data:"):
                found.append("a request left the page: " + url)
    return found


def open_page(browser, path, scheme="light"):
    browser.events.clear()
    url = "file://" + path
    browser.call("Emulation.setEmulatedMedia", features=[
        {"name": "prefers-color-scheme", "value": scheme}, {"name": "prefers-reduced-motion", "value": "reduce"}])
    started = time.perf_counter()
    browser.call("Page.navigate", url=url)
    deadline = time.time() + 30
    while browser.js("document.readyState === 'complete' && document.documentElement.getAttribute('data-ready') === '1'") is not True:
        if time.time() > deadline:
            raise RuntimeError("the page never became ready: " + "; ".join(problems(browser, url)))
        time.sleep(0.01)
    wall = (time.perf_counter() - started) * 1000
    mark = browser.js("performance.getEntriesByName('holdlab-ready')[0].startTime")
    return url, wall, mark


def trace_rows(command, release):
    """`holdlab trace` for a design (its trace CSV's own command) at a release time (None: held to the end)."""
    args = shlex.split(command)
    args[0] = BIN
    if release is not None:
        args += ["--release-at", "%.3f" % (release / 1000)]
    output = run(args + ["--out", "-"]).stdout
    head, rows = {}, []
    body = [line for line in output.splitlines() if not line.startswith("#")]
    for line in output.splitlines():
        if line.startswith("# ") and ": " in line:
            key, value = line[2:].split(": ", 1)
            head[key] = value
    rows = [(float(r["t_ms"]), float(r["displayed_progress"]), r["event"]) for r in csv.DictReader(io.StringIO("\n".join(body)))]
    return head, rows


def displayed(rows, t_ms):
    shown = 0.0
    for t, progress, _ in rows:
        if t <= t_ms:
            shown = progress
        else:
            break
    return shown


def main():
    work = tempfile.mkdtemp(prefix="holdlab-browser-")
    os.makedirs(SHOTS, exist_ok=True)
    # The reviews. A library with a profile whose description is hostile (names and labels are letters, digits,
    # - and _; a description and the question are free text).
    library = os.path.join(work, "Profiles")
    shutil.copytree(os.path.join(ROOT, "Profiles"), library)
    with open(os.path.join(ROOT, "Profiles", "hig-linear-bar.yaml"), encoding="utf-8") as handle:
        text = handle.read()
    text = re.sub(r"(?m)^name: .*$", "name: hostile-bar", text)
    text = re.sub(r"(?m)^description: .*$", "description: " + json.dumps(HOSTILE_DESCRIPTION), text)
    with open(os.path.join(library, "hostile-bar.yaml"), "w", encoding="utf-8") as handle:
        handle.write(text)
    hostile = os.path.join(work, "hostile")
    started = time.perf_counter()
    run([BIN, "report", "--profiles-dir", library, "--profile", "hostile-bar",
         "--variant", "fast=fill.curve=easeIn fill.duration=0.6 gesture.minimumDuration=0.8",
         "--population", "default,motor-impaired", "--users", "20000", "--robustness-users", "0",
         "--sweep", "fill.duration=0.6,0.8,1.0,1.2", "--question", HOSTILE_QUESTION, "--out", hostile, "--quiet"])
    say("made the hostile review in %.1f s" % (time.perf_counter() - started))
    # HOLDLAB_BROWSER_README=DIR reuses a folder the README's command made (a debug build takes minutes to make it).
    readme = os.environ.get("HOLDLAB_BROWSER_README") or os.path.join(work, "review")
    if not os.environ.get("HOLDLAB_BROWSER_README"):
        started = time.perf_counter()
        run([BIN, "report", "--profile", "hig-linear-bar",
             "--variant", "fast=fill.curve=easeIn fill.duration=0.6 gesture.minimumDuration=0.8",
             "--population", "default,motor-impaired", "--out", readme, "--quiet"], cwd=work)
        say("made the README's first review in %.1f s" % (time.perf_counter() - started))
    size = os.path.getsize(os.path.join(readme, "report.html"))
    say("README first review: report.html is %d bytes (%.2f MB), one file" % (size, size / 1e6))
    if size >= 5_000_000:
        fail("report.html of the README's first review is %d bytes, not under 5 MB" % size)
    with open(os.path.join(readme, "report.html"), encoding="utf-8") as handle:
        page_text = handle.read()
    if re.search(r"""(src|href)\s*=\s*["']?(https?:)?//""", page_text) or "@import" in page_text:
        fail("report.html refers to something outside itself")

    browser = Browser(work)
    try:
        browser.call("Page.enable")
        browser.call("Runtime.enable")
        browser.call("Log.enable")
        browser.call("Network.enable")
        browser.call("Network.emulateNetworkConditions", offline=True, latency=0, downloadThroughput=-1, uploadThroughput=-1)
        browser.call("Emulation.setDeviceMetricsOverride", width=1920, height=1080, deviceScaleFactor=1, mobile=False)

        # The benchmark: the README's page, from navigation to its holdlab-ready mark (several times; the first is cold).
        times = []
        for _ in range(5):
            url, wall, mark = open_page(browser, os.path.join(readme, "report.html"))
            times.append((wall, mark))
            for problem in problems(browser, url):
                fail("README review page: " + problem)
        say("BENCHMARK open README review page: holdlab-ready at %.0f ms after navigation start (cold), median %.0f ms; "
            "seen by the driver after %.0f ms cold, median %.0f ms" % (
                times[0][1], sorted(m for _, m in times)[2], times[0][0], sorted(w for w, _ in times)[2]))

        # The hostile review.
        page = os.path.join(hostile, "report.html")
        url, _, _ = open_page(browser, page)
        question = browser.js("document.getElementById('question').textContent")
        if HOSTILE_QUESTION not in question:
            fail("the question is not shown literally: %r" % question)
        descriptions = browser.js("Array.from(document.querySelectorAll('.description')).map(e => e.textContent)")
        if HOSTILE_DESCRIPTION not in descriptions:
            fail("the hostile description is not shown literally: %r" % descriptions)
        images = browser.js("document.querySelectorAll('img').length")
        scripts = browser.js("document.scripts.length")
        if images != 0 or scripts != 2:
            fail("the hostile text made elements: %d <img>, %d <script> (want 0 and 2)" % (images, scripts))
        policy = browser.js("document.querySelector('meta[http-equiv=\"Content-Security-Policy\"]').content")
        if "default-src 'none'" not in policy or "connect-src" in policy:
            fail("the Content-Security-Policy is not the page's own: %r" % policy)
        say("hostile text shown as text, no <img>, no extra <script>, CSP: " + policy.split(";")[0])

        # Bars against trace: every design, several release times picked with the keyboard, chosen instants.
        data = browser.js("JSON.parse(document.getElementById('holdlab-data').textContent)")
        grid = [hold["releaseMs"] for hold in data["designs"][0]["holds"]]
        commands = []
        for design in data["designs"]:
            head, _ = read_csv(os.path.join(hostile, "trace-%s.csv" % design["label"]))
            # The trace CSV's own command names where its profile is (holdlab 0.3.14): it runs as recorded.
            if "--profiles-dir" not in shlex.split(head["command"]):
                fail("the trace CSV's command does not say where its profile is: %r" % head["command"])
            commands.append(head["command"])
        compared = 0
        worst = 0.0
        browser.js("document.getElementById('release').focus()")
        browser.key("Home", "Home", 36)
        picks = sorted({0, 2, len(grid) // 2, len(grid) - 2, len(grid) - 1})
        position = 0
        for pick in picks:
            while position < pick:
                browser.key("ArrowRight", "ArrowRight", 39)
                position += 1
            shown = browser.js("document.getElementById('release').value")
            if int(shown) != pick:
                fail("the release slider is at %s after the keyboard, not %d" % (shown, pick))
            label = browser.js("document.getElementById('release-value').textContent")
            release = grid[pick]
            want = "held to the end" if release is None else "released at %.2f s" % (release / 1000)
            if label != want:
                fail("release readout %r, want %r" % (label, want))
            for index, design in enumerate(data["designs"]):
                head, rows = trace_rows(commands[index], release)
                completed = head.get("completed") == "true"
                outcome = browser.js("document.getElementById('design-%d-outcome').textContent" % index)
                trigger = next((t for t, _, e in rows if e == "trigger"), None)
                if completed != outcome.startswith("Action fires at") or (completed and "at %d ms" % round(trigger) not in outcome):
                    fail("%s released at %s: the page says %r, trace says completed=%s trigger=%s" % (design["label"], release, outcome, completed, trigger))
                end = rows[-1][0]
                instants = sorted({0.0, 50.0, 200.0, 333.3, 500.0, 640.0, 799.0, 800.0, 801.0, 1000.0, 1004.2, 1200.0, end}
                                  | {t for t, _, e in rows if e in ("trigger", "release", "displayed_full", "displayed_empty")})
                for t in instants:
                    width = browser.js(
                        "(function(){var t=window.holdlabSeek(%r);var f=document.querySelector('#design-%d .fill'),"
                        "k=document.querySelector('#design-%d .track');return [f.getBoundingClientRect().width,k.clientWidth,t];})()"
                        % (t / 1000, index, index))
                    # The instant the page shows (the seek stops at the end of its timeline).
                    expected = displayed(rows, width[2]) * width[1]
                    error = abs(width[0] - expected)
                    worst = max(worst, error)
                    compared += 1
                    if error > 1.0:
                        fail("%s, release %s, t=%.1f ms: the bar is %.2f px wide, trace says %.2f px" % (design["label"], release, t, width[0], expected))
        say("bar widths against holdlab trace: %d instants over %d designs and %d release times, worst %.3f px (limit 1 px)"
            % (compared, len(data["designs"]), len(picks), worst))

        # The sweep slider against the sweep CSV.
        _, sweep_rows = read_csv(os.path.join(hostile, "sweep-fill.duration.csv"))
        checked = 0
        for index, row in enumerate(sweep_rows):
            browser.js("(function(){var s=document.getElementById('sweep-0-slider');s.value='%d';s.dispatchEvent(new Event('input'));})()" % index)
            shown = browser.js("Object.fromEntries(Array.from(document.querySelectorAll('#sweep-0-readout [data-metric]')).map(e=>[e.dataset.metric,e.textContent]))")
            point = browser.js("document.querySelector('#sweep-0-readout .point').dataset.value")
            if float(point) != float(row["param_fill_duration"]):
                fail("sweep point %d shows %s, the CSV %s" % (index, point, row["param_fill_duration"]))
            for metric, text in shown.items():
                value = float(row[metric]) * 100
                number = float(text.replace("%", "").strip())
                decimals = len(text.replace("%", "").strip().split(".")[1]) if "." in text else 0
                if abs(number - value) > 0.5 * 10 ** -decimals + 1e-9:
                    fail("sweep point %d: %s shows %s, the CSV has %s" % (index, metric, text, row[metric]))
                checked += 1
        say("sweep slider: %d numbers at %d points match sweep-fill.duration.csv" % (checked, len(sweep_rows)))
        marked = browser.js("[document.querySelectorAll('#sweep-0 .base').length, Array.from(document.querySelectorAll('#sweep-0 tbody th')).filter(e=>e.textContent.endsWith('(baseline)')).map(e=>e.textContent)]")
        if marked != [2, ["1 (baseline)"]]:
            fail("the sweep's baseline (fill.duration 1, as gesture.minimumDuration) is not marked: %r" % (marked,))

        # The rates table against designs.csv.
        _, design_rows = read_csv(os.path.join(hostile, "designs.csv"))
        cells = browser.js("Array.from(document.querySelectorAll('#findings table tbody tr')).map(tr=>[tr.querySelector('th').textContent].concat(Array.from(tr.querySelectorAll('td[data-metric]')).map(td=>td.textContent)))")
        expected_cells = []
        for row in design_rows:
            expected_cells.append([row["design"]] + [
                "%s (%s–%s)" % tuple(fmt(float(row[m + s])) for s in ("", "_lo", "_hi")) for m in ("completion_rate", "false_activation_rate")])
        strip = lambda c: [c[0]] + [re.sub(r" %(?= \()", "", x) for x in c[1:]]
        if [strip(c) for c in cells] != expected_cells:
            fail("the rates tables differ from designs.csv: %r against %r" % (cells, expected_cells))
        else:
            say("rates tables: %d rows match designs.csv" % len(cells))

        # The keyboard: space toggles play.
        browser.js("document.activeElement.blur()")
        browser.key(" ", "Space", 32)
        playing = browser.js("document.getElementById('play').getAttribute('aria-pressed')")
        browser.key(" ", "Space", 32)
        paused = browser.js("document.getElementById('play').getAttribute('aria-pressed')")
        if (playing, paused) != ("true", "false"):
            fail("space did not toggle play (%s, then %s)" % (playing, paused))
        alternatives = browser.js("Array.from(document.querySelectorAll('svg')).every(s=>s.getAttribute('role')==='img'&&s.getAttribute('aria-label'))")
        if not alternatives:
            fail("a chart has no text alternative")

        for problem in problems(browser, url):
            fail("hostile review page: " + problem)

        # Screenshots, light and dark, at 1920×1080 and of the whole page.
        saved = []
        for scheme in ("light", "dark"):
            open_page(browser, page, scheme)
            browser.js("window.holdlabRelease(%d); window.holdlabSeek(0.6)" % (len(grid) - 1))
            for name, params in (("", {}), ("-full", {"captureBeyondViewport": True})):
                if params:
                    height = browser.js("Math.ceil(document.documentElement.scrollHeight)")
                    params["clip"] = {"x": 0, "y": 0, "width": 1920, "height": height, "scale": 1}
                shot = browser.call("Page.captureScreenshot", format="png", **params)
                path = os.path.join(SHOTS, "review-%s%s.png" % (scheme, name))
                with open(path, "wb") as handle:
                    handle.write(base64.b64decode(shot["data"]))
                saved.append(path)
            background = browser.js("getComputedStyle(document.documentElement).backgroundColor")
            if (scheme == "dark") != (background not in ("rgb(255, 255, 255)",)):
                fail("the %s scheme has background %s" % (scheme, background))
            for problem in problems(browser, "file://" + page):
                fail("%s screenshot: %s" % (scheme, problem))
        say("screenshots (1920x1080 and full page, light and dark): " + ", ".join(os.path.relpath(p, ROOT) for p in saved))
    finally:
        browser.close()
        shutil.rmtree(work, ignore_errors=True)
    if failures:
        say("%d failure(s)" % len(failures))
        sys.exit(1)
    say("PASSED")


def fmt(rate):
    """A rate as the page writes it (and report.md): one decimal, two below 1 %."""
    x = rate * 100
    return "%.*f" % (2 if x != 0 and abs(x) < 1 else 1, x)


if __name__ == "__main__":
    main()
