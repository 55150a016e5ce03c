#!/usr/bin/env python3
"""Runs a `bluetape replay` command, stamps each line of its output as it arrives, and reports how
late each line came against its due time: the first line's arrival plus (ts - first ts) / speed.
The command is started from here, so the reader is ready before the first line is written.

Usage: replay-lateness.py SPEED LIMIT_MS -- bluetape replay --speed SPEED CAPTURE
Also counts the lines within LIMIT_MS of their due time. Exits 1 only when the command failed."""
import os
import re
import subprocess
import sys
import time

if len(sys.argv) < 5 or sys.argv[3] != "--":
    sys.exit(__doc__)
speed = float(sys.argv[1])
limit_ms = float(sys.argv[2])
TS = re.compile(rb'"ts":(\d+)\.(\d{6})')

# (arrival in ns on the monotonic clock, capture time in µs); read raw, so no buffer holds a line back.
arrivals = []
pending = b""
replay = subprocess.Popen(sys.argv[4:], stdout=subprocess.PIPE, bufsize=0)
while True:
    chunk = os.read(replay.stdout.fileno(), 1 << 16)
    now = time.monotonic_ns()
    if not chunk:
        break
    *lines, pending = (pending + chunk).split(b"\n")
    for line in lines:
        match = TS.search(line)
        if match:
            arrivals.append((now, int(match.group(1)) * 1_000_000 + int(match.group(2))))
if replay.wait() != 0:
    sys.exit(f"replay-lateness: the replay exited with {replay.returncode}")
if len(arrivals) < 2:
    sys.exit("replay-lateness: fewer than two lines with a ts")

first_arrival, first_ts = arrivals[0]
lateness_ms = sorted(
    (arrival - first_arrival - (ts - first_ts) * 1000 / speed) / 1e6 for arrival, ts in arrivals)


def percentile(p):
    """Nearest rank."""
    return lateness_ms[min(len(lateness_ms) - 1, max(0, round(p / 100 * len(lateness_ms)) - 1))]


late = sum(1 for value in lateness_ms if value > limit_ms)
print(f"lines      {len(arrivals)} over {(arrivals[-1][1] - first_ts) / 1e6:.3f} s of capture at speed {speed:g}")
print(f"lateness   median {percentile(50):.3f} ms, p99 {percentile(99):.3f} ms, max {lateness_ms[-1]:.3f} ms"
      f" (earliest {lateness_ms[0]:.3f} ms)")
print(f"within {limit_ms:g} ms: {len(arrivals) - late} of {len(arrivals)}")
