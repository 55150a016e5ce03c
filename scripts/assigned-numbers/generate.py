"""Generates the assigned-number name tables of BluetoothPackets from data files.

Inputs:
  DATA/company_ids.json, service_uuids.json, characteristic_uuids.json, descriptor_uuids.json,
  gap_appearance.json     NordicSemiconductor/bluetooth-numbers-database (v1), as kept in
                          ../shared/assigned-numbers; its README names the commit.
  bluetooth_numbers       the PyPI package: the member-range 16-bit service UUIDs (0xFC00-0xFEFF).
  ad-types.tsv, gatt-declarations.tsv
                          small files kept by hand beside this script (the AD types of Assigned
                          Numbers §2.3, and the four GATT declaration UUIDs).

Each table is written as string literals of "code name" lines, sorted by code, in files of at most
500 entries; the Swift side indexes them once, at the first lookup, and looks names up by binary
search. String literals cost the type checker nothing, where a dictionary or tuple-array literal of
4,000 entries takes it minutes.

usage: generate.py [--data DIR] [--out DIR] [--check]
"""
import argparse
import difflib
import importlib.metadata
import json
import os
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
DEFAULT_DATA = os.path.join(os.path.dirname(ROOT), "shared", "assigned-numbers")
DEFAULT_OUT = os.path.join(ROOT, "Sources", "BluetoothPackets", "AssignedNumbers")
MEMBER_RANGE = range(0xFC00, 0xFF00)


def load_json(data, name):
    with open(os.path.join(data, name), encoding="utf-8") as f:
        return json.load(f)


def load_tsv(name):
    rows = []
    with open(os.path.join(HERE, name), encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if not line or line.startswith("#"):
                continue
            code, text = line.split("\t", 1)
            rows.append((int(code, 16), text.strip()))
    return rows


def database_source(data):
    """What the data files are and at which commit, from their README."""
    with open(os.path.join(data, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    commit = re.search(r"\b([0-9a-f]{40})\b", readme)
    date = re.search(r"\((\d{4}-\d{2}-\d{2})\)", readme)
    if not commit:
        sys.exit(f"error: {data}/README.md names no commit of the numbers database")
    when = f", {date.group(1)}" if date else ""
    return f"NordicSemiconductor/bluetooth-numbers-database v1 at commit {commit.group(1)}{when} (BSD-3-Clause)"


def member_services():
    """The member-range 16-bit service UUIDs of the bluetooth-numbers package, and its version.

    bluetooth-numbers 1.1.2 writes most member UUIDs with their decimal digits behind "0x"
    (Tile's 0xFEED, decimal 65261, is the key 0x65261): a key above 0xFFFF is read back that way.
    """
    try:
        from bluetooth_numbers import service
    except ImportError:
        sys.exit("error: the Python package bluetooth-numbers is not installed (scripts/gen-assigned-numbers installs it)")
    version = importlib.metadata.version("bluetooth-numbers")
    found = {}
    for key, name in service.items():
        if not isinstance(key, int):
            continue
        code = key
        if key > 0xFFFF:
            digits = format(key, "x")
            if not digits.isdigit():
                continue
            code = int(digits)
        if code in MEMBER_RANGE:
            if code in found and found[code] != name:
                continue  # listed twice (once under a misread key): the first is the service's own name
            found[code] = name.strip()
    return found, version


def collect(data):
    companies = {}
    for entry in load_json(data, "company_ids.json"):
        companies[int(entry["code"])] = entry["name"].strip()

    uuid16 = {}
    uuid128 = {}
    conflicts = []

    def add16(code, name, origin):
        if code in uuid16 and uuid16[code][0] != name:
            conflicts.append(f"0x{code:04x}: {uuid16[code][1]} {uuid16[code][0]!r} kept over {origin} {name!r}")
            return
        uuid16.setdefault(code, (name, origin))

    for code, name in load_tsv("gatt-declarations.tsv"):
        add16(code, name, "gatt-declarations.tsv")
    for file in ("service_uuids.json", "characteristic_uuids.json", "descriptor_uuids.json"):
        for entry in load_json(data, file):
            text = entry["uuid"].strip()
            name = entry["name"].strip()
            if len(text) == 4:
                add16(int(text, 16), name, file)
            elif len(text) == 36:
                value = int(text.replace("-", ""), 16)
                if value in uuid128 and uuid128[value] != name:
                    conflicts.append(f"{text}: {uuid128[value]!r} kept over {file} {name!r}")
                    continue
                uuid128.setdefault(value, name)
    members, version = member_services()
    for code, name in sorted(members.items()):
        add16(code, name, "bluetooth-numbers")

    appearance = {}
    for category in load_json(data, "gap_appearance.json"):
        base = int(category["category"]) << 6
        appearance[base] = category["name"].strip()
        for sub in category.get("subcategory", []):
            appearance[base | int(sub["value"])] = sub["name"].strip()

    ad_types = dict(load_tsv("ad-types.tsv"))
    return companies, {k: v[0] for k, v in uuid16.items()}, uuid128, appearance, ad_types, version, conflicts


CHUNK = 500  # entries per generated file: every Swift file stays under 600 lines


def swift_lines(entries, indent):
    """The entries, one "code name" line each, as the lines of a multi-line string literal."""
    pad = " " * indent
    lines = []
    for code, name in entries:
        if "\n" in name or '"""' in name or name != name.strip():
            sys.exit(f"error: a name cannot go into the table: {name!r}")
        lines.append(pad + code + " " + name.replace("\\", "\\\\"))
    return "\n".join(lines)


def header(sources, what):
    lines = ["// Generated by scripts/gen-assigned-numbers: do not edit; change the data and run it again.", "//"]
    lines += [f"// {line}" for line in sources]
    lines += ["//", f"// {what}", ""]
    return "\n".join(lines)


def chunk_files(files, stem, table, doc, entries, sources, what, digits):
    """Writes a table's entries, sorted by code, into files of at most CHUNK entries each, and the
    table that joins them. Returns the Swift declaration of the table."""
    rows = [(format(code, f"0{digits}X"), name) for code, name in sorted(entries.items())]
    parts = []
    for index in range(0, max(len(rows), 1), CHUNK):
        number = index // CHUNK + 1
        part = f"{table}Part{number}"
        parts.append(part)
        files[f"{stem}{number}.swift" if len(rows) > CHUNK else f"{stem}.swift"] = header(
            sources, f"{what} (entries {index + 1}–{min(index + CHUNK, len(rows))} of {len(rows):,}): code, then name."
        ) + (
            "extension AssignedNumberTables {\n"
            f'    static let {part}: StaticString = """\n{swift_lines(rows[index:index + CHUNK], 8)}\n        """\n'
            "}\n"
        )
    kind = "NameTable16" if digits <= 4 else "NameTable128"
    joined = ",\n".join(f"            {part}" for part in parts)
    return f"    /// {doc}\n    static let {table} = {kind}(\n        chunks: [\n{joined},\n        ])\n"


def generate(data, out, verbose=False):
    companies, uuid16, uuid128, appearance, ad_types, version, conflicts = collect(data)
    database = database_source(data)
    files = {}
    in_shared = "as kept in ../shared/assigned-numbers."
    tables = []
    tables.append(chunk_files(
        files, "GeneratedCompanies", "companies", "Company identifiers (Assigned Numbers §7).", companies,
        [f"Source: company_ids.json of {database},", in_shared], "Company identifiers", 4))
    tables.append(chunk_files(
        files, "GeneratedUUIDs", "uuids16", "16-bit UUIDs built on the Bluetooth base UUID.", uuid16,
        [f"Sources: service_uuids.json, characteristic_uuids.json and descriptor_uuids.json of {database},",
         "as kept in ../shared/assigned-numbers; the member-range 16-bit service UUIDs (0xFC00-0xFEFF) of the",
         f"PyPI package bluetooth-numbers {version} (MIT); scripts/assigned-numbers/gatt-declarations.tsv."],
        "16-bit UUIDs: services, characteristics, descriptors, declarations and member services", 4))
    tables.append(chunk_files(
        files, "GeneratedVendorUUIDs", "uuids128", "128-bit UUIDs of vendor services and characteristics.", uuid128,
        [f"Sources: service_uuids.json and characteristic_uuids.json of {database},", in_shared],
        "128-bit UUIDs of vendor services and characteristics", 32))
    tables.append(chunk_files(
        files, "GeneratedAppearances", "appearances",
        "Appearance values (Assigned Numbers §2.6): category << 6 | subcategory.", appearance,
        [f"Source: gap_appearance.json of {database},", in_shared],
        "Appearance values, category << 6 | subcategory (a category's own entry has subcategory 0)", 4))
    tables.append(chunk_files(
        files, "GeneratedADTypes", "adTypes", "AD (and EIR) data types (Assigned Numbers §2.3).", ad_types,
        ["Source: scripts/assigned-numbers/ad-types.tsv, kept by hand from the Assigned Numbers document,",
         "§2.3 Common Data Types."], "AD types", 2))
    files["GeneratedTables.swift"] = header(
        ["The tables the Generated*.swift files hold, each joined from its parts."], "Looked up in NameTables.swift."
    ) + "extension AssignedNumberTables {\n" + "\n".join(tables) + "}\n"

    if verbose:
        for note in conflicts:
            print(f"note: {note}", file=sys.stderr)
    os.makedirs(out, exist_ok=True)
    for old in os.listdir(out):
        if old.startswith("Generated") and old.endswith(".swift") and old not in files:
            os.remove(os.path.join(out, old))
    for name, text in files.items():
        with open(os.path.join(out, name), "w", encoding="utf-8") as f:
            f.write(text)
    return sorted(files)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--data", default=DEFAULT_DATA)
    parser.add_argument("--out", default=DEFAULT_OUT)
    parser.add_argument("--check", action="store_true",
                        help="regenerate into a temporary folder and fail when the committed files differ")
    args = parser.parse_args()
    if not os.path.isdir(args.data):
        sys.exit(f"error: no assigned-numbers data at {args.data}")
    if not args.check:
        for name in generate(args.data, args.out, verbose=True):
            print(os.path.relpath(os.path.join(args.out, name), ROOT))
        return
    with tempfile.TemporaryDirectory() as scratch:
        stale = []
        fresh_names = generate(args.data, scratch)
        for name in sorted(set(os.listdir(args.out)) - set(fresh_names)):
            if name.startswith("Generated") and name.endswith(".swift"):
                stale.append(name)
                print(f"{name}: not generated any more")
        for name in fresh_names:
            with open(os.path.join(scratch, name), encoding="utf-8") as f:
                fresh = f.read().splitlines(keepends=True)
            try:
                with open(os.path.join(args.out, name), encoding="utf-8") as f:
                    committed = f.read().splitlines(keepends=True)
            except FileNotFoundError:
                committed = []
            if fresh != committed:
                stale.append(name)
                sys.stdout.writelines(difflib.unified_diff(committed, fresh, name, name + " (regenerated)", n=1))
        if stale:
            sys.exit(f"error: {', '.join(stale)} differ from what the data gives: run scripts/gen-assigned-numbers")
        print("assigned-number tables are up to date with their data")


if __name__ == "__main__":
    main()
