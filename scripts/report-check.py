#!/usr/bin/env python3
"""Renders `bluetape report` pages in headless Chromium and checks what a person would see.

For each capture given (and once for all of them together): writes its report, loads it in
Chromium, and checks that
  - the page logs nothing to the console (no script error, no blocked load),
  - its own self-check (an <output id="self-check"> the page's script fills in) found no problem,
  - the DOM holds one plot per (device, numeric field) of the readings `bluetape decode` gives,
    with the same devices and fields, and every series has points,
  - hovering a point shows its frame, time and value,
  - a screenshot of it is not blank.
Screenshots are kept in OUTDIR for people to look at.

usage: report-check.py BLUETAPE CHROMIUM OUTDIR CAPTURE…
"""
import html.parser
import json
import os
import re
import struct
import subprocess
import sys
import zlib

WIDTH = 1400


def say(*parts):
    print(*parts, file=sys.stderr, flush=True)


def chromium(browser, *arguments, timeout=120):
    """Runs headless Chromium; returns (stdout, console lines)."""
    argv = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
            "--disable-extensions", "--enable-logging=stderr", "--v=0", *arguments]
    done = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)
    console = [line for line in done.stderr.decode("utf-8", "replace").splitlines() if ":CONSOLE" in line]
    return done.stdout.decode("utf-8", "replace"), console


def expected_plots(bluetape, captures):
    """(device, field) of every numeric reading field, in the order `decode` first gives them."""
    plots = []
    for capture in captures:
        out = subprocess.run([bluetape, "decode", "--format", "jsonl", capture], stdout=subprocess.PIPE,
                             check=True).stdout.decode()
        seen = []
        for line in out.splitlines():
            reading = json.loads(line)
            device = reading.get("addr", "no address")
            for name, value in (reading.get("fields") or {}).items():
                if isinstance(value, (int, float)) and not isinstance(value, bool) and (device, name) not in seen:
                    seen.append((device, name))
        plots += seen
    return plots


class DOM(html.parser.HTMLParser):
    """The parts of the rendered DOM the checks read."""

    def __init__(self):
        super().__init__()
        self.plots = []
        self.series = []
        self.check = None

    def handle_starttag(self, tag, attributes):
        a = dict(attributes)
        classes = (a.get("class") or "").split()
        if tag == "figure" and "plot" in classes and "reading" in classes:
            self.plots.append((a.get("data-device"), a.get("data-field")))
        elif tag == "g" and "series" in classes:
            self.series.append(a)
        elif tag == "output" and a.get("id") == "self-check":
            self.check = a


def content_rows(png):
    """Rows of a PNG that differ from a uniform image: what a blank screenshot lacks.

    A uniform image filters to rows of zeros (Sub, Up, Average, Paeth) or to copies of its first
    row (None); any row that is neither has something on it. Returns (width, height, such rows).
    """
    if png[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    position = 8
    data = b""
    width = height = channels = 0
    while position < len(png):
        length, kind = struct.unpack(">I4s", png[position:position + 8])
        body = png[position + 8:position + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour = struct.unpack(">IIBB", body[:10])
            channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour] * (depth // 8)
        elif kind == b"IDAT":
            data += body
        position += 12 + length
    raw = zlib.decompress(data)
    stride = width * channels + 1
    first = raw[1:stride]
    rows = 0
    zero = bytes(stride - 1)
    for y in range(1, height):
        row = raw[y * stride:(y + 1) * stride]
        if row[0] == 0:
            rows += row[1:] != first
        else:
            rows += row[1:] != zero
    return width, height, rows


def check_report(bluetape, browser, out, name, captures):
    page = os.path.join(out, name + ".html")
    subprocess.run([bluetape, "report", "-o", page] + captures, check=True, stderr=subprocess.DEVNULL)
    url = "file://" + os.path.abspath(page)
    problems = []
    # At the screenshot's width, so that the height it measures is the screenshot's.
    dom_text, console = chromium(browser, f"--window-size={WIDTH},2000", "--dump-dom", url)
    problems += [f"console: {line.split('CONSOLE', 1)[1]}" for line in console]
    dom = DOM()
    dom.feed(dom_text)
    check = dom.check or {}
    if check.get("data-ok") != "true":
        problems.append(f"self-check: {check.get('data-problems') or 'did not run'}")
    expected = expected_plots(bluetape, captures)
    if dom.plots != expected:
        missing = [p for p in expected if p not in dom.plots]
        extra = [p for p in dom.plots if p not in expected]
        problems.append(f"plots: {len(dom.plots)} in the DOM, {len(expected)} expected; missing {missing}, extra {extra}")
    hover = check.get("data-hover") or ""
    if expected and not re.search(r"frame \d+ \| -?\d+\.\d{3} s \(\d\d:\d\d:\d\d\.\d{3} UTC\) \| \S+ = ", hover):
        problems.append(f"hovering the first point shows {hover!r}, not its frame, time and value")
    if str(len(expected)) != check.get("data-reading-plots"):
        problems.append(f"self-check counted {check.get('data-reading-plots')} reading plots, expected {len(expected)}")
    empty = [s.get("data-name") for s in dom.series if int(s.get("data-points") or 0) == 0 or not s.get("data-t")]
    if empty:
        problems.append(f"series without points: {empty}")
    if len(dom.series) < len(expected):
        problems.append(f"{len(dom.series)} series for {len(expected)} plots")

    height = min(max(int(check.get("data-height") or 2000), 600), 16000)
    shot = os.path.join(out, name + ".png")
    if os.path.exists(shot):
        os.remove(shot)
    _, console = chromium(browser, f"--window-size={WIDTH},{height}", f"--screenshot={shot}", url)
    problems += [f"console (screenshot): {line.split('CONSOLE', 1)[1]}" for line in console]
    try:
        with open(shot, "rb") as f:
            width, shot_height, rows = content_rows(f.read())
        if width != WIDTH or shot_height != height:
            problems.append(f"screenshot is {width}×{shot_height}, asked for {WIDTH}×{height}")
        if rows < 0.1 * shot_height:
            problems.append(f"screenshot looks blank: {rows} of {shot_height} rows have anything on them")
    except (OSError, ValueError, zlib.error) as error:
        problems.append(f"screenshot: {error}")
        rows = 0
    summary = (f"{name}: {len(dom.plots)} plot{'s' if len(dom.plots) != 1 else ''} of readings, "
               f"{check.get('data-rssi-plots')} of RSSI, "
               f"{check.get('data-histograms')} histograms, {len(dom.series)} series, "
               f"{check.get('data-points')} points; screenshot {shot} ({rows} of {height} rows drawn)")
    return summary, problems


def main():
    if len(sys.argv) < 5:
        sys.exit(__doc__)
    bluetape, browser, out = sys.argv[1:4]
    captures = sys.argv[4:]
    os.makedirs(out, exist_ok=True)
    failures = 0
    jobs = [(re.sub(r"\.[^.]*$", "", os.path.basename(c)), [c]) for c in captures]
    if len(captures) > 1:
        jobs.append(("all-captures", captures))
    for name, group in jobs:
        summary, problems = check_report(bluetape, browser, out, name, group)
        say(("ok    " if not problems else "FAIL  ") + summary)
        for problem in problems:
            say("      " + problem)
        failures += bool(problems)
    if failures:
        sys.exit(f"{failures} report{'s' if failures > 1 else ''} failed the browser check")


if __name__ == "__main__":
    main()
