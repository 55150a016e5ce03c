#!/usr/bin/env python3
"""Checks `bluetape layout export` against Bluetape's own decoding, for each layout given.

  lint       the layout lints clean;
  wireshark  `bluetape synth` makes a capture from the layout's vectors; tshark with the exported
             plugin gives, for every packet and every field, the value `bluetape decode --layout`
             gives (skipped, with a message, when tshark is missing);
  c          the exported header and a harness generated from the vectors, compiled with
             cc -std=c99 -Wall -Wextra -Wconversion -Werror -fsanitize=address,undefined: every
             vector's expect encodes to its hex, every hex decodes to its expect, every truncated
             prefix is rejected;
  markdown   every worked example decodes as the page says.

usage: layout-export-check.py BLUETAPE WORKDIR LAYOUT.json…   (exit 1 on any difference)
"""
import json
import os
import shutil
import subprocess
import sys

BLUETAPE, WORK = sys.argv[1], sys.argv[2]
LAYOUTS = sys.argv[3:]
# Values for parameters without a default, so that decode can match.
PARAMETER_VALUES = {"uuid": "8f2a3b10-5c7d-4e9f-a1b2-c3d4e5f60718", "integer": "4660", "string": "x", "hex": "00"}
failures = []


def run(args, **kw):
    return subprocess.run(args, capture_output=True, text=True, **kw)


def fail(layout, message):
    failures.append(f"{layout}: {message}")
    print(f"FAIL {layout}: {message}", file=sys.stderr)


def walk(value, out):
    """Field name → JSON object of every field in the layout (bits and switch arms included)."""
    if isinstance(value, dict):
        if "name" in value:
            out.setdefault(value["name"], value)
        for key in ("fields", "bits"):
            if key in value:
                walk(value[key], out)
        for arm in (value.get("cases") or {}).values():
            walk(arm, out)
    elif isinstance(value, list):
        for item in value:
            walk(item, out)
    return out


def parameters(doc):
    params = []
    for name, spec in (doc.get("parameters") or {}).items():
        if "default" not in spec:
            params += ["--param", f"{name}={PARAMETER_VALUES[spec['type']]}"]
    return params


def resolved(doc, value):
    if isinstance(value, str) and value.startswith("$"):
        spec = doc["parameters"][value[1:]]
        return str(spec.get("default", PARAMETER_VALUES[spec["type"]]))
    return value


def first(value):
    return value[0] if isinstance(value, list) else value


def scenario(doc, path):
    """A capture that carries every vector once: advertising or a connection, as the layout matches."""
    match = doc["match"]
    payload = {"layout": os.path.abspath(path), "vectors": True}
    count = len(run([BLUETAPE, "layout", "vectors", path]).stdout.splitlines())
    device = {"name": "layout", "address": "C2:00:00:00:00:01", "address_type": "random"}
    if "company" in match or "service_data" in match:
        if "company" in match:
            company = resolved(doc, first(match["company"]))
            data = dict(payload, type="manufacturer", company=str(company))
        else:
            data = dict(payload, type="service_data", uuid=resolved(doc, first(match["service_data"])))
        device["advertising"] = {"pdu": "adv_nonconn_ind", "interval_ms": 100, "jitter_ms": 0, "end_s": count * 0.1 - 0.05,
                                 "data": [data]}
        duration = count * 0.1 + 1
    else:
        uuid = resolved(doc, first(match["characteristic"]))
        operation = first(match.get("operation", "notify"))
        prop = {"notify": "notify", "indicate": "indicate", "read": "read", "write": "write"}[operation]
        device["gatt"] = [{"service": "8f2a0000-5c7d-4e9f-a1b2-c3d4e5f60718",
                           "characteristics": [{"uuid": uuid, "properties": [prop]}]}]
        action = dict(payload, at_s=1, every_ms=100, count=count)
        action[operation] = uuid
        if operation == "write":
            action["with_response"] = True
        connection = {"at_s": 1, "duration_s": count * 0.1 + 3, "interval_ms": 30, "mtu": 247, "discover": True,
                      "actions": [action]}
        if operation in ("notify", "indicate"):
            connection["subscribe"] = [uuid]
        device["connections"] = [connection]
        duration = count * 0.1 + 6
    return {"name": "layout vectors", "seed": 1, "start": "2025-01-01T00:00:00Z", "duration_s": duration,
            "controller": {"extended_reports": True}, "devices": [device]}


def expected_text(value, spec):
    """What tshark -T fields prints for a value Bluetape decoded."""
    if value is None:
        return ""
    if isinstance(value, list):
        return ",".join(str(expected_text(v, spec)) for v in value)
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, str) and spec is not None and "enum" in spec and "label" not in spec:
        names = {name: key for key, name in spec["enum"].items()}
        if value in names:
            return str(int(names[value], 0))
    return value


def same(text, value):
    if isinstance(value, str):
        return text == value
    try:
        number = float(text)
    except ValueError:
        return False
    return number == value or ("%.15g" % value) == text


def check_wireshark(path, doc, lua, params):
    layout_id = doc["id"]
    abbrev = layout_id.replace(".", "_")
    base = os.path.join(WORK, os.path.basename(path))
    with open(base + ".scenario.json", "w") as f:
        json.dump(scenario(doc, path), f)
    r = run([BLUETAPE, "synth", base + ".scenario.json", "-o", base + ".btsnoop"])
    if r.returncode != 0:
        return fail(path, "synth: " + r.stderr.strip())
    r = run([BLUETAPE, "decode", "--format", "jsonl", "--all-repeats", "--layout", path, "--decoder", layout_id]
            + params + [base + ".btsnoop"])
    readings = [json.loads(line) for line in r.stdout.splitlines()]
    if not readings:
        return fail(path, "bluetape decoded nothing from the synthesized capture: " + r.stderr.strip())
    names = []
    for reading in readings:
        for name in reading.get("fields", {}):
            if name not in names:
                names.append(name)
    prefs = []
    for name, spec in (doc.get("parameters") or {}).items():
        if "default" not in spec:
            prefs += ["-o", f"{abbrev}.{name}:{PARAMETER_VALUES[spec['type']]}"]
    columns = ["frame.number", "_ws.expert"] + [f"{abbrev}.{n}" for n in names]
    args = ["tshark", "-r", base + ".btsnoop", "-X", "lua_script:" + lua, "-T", "fields", "-E", "occurrence=a",
            "-E", "aggregator=,", "-E", "separator=/t", "-Y", abbrev] + prefs
    for c in columns:
        args += ["-e", c]
    r = run(args)
    if r.returncode != 0:
        return fail(path, "tshark: " + r.stderr.strip()[-400:])
    rows = {}
    for line in r.stdout.splitlines():
        cells = line.split("\t")
        rows[int(cells[0])] = cells
    specs = walk(doc, {})
    packets = fields = equal = 0
    for reading in readings:
        packets += 1
        row = rows.get(reading["frame"])
        if row is None:
            fail(path, f"frame {reading['frame']}: Wireshark did not run the dissector")
            continue
        if "error" in reading:
            fields += 1
            if row[1]:
                equal += 1
            else:
                fail(path, f"frame {reading['frame']}: Bluetape: {reading['error']}, Wireshark: no expert info")
            continue
        if row[1]:
            fail(path, f"frame {reading['frame']}: Wireshark reports {row[1]}")
        for index, name in enumerate(names):
            text = row[2 + index] if 2 + index < len(row) else ""
            value = reading["fields"].get(name, None)
            if name not in reading["fields"]:
                fields += 1
                if text == "":
                    equal += 1
                else:
                    fail(path, f"frame {reading['frame']} {name}: Bluetape has no value, Wireshark {text!r}")
                continue
            fields += 1
            expect = expected_text(value, specs.get(name))
            if isinstance(value, list):
                ok = text == expect or (len(value) == len(text.split(",")) and all(
                    same(t, v if not isinstance(v, (str, bool)) else expected_text(v, specs.get(name)))
                    for t, v in zip(text.split(","), value)))
            elif isinstance(value, (int, float)) and not isinstance(value, bool):
                ok = same(text, value)
            else:
                ok = text == expect
            if ok:
                equal += 1
            else:
                fail(path, f"frame {reading['frame']} {name}: Bluetape {value!r}, Wireshark {text!r}")
    print(f"wireshark  {path}: {packets} packets, {fields} fields, {equal} equal to Bluetape's")


def check_c(path, header, params):
    base = os.path.join(WORK, os.path.basename(path))
    r = run([BLUETAPE, "layout", "export", "--c-test", path, "-o", base + ".harness.c"] + params)
    if r.returncode != 0:
        return fail(path, "export --c-test: " + r.stderr.strip())
    cc = shutil.which("cc") or shutil.which("gcc") or shutil.which("clang")
    if cc is None:
        print(f"SKIP c {path}: no C compiler (cc) on this machine", file=sys.stderr)
        return
    exe = base + ".harness"
    flags = ["-std=c99", "-Wall", "-Wextra", "-Wconversion", "-Werror", "-fsanitize=address,undefined",
             "-fno-sanitize-recover=all", f"-DBLUETAPE_HEADER=\"{header}\""]
    r = run([cc] + flags + ["-o", exe, base + ".harness.c", "-lm"])
    if r.returncode != 0:
        return fail(path, "cc: " + (r.stderr.strip() or r.stdout.strip())[-1500:])
    r = run([exe])
    print(f"c          {path}: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else '(no output)'}")
    if r.returncode != 0:
        fail(path, "C harness: " + (r.stdout + r.stderr).strip()[-1500:])


def check_markdown(path, markdown, params):
    examples = 0
    lines = markdown.splitlines()
    for i, line in enumerate(lines):
        if line == "```json":
            example = json.loads(lines[i + 1])
            r = run([BLUETAPE, "layout", "decode", path, example["hex"]] + params)
            examples += 1
            if r.returncode != 0 or json.loads(r.stdout) != example["decoded"]:
                fail(path, f"markdown example {example['hex']} decodes to {r.stdout.strip()}, the page says {example['decoded']}")
    if examples != 2:
        fail(path, f"markdown has {examples} worked examples, not 2")
    print(f"markdown   {path}: {examples} worked examples decode as the page says")


tshark = shutil.which("tshark")
if tshark is None:
    print("SKIP wireshark: tshark is not installed and could not be installed", file=sys.stderr)
os.makedirs(WORK, exist_ok=True)
for path in LAYOUTS:
    with open(path) as f:
        doc = json.load(f)
    params = parameters(doc)
    r = run([BLUETAPE, "layout", "lint", path])
    if r.returncode != 0:
        fail(path, "lint: " + r.stdout.strip())
    base = os.path.join(WORK, os.path.basename(path))
    outputs = {}
    for kind, suffix in (("--wireshark", ".lua"), ("--c", ".h"), ("--markdown", ".md")):
        r = run([BLUETAPE, "layout", "export", kind, path, "-o", base + suffix] + params)
        if r.returncode != 0:
            fail(path, f"export {kind}: {r.stderr.strip()}")
        outputs[kind] = base + suffix
    if tshark:
        check_wireshark(path, doc, outputs["--wireshark"], params)
    check_c(path, outputs["--c"], params)
    with open(outputs["--markdown"]) as f:
        check_markdown(path, f.read(), params)

if failures:
    print(f"{len(failures)} export checks failed", file=sys.stderr)
    sys.exit(1)
print("layout exports: every check passed")
