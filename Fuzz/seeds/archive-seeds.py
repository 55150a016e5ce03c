#!/usr/bin/env python3
"""Seeds for the archive fuzz targets (gzip, zip, tar, snooz), made around small captures.

usage: archive-seeds.py TARGET OUT_DIR CAPTURES_DIR [SHARED_CAPTURES_DIR]

Only small captures are used (the targets cut inputs at 32 KiB). Every seed is written as the
target reads it: zip and tar seeds are whole archives, snooz seeds start with the target's mode byte.
"""
import base64
import gzip
import io
import os
import struct
import sys
import tarfile
import zipfile
import zlib

LIMIT = 24 * 1024


def small_captures(captures, shared):
    files = []
    for directory in (captures, shared):
        if directory and os.path.isdir(directory):
            for name in sorted(os.listdir(directory)):
                path = os.path.join(directory, name)
                if os.path.isfile(path) and not name.endswith((".md", ".json", ".jsonl", ".zip")):
                    if os.path.getsize(path) <= LIMIT:
                        files.append(path)
    return files


def btsnoop_records(data):
    """(flags, timestamp, packet) of each record of a btsnoop 1002 file."""
    if data[:8] != b"btsnoop\0" or struct.unpack(">I", data[12:16])[0] != 1002:
        return []
    records, offset = [], 16
    while offset + 24 <= len(data):
        _, included, flags, _, ts = struct.unpack(">IIIIq", data[offset:offset + 24])
        packet = data[offset + 24:offset + 24 + included]
        if len(packet) < included:
            break
        records.append((flags, ts, packet))
        offset += 24 + included
    return records


def snooz_records(records, version=2):
    """btsnooz records as Android's writer keeps them: ACL cut to 8 or 14 bytes."""
    out = bytearray()
    previous = None
    for flags, ts, packet in records:
        if not packet:
            continue
        h4, body = packet[0], packet[1:]
        received = flags & 1
        kind = {1: 0x20, 4: 0x10, 2: 0x11 if received else 0x21, 3: 0x12 if received else 0x22}.get(h4)
        if kind is None:
            continue
        kept = body
        if h4 == 2 and len(body) > 8:
            kept = body[:14] if len(body) > 14 else body[:8]
        delta = 0 if previous is None else max(0, min(ts - previous, 0xFFFFFFFF))
        previous = ts
        if version == 2:
            out += struct.pack("<HHIB", len(kept) + 1, len(body) + 1, delta, kind) + kept
        else:
            out += struct.pack("<HIB", len(kept) + 1, delta, kind) + kept
    return bytes(out)


def summary_from_bug_report(shared):
    """The decoded bytes of the shared bug report's BTSNOOP_LOG_SUMMARY section, when it is there."""
    path = os.path.join(shared or "", "TMC_Partner__App__bugreport.zip")
    if not os.path.exists(path):
        return None
    with zipfile.ZipFile(path) as archive:
        for name in archive.namelist():
            if name.startswith("bugreport") and name.endswith(".txt"):
                text = archive.read(name)
                begin = text.find(b"--- BEGIN:BTSNOOP_LOG_SUMMARY")
                if begin < 0:
                    return None
                start = text.index(b"\n", begin) + 1
                end = text.index(b"--- END:BTSNOOP_LOG_SUMMARY", start)
                return base64.b64decode(b"".join(text[start:end].split()))
    return None


def write(out, name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)


def main():
    target, out, captures = sys.argv[1], sys.argv[2], sys.argv[3]
    shared = sys.argv[4] if len(sys.argv) > 4 else None
    files = small_captures(captures, shared)
    blobs = [(os.path.basename(p), open(p, "rb").read()) for p in files]
    if target == "gzip":
        for name, data in blobs:
            write(out, name + ".gz", gzip.compress(data, mtime=0))
        if len(blobs) >= 2:
            write(out, "two-members.gz", gzip.compress(blobs[0][1], mtime=0) + gzip.compress(blobs[1][1], mtime=0))
    elif target == "zip":
        snoops = [(n, d) for n, d in blobs if d[:8] == b"btsnoop\0"][:4]
        for index, (name, data) in enumerate(snoops):
            for method, label in ((zipfile.ZIP_DEFLATED, "deflate"), (zipfile.ZIP_STORED, "stored")):
                buffer = io.BytesIO()
                with zipfile.ZipFile(buffer, "w", method) as z:
                    z.writestr("version.txt", "2.0")
                    z.writestr("FS/data/misc/bluetooth/logs/btsnoop_hci.log", data)
                    if index + 1 < len(snoops):
                        z.writestr("FS/data/misc/bluetooth/logs/btsnoop_hci.log.last", snoops[index + 1][1])
                write(out, f"bugreport-{index}-{label}.zip", buffer.getvalue())
        for name, data in blobs[:6]:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr(name if "." in name else name + ".btsnoop", data)
            write(out, f"one-{name}.zip", buffer.getvalue())
            inner = buffer.getvalue()
            nested = io.BytesIO()
            with zipfile.ZipFile(nested, "w", zipfile.ZIP_STORED) as z:
                z.writestr("dumpstate/bugreport-inner.zip", inner)
            write(out, f"nested-{name}.zip", nested.getvalue())
        summary = summary_from_bug_report(shared)
        if summary:
            text = (b"== dumpstate: 2023-08-23\n--- BEGIN:BTSNOOP_LOG_SUMMARY (11586 bytes in) ---\n"
                    + base64.encodebytes(summary) + b"--- END:BTSNOOP_LOG_SUMMARY ---\n")
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as z:
                z.writestr("bugreport-phone-build-2023-08-23.txt", text)
                z.writestr("main_entry.txt", "bugreport-phone-build-2023-08-23.txt")
            write(out, "bugreport-summary.zip", buffer.getvalue())
        if blobs:
            buffer = io.BytesIO()
            with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, allowZip64=True) as z:
                with z.open("FS/data/misc/bluetooth/logs/btsnoop_hci.log", "w", force_zip64=True) as member:
                    member.write(snoops[0][1] if snoops else blobs[0][1])
            write(out, "zip64.zip", buffer.getvalue())
    elif target == "tar":
        pklgs = [(n, d) for n, d in blobs if n.endswith(".pklg")] or blobs[:2]
        for fmt, label in ((tarfile.USTAR_FORMAT, "ustar"), (tarfile.GNU_FORMAT, "gnu"), (tarfile.PAX_FORMAT, "pax")):
            for index, (name, data) in enumerate(pklgs[:3]):
                buffer = io.BytesIO()
                with tarfile.open(fileobj=buffer, mode="w", format=fmt) as t:
                    prefix = "sysdiagnose_2026.07.30_12-13-58+0200_iPhone-OS_iPhone_23F77/" + (
                        "a-rather-long-directory-name-to-need-a-long-name/" * (2 if label != "ustar" else 1))
                    for member, payload in ((prefix + "logs/Bluetooth/bluetoothd-hci-latest.pklg", data),
                                            (prefix + "logs/Bluetooth/bluetoothd-hci-2026-07-24.pklg", pklgs[0][1])):
                        info = tarfile.TarInfo(member)
                        info.size = len(payload)
                        t.addfile(info, io.BytesIO(payload))
                write(out, f"sysdiagnose-{label}-{index}.tar", buffer.getvalue())
    elif target == "snooz":
        sources = []
        summary = summary_from_bug_report(shared)
        if summary:
            sources.append(("bugreport", summary[0], summary[1:9], zlib.decompress(summary[9:])))
            write(out, "bugreport-raw", b"\x01" + summary)
        for name, data in blobs:
            last = struct.pack("<Q", 1_692_784_955_682_300)
            for version in (1, 2):
                records = snooz_records(btsnoop_records(data), version)
                if records:
                    sources.append((name, version, last, records))
        for name, version, last, records in sources:
            write(out, f"{name}-v{version}", b"\x00" + bytes([version]) + last + records[:LIMIT])
            if version == 2:
                write(out, f"{name}-file", b"\x02" + records[:LIMIT])
            write(out, f"{name}-big-endian", b"\x00" + bytes([version]) + last[::-1] + records[:LIMIT])
    else:
        sys.exit(f"no seeds for {target}")


if __name__ == "__main__":
    main()
