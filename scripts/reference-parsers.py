#!/usr/bin/env python3
"""Differential tests of Bluetape's BTHome, Eddystone and iBeacon decoders against the reference
parsers on PyPI: bthome-ble (BTHome v2, the parser Home Assistant uses) and beacontools
(Eddystone UID/URL/TLM/EID, iBeacon).

Generates payloads from a seed (for BTHome: every object id in bthome-ble's own table, plain and
encrypted with AES-CCM from `cryptography`, bthome-ble's dependency), writes them into one btsnoop
capture as LE Extended Advertising Reports from their devices' addresses, decodes that with
`bluetape decode --bindkey …`, parses each payload with the reference parser, and compares them
field by field. Prints what was compared and how much agreed; exits 1 on any disagreement.

Where the reference reads the bytes differently from the format's documents, Bluetape follows the
bytes, and the comparison says so where it converts (see `compare_tlm`).

usage: reference-parsers.py BLUETAPE [--seed N] [--bthome N] [--beacons N] [--keep DIR]
"""

import argparse
import json
import logging
import os
import random
import struct
import subprocess
import sys
import tempfile
from datetime import datetime
from decimal import Decimal
from importlib.metadata import version

import beacontools
from bthome_ble.const import MEAS_TYPES
from bthome_ble.event import BUTTON_EVENTS, COMMAND_EVENTS, DIMMER_EVENTS, EventDeviceKeys
from bthome_ble.parser import BTHomeBluetoothDeviceData
from cryptography.hazmat.primitives.ciphers.aead import AESCCM
from habluetooth import BluetoothServiceInfoBleak
from sensor_state_data.description import BaseBinarySensorDescription

BTHOME_UUID = "0000fcd2-0000-1000-8000-00805f9b34fb"
EPOCH = 1_748_800_000  # the capture's first second (Unix time)


# MARK: - The capture


def extended_report(address, data, rssi=-60):
    """An HCI LE Extended Advertising Report event (Core v5.4, Vol 4, Part E, §7.7.65.13) with one
    report: extended non-connectable advertising, complete, from a random static address."""
    report = struct.pack("<BH", 1, 0x0000) + bytes([1]) + address_bytes(address)
    report += bytes([1, 1, 0xFF, 0x7F, rssi & 0xFF]) + struct.pack("<H", 0) + bytes([0]) + bytes(6)
    report += bytes([len(data)]) + data
    parameters = bytes([0x0D]) + report
    return bytes([0x04, 0x3E, len(parameters)]) + parameters


def address_bytes(address):
    return bytes.fromhex(address.replace(":", ""))[::-1]


def write_btsnoop(path, packets):
    """btsnoop version 1, datalink 1002 (H4); each packet received, 100 ms apart."""
    with open(path, "wb") as out:
        out.write(b"btsnoop\0" + struct.pack(">II", 1, 1002))
        for index, packet in enumerate(packets):
            micros = (EPOCH * 1_000_000 + index * 100_000) + 0x00DCDDB30F2F8000
            out.write(struct.pack(">IIIIq", len(packet), len(packet), 3, 0, micros) + packet)


def ad_structure(ad_type, data):
    return bytes([len(data) + 1, ad_type]) + data


def random_address(rng):
    first = 0xC0 | rng.randrange(0x40)  # random static
    return ":".join(f"{b:02X}" for b in [first] + [rng.randrange(256) for _ in range(5)])


# MARK: - BTHome payloads


def reference_key(object_id):
    """Where bthome-ble puts an object's value: (kind, key)."""
    meas = MEAS_TYPES[object_id]
    description = meas.meas_format
    if description is None:
        return ("device", "sw_version" if meas.data_format.startswith("firmware") else "device_type_id")
    if isinstance(description, EventDeviceKeys):
        return ("event", str(description))
    if isinstance(description, BaseBinarySensorDescription):
        return ("binary", str(description.device_class))
    return ("sensor", str(description.device_class))


TEXT_PIECES = ["a", "b", "Z", "7", " ", "-", "é", "°C", "µ", "ok"]


def object_bytes(object_id, rng):
    """One object (id byte included) with a random value; edge values now and then."""
    meas = MEAS_TYPES[object_id]
    kind = meas.data_format
    if kind in ("string", "raw"):
        if kind == "string":
            body = "".join(rng.choice(TEXT_PIECES) for _ in range(rng.randint(1, 6))).encode()
        else:
            body = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
        return bytes([object_id, len(body)]) + body
    if kind == "command":
        arguments = bytes(rng.randrange(256) for _ in range(rng.choice([0, 0, 1, 1, 2, 5])))
        return bytes([object_id, len(arguments), rng.choice([0, 1, 2, 3, 4, 4, 3, 5, 0x80])]) + arguments
    size = meas.data_length
    description = meas.meas_format
    if isinstance(description, BaseBinarySensorDescription):
        return bytes([object_id, rng.choice([0, 1, 1, 0, 2, 0xFF])])
    if description == EventDeviceKeys.BUTTON:
        return bytes([object_id, rng.choice(list(BUTTON_EVENTS) + [0x07, 0x7F, 0x82])])
    if description == EventDeviceKeys.DIMMER:
        return bytes([object_id, rng.choice([0, 1, 2, 1, 2, 3]), rng.randrange(256)])
    edge = rng.random()
    if edge < 0.1:
        value = bytes(size)
    elif edge < 0.2:
        value = b"\xff" * size
    elif edge < 0.3:
        value = b"\xff" * (size - 1) + b"\x7f"  # the largest signed value
    elif edge < 0.4:
        value = bytes(size - 1) + b"\x80"  # the smallest signed value
    else:
        value = bytes(rng.randrange(256) for _ in range(size))
    return bytes([object_id]) + value


def bthome_objects(rng, ids, count):
    """Up to `count` objects whose reference keys all differ, so each value has one place on
    either side (bthome-ble numbers repeated objects of one description and overwrites objects
    of different descriptions that share a key)."""
    objects, keys = [], set()
    for object_id in rng.sample(ids, len(ids)):
        key = reference_key(object_id)
        if key in keys:
            continue
        keys.add(key)
        objects.append((object_id, object_bytes(object_id, rng)))
        if len(objects) == count:
            break
    return objects


def encrypt(objects_plaintext, address, key, info, counter):
    nonce = address_bytes(address)[::-1] + b"\xd2\xfc" + bytes([info]) + struct.pack("<I", counter)
    sealed = AESCCM(key, tag_length=4).encrypt(nonce, objects_plaintext, None)
    return bytes([info]) + sealed[:-4] + struct.pack("<I", counter) + sealed[-4:]


def reference_bthome(payload, address, key, device=None, time=0.0):
    """bthome-ble's reading of one payload: values by (kind, key)."""
    device = device or BTHomeBluetoothDeviceData(bindkey=key)
    info = BluetoothServiceInfoBleak(
        name="BTHome test", address=address, rssi=-60, manufacturer_data={},
        service_data={BTHOME_UUID: payload}, service_uuids=[BTHOME_UUID], source="", device=None,
        advertisement=None, connectable=False, time=EPOCH + time, tx_power=None)
    update = device.update(info)
    values = {}
    for device_key, value in update.entity_values.items():
        if device_key.key != "signal_strength":
            values[("sensor", device_key.key)] = value.native_value
    for device_key, value in update.binary_entity_values.items():
        values[("binary", device_key.key)] = value.native_value
    for device_key, event in update.events.items():
        values[("event", device_key.key)] = (event.event_type, event.event_properties)
    software = update.devices[None].sw_version
    if software and not software.startswith("BTHome BLE"):
        values[("device", "sw_version")] = software
    if device.device_type_id is not None:
        values[("device", "device_type_id")] = device.device_type_id
    return values


def decimals_of(factor):
    """The places bthome-ble rounds a factor's products to (its `parse_uint`)."""
    return -int(f"{factor:e}".split("e")[-1])


def compare_object(object_id, raw, ours, names, theirs):
    """Problems with one object: Bluetape's value against the bytes' exact value and against
    bthome-ble's within its rounding."""
    meas = MEAS_TYPES[object_id]
    kind, key = reference_key(object_id)
    body = raw[1:]
    problems = []

    def value(index=0):
        name = names[index]
        if name not in ours:
            problems.append(f"0x{object_id:02x}: Bluetape has no {name}")
        return ours.get(name)

    if kind == "device":
        expected = theirs.get((kind, key))
        mine = value()
        if key == "device_type_id" and mine != expected:
            problems.append(f"0x{object_id:02x} device type: Bluetape {mine}, bthome-ble {expected}")
        if key == "sw_version" and mine != expected:
            problems.append(f"0x{object_id:02x} firmware: Bluetape {mine!r}, bthome-ble {expected!r}")
        return problems
    if kind == "event":
        table = {"button": BUTTON_EVENTS, "dimmer": DIMMER_EVENTS, "command": COMMAND_EVENTS}[key]
        code = body[1] if key == "command" else body[0]
        named = table.get(code)
        mine = value()
        if named is None:
            # bthome-ble fires no event for "none" and for codes it does not know.
            if (kind, key) in theirs:
                problems.append(f"0x{object_id:02x}: bthome-ble fired {theirs[(kind, key)]} for code {code}")
            if mine != "none" and mine != f"reserved_{code}":
                problems.append(f"0x{object_id:02x}: Bluetape says {mine!r} for code {code}")
            return problems
        their_type, properties = theirs.get((kind, key), (None, None))
        if mine != their_type:
            problems.append(f"0x{object_id:02x}: Bluetape {mine!r}, bthome-ble {their_type!r}")
        if key == "dimmer" and value(1) != (properties or {}).get("steps"):
            problems.append(f"0x{object_id:02x} steps: Bluetape {value(1)}, bthome-ble {properties}")
        if key == "command" and value(1) != (properties or {}).get("args"):
            problems.append(f"0x{object_id:02x} args: Bluetape {value(1)!r}, bthome-ble {properties}")
        return problems
    mine = value()
    expected = theirs.get((kind, key))
    if kind == "binary":
        if mine is not expected:
            problems.append(f"0x{object_id:02x}: Bluetape {mine}, bthome-ble {expected}")
        return problems
    if meas.data_format == "string":
        if mine != expected:
            problems.append(f"0x{object_id:02x} text: Bluetape {mine!r}, bthome-ble {expected!r}")
        return problems
    if meas.data_format == "raw":
        if mine != expected:
            problems.append(f"0x{object_id:02x} raw: Bluetape {mine!r}, bthome-ble {expected!r}")
        return problems
    if meas.data_format == "timestamp":
        seconds = int(expected.timestamp()) if isinstance(expected, datetime) else None
        if mine != seconds:
            problems.append(f"0x{object_id:02x} timestamp: Bluetape {mine}, bthome-ble {expected}")
        return problems
    signed = meas.data_format == "signed_integer"
    number = int.from_bytes(body[: meas.data_length], "little", signed=signed)
    exact = Decimal(number) * Decimal(repr(meas.factor))
    if not isinstance(mine, (int, float)) or float(mine) != float(exact):
        problems.append(f"0x{object_id:02x}: Bluetape {mine}, the bytes hold {exact}")
    elif not isinstance(expected, (int, float)):
        problems.append(f"0x{object_id:02x}: bthome-ble has no value ({expected!r})")
    elif meas.factor == 1:
        if mine != expected:
            problems.append(f"0x{object_id:02x}: Bluetape {mine}, bthome-ble {expected}")
    else:
        # bthome-ble rounds raw × factor to the factor's leading decimal place (0.35 → one).
        tolerance = Decimal(5) / Decimal(10) ** (decimals_of(meas.factor) + 1)
        if abs(exact - Decimal(repr(expected))) > tolerance:
            problems.append(f"0x{object_id:02x}: Bluetape {mine}, bthome-ble {expected} (±{tolerance})")
    return problems


# MARK: - Beacons


def beacon_cases(rng, count):
    """(decoder, AD structure, what it holds) for Eddystone UID/URL/TLM/eTLM/EID and iBeacon."""
    cases = []
    for index in range(count):
        kind = ["uid", "url", "tlm", "tlm", "etlm", "eid", "ibeacon", "ibeacon"][index % 8]
        tx = rng.randrange(-100, 21)
        if kind == "uid":
            frame = bytes([0x00, tx & 0xFF]) + rng.randbytes(16) + (b"\0\0" if rng.random() < 0.7 else b"")
        elif kind == "url":
            pieces = []
            for _ in range(rng.randint(1, 17)):
                pieces.append(rng.randrange(0x0E) if rng.random() < 0.25 else rng.randrange(0x21, 0x7F))
            frame = bytes([0x10, tx & 0xFF, rng.randrange(4)] + pieces)
        elif kind == "tlm":
            temperature = rng.choice([0x8000, 0x1780, 0xFF80, rng.randrange(0x10000)])
            battery = rng.choice([0, 3000, rng.randrange(0x10000)])
            frame = struct.pack(">BBHHII", 0x20, 0x00, battery, temperature, rng.randrange(2**32), rng.randrange(2**32))
        elif kind == "etlm":
            frame = bytes([0x20, 0x01]) + rng.randbytes(12) + rng.randbytes(4)
        elif kind == "eid":
            frame = bytes([0x30, tx & 0xFF]) + rng.randbytes(8)
        if kind == "ibeacon":
            body = b"\x4c\x00\x02\x15" + rng.randbytes(16) + rng.randbytes(4) + bytes([tx & 0xFF])
            cases.append(("ibeacon", kind, ad_structure(0xFF, body)))
        else:
            decoder = "eddystone." + ("tlm" if kind == "etlm" else kind)
            cases.append((decoder, kind, ad_structure(0x16, b"\xaa\xfe" + frame)))
    return cases


def compare_beacon(kind, ad, ours):
    """Problems with one beacon: Bluetape's fields against beacontools' frame."""
    frame = beacontools.parse_packet(ad)
    if frame is None:
        return [f"{kind}: beacontools cannot parse {ad.hex()}"]
    problems = []

    def same(name, mine, theirs):
        if mine != theirs:
            problems.append(f"{kind} {name}: Bluetape {mine!r}, beacontools {theirs!r}")

    if kind == "uid":
        same("tx power", ours.get("tx_power_dbm"), frame.tx_power)
        same("namespace", ours.get("namespace"), frame.namespace)
        same("instance", ours.get("instance"), frame.instance)
    elif kind == "url":
        same("tx power", ours.get("tx_power_dbm"), frame.tx_power)
        same("url", ours.get("url"), frame.url)
    elif kind == "tlm":
        compare_tlm(ad, ours, frame, same)
    elif kind == "etlm":
        same("encrypted data", ours.get("etlm"), frame.encrypted_data.hex())
        # Eddystone's fields are big-endian (eddystone-tlm/tlm-encrypted.md); beacontools reads
        # salt and MIC little-endian, so its numbers are the byte-swapped ones.
        same("salt", ours.get("salt"), swap16(frame.salt))
        same("mic", ours.get("mic"), swap16(frame.mic))
    elif kind == "eid":
        same("tx power", ours.get("tx_power_dbm"), frame.tx_power)
        same("ephemeral id", ours.get("ephemeral_id"), frame.eid.hex())
    elif kind == "ibeacon":
        same("uuid", ours.get("uuid"), frame.uuid)
        same("major", ours.get("major"), frame.major)
        same("minor", ours.get("minor"), frame.minor)
        same("measured power", ours.get("measured_power_dbm"), frame.tx_power)
    return problems


def compare_tlm(ad, ours, frame, same):
    """Plain TLM. The temperature is signed 8.8 fixed point and 0x8000 means "not supported"; a
    battery of 0 means the beacon has none (eddystone-tlm/tlm-plain.md). beacontools reads the
    temperature unsigned (so −0.5 °C is 255.5) and gives the uptime's raw 0.1 s count as seconds."""
    raw_temperature = struct.unpack(">H", ad[8:10])[0]
    if raw_temperature == 0x8000:
        same("temperature (not supported)", ours.get("temperature_c"), None)
    else:
        same("temperature", ours.get("temperature_c"), frame.temperature - (256 if frame.temperature >= 128 else 0))
    same("battery", ours.get("battery_mv"), frame.voltage or None)
    same("advertisement count", ours.get("adv_count"), frame.advertising_count)
    uptime = ours.get("uptime_s")
    same("uptime ×10", round(uptime * 10) if isinstance(uptime, (int, float)) else uptime, frame.seconds_since_boot)


def swap16(value):
    return ((value & 0xFF) << 8) | (value >> 8)


# MARK: - The run


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("bluetape")
    parser.add_argument("--seed", type=int, default=0xB7)
    parser.add_argument("--bthome", type=int, default=5000, help="random BTHome payloads (besides one per id)")
    parser.add_argument("--beacons", type=int, default=2000)
    parser.add_argument("--keep", help="keep the capture and Bluetape's readings in this directory")
    options = parser.parse_args()
    # bthome-ble warns about objects out of id order and logs the dropped replay; the summary says it.
    logging.getLogger("bthome_ble").setLevel(logging.CRITICAL)
    rng = random.Random(options.seed)
    ids = sorted(MEAS_TYPES)

    plain_devices = [random_address(rng) for _ in range(4)]
    keyed = {random_address(rng): rng.randbytes(16) for _ in range(5)}
    wrong = {random_address(rng): rng.randbytes(16) for _ in range(2)}  # Bluetape is given other keys
    keyless = [random_address(rng) for _ in range(2)]
    sequence_device = random_address(rng)
    keyed_and_sequence = dict(keyed)
    keyed_and_sequence[sequence_device] = rng.randbytes(16)
    given = dict(keyed_and_sequence)
    given.update({address: rng.randbytes(16) for address in wrong})
    # Each device's counter goes up, as the format asks; the sequence below breaks that on purpose.
    counters = {address: rng.randrange(2**31) for address in list(keyed) + list(wrong) + keyless}

    def next_counter(address):
        counters[address] += rng.randint(1, 1000)
        return counters[address]

    # What each record holds: ("bthome", address, payload, objects, how) or ("beacon", address, ad, decoder, kind).
    records = []
    for object_id in ids:  # one payload per id alone: tells which fields Bluetape gives each id
        raw = object_bytes(object_id, rng)
        records.append(("bthome", plain_devices[0], bytes([0x40]) + raw, [(object_id, raw)], "alone"))
    for index in range(options.bthome):
        objects = bthome_objects(rng, ids, rng.randint(1, 7))
        plaintext = b"".join(raw for _, raw in objects)
        info = 0x41 | (0x04 if rng.random() < 0.3 else 0)
        roll = rng.random()
        if roll < 0.2:
            address = rng.choice(list(keyed))
            payload = encrypt(plaintext, address, keyed[address], info, next_counter(address))
            records.append(("bthome", address, payload, objects, "encrypted"))
        elif roll < 0.23:
            address = rng.choice(list(wrong))
            payload = encrypt(plaintext, address, wrong[address], info, next_counter(address))
            records.append(("bthome", address, payload, objects, "wrong key"))
        elif roll < 0.26:
            address = rng.choice(keyless)
            payload = encrypt(plaintext, address, rng.randbytes(16), info, next_counter(address))
            records.append(("bthome", address, payload, objects, "no key"))
        else:
            records.append(("bthome", rng.choice(plain_devices), bytes([info & ~0x01]) + plaintext, objects, "plain"))
    # One device's counter over time: up, up, down (a replay of an older payload), up, a repeat.
    sequence = []
    for counter in [300, 301, 250, 302, 302]:
        objects = [(0x02, object_bytes(0x02, rng))]
        payload = encrypt(objects[0][1], sequence_device, keyed_and_sequence[sequence_device], 0x41, counter)
        if sequence and counter == sequence[-1][1]:
            payload, objects = sequence[-1][2], records[-1][3]
        sequence.append((len(records) + 1, counter, payload))
        records.append(("bthome", sequence_device, payload, objects, "sequence"))
    for decoder, kind, ad in beacon_cases(rng, options.beacons):
        records.append(("beacon", random_address(rng), ad, decoder, kind))

    packets = []
    for record in records:
        if record[0] == "bthome":
            packets.append(extended_report(record[1], ad_structure(0x16, b"\xd2\xfc" + record[2])))
        else:
            packets.append(extended_report(record[1], record[2]))

    directory = options.keep or tempfile.mkdtemp(prefix="bluetape-reference-")
    os.makedirs(directory, exist_ok=True)
    capture = os.path.join(directory, "reference.btsnoop")
    write_btsnoop(capture, packets)
    command = [options.bluetape, "decode", "--format", "json", capture]
    for address, key in given.items():
        command += ["--bindkey", f"{address}={key.hex()}"]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode not in (0, 3):
        sys.exit(f"bluetape decode failed ({result.returncode}): {result.stderr.strip()}")
    readings = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    if options.keep:
        with open(os.path.join(directory, "readings.jsonl"), "w") as out:
            out.write(result.stdout)
    by_frame = {}
    checks = []
    for reading in readings:
        if reading.get("decoder") == "bthome.counter":
            checks.append(reading)
        else:
            by_frame.setdefault(reading["frame"], []).append(reading)

    # Which fields Bluetape gives each object id, from the payloads holding one object alone.
    header = {"encrypted", "trigger_based", "counter", "ciphertext", "mic"}
    names = {}
    for frame, record in enumerate(records[: len(ids)], start=1):
        found = by_frame.get(frame, [{}])[0].get("fields", {})
        names[record[3][0][0]] = [name for name in found if name not in header]

    failures = []
    tally = {"bthome": 0, "bthome agree": 0, "beacon": 0, "beacon agree": 0}
    kinds = {}
    seen_ids = set()
    sequence_frames = {frame for frame, _, _ in sequence}
    for frame, record in enumerate(records, start=1):
        mine = by_frame.get(frame, [])
        if record[0] == "beacon":
            _, address, ad, decoder, kind = record
            tally["beacon"] += 1
            kinds[kind] = kinds.get(kind, 0) + 1
            matching = [r for r in mine if r.get("decoder") == decoder]
            problems = [] if len(matching) == 1 and "fields" in matching[0] else [f"{kind}: Bluetape gave {mine}"]
            if not problems:
                problems = compare_beacon(kind, ad, matching[0]["fields"])
            if problems:
                failures.append((frame, ad.hex(), problems))
            else:
                tally["beacon agree"] += 1
            continue
        _, address, payload, objects, how = record
        tally["bthome"] += 1
        kinds[how] = kinds.get(how, 0) + 1
        if frame in sequence_frames:
            continue  # compared below, in order
        theirs = reference_bthome(payload, address, keyed.get(address))
        problems = []
        reading = mine[0] if len(mine) == 1 else {}
        if how == "wrong key":
            error = reading.get("error", {})
            if error.get("field") != "mic" or error.get("offset") != len(payload) - 4:
                problems.append(f"a wrong key: Bluetape gave {reading}")
            if theirs:
                problems.append(f"a wrong key: bthome-ble gave {theirs}")
        elif how == "no key":
            fields = reading.get("fields", {})
            if fields.get("ciphertext") != payload[1:-8].hex() or fields.get("mic") != payload[-4:].hex():
                problems.append(f"no key: Bluetape gave {reading}")
            if fields.get("counter") != struct.unpack("<I", payload[-8:-4])[0]:
                problems.append(f"no key: Bluetape's counter is {fields.get('counter')}")
            if theirs:
                problems.append(f"no key: bthome-ble gave {theirs}")
        elif "fields" not in reading:
            problems.append(f"Bluetape gave {mine}")
        else:
            fields = reading["fields"]
            expected_names = set()
            for object_id, raw in objects:
                seen_ids.add(object_id)
                expected_names.update(names[object_id])
                problems += compare_object(object_id, raw, fields, names[object_id], theirs)
            extra = set(fields) - header - expected_names
            if extra:
                problems.append(f"Bluetape has fields no object gave: {sorted(extra)}")
            known = {reference_key(object_id) for object_id, _ in objects}
            if set(theirs) - known:
                problems.append(f"bthome-ble has values no object gave: {sorted(set(theirs) - known)}")
        if problems:
            failures.append((frame, payload.hex(), problems))
        else:
            tally["bthome agree"] += 1

    # The counter sequence: bthome-ble, keeping its state, drops the payload whose counter went
    # down; Bluetape reports it as a bthome.counter reading and nothing else.
    device = BTHomeBluetoothDeviceData(bindkey=keyed_and_sequence[sequence_device])
    for frame, counter, payload in sequence:
        reference_bthome(payload, sequence_device, None, device=device, time=0.1 * frame)
        accepted = device.encryption_counter == counter  # what it keeps after a payload it took
        flagged = [c["fields"].get("problem") for c in checks if c["frame"] == frame]
        expect_drop = counter == 250
        problems = []
        if expect_drop == accepted:
            problems.append(f"counter {counter}: bthome-ble {'took' if accepted else 'dropped'} it")
        if flagged != (["decreased"] if expect_drop else []):
            problems.append(f"counter {counter}: Bluetape's counter check says {flagged}")
        if problems:
            failures.append((frame, payload.hex(), problems))
        else:
            tally["bthome agree"] += 1
    stray = [c for c in checks if c["frame"] not in sequence_frames]
    if stray:
        failures.append((stray[0]["frame"], "", [f"counter checks outside the sequence: {stray}"]))

    missing = sorted(set(ids) - seen_ids)
    print(
        f"bthome-ble {version('bthome-ble')}: {tally['bthome']} BTHome payloads compared "
        f"({len(seen_ids)} of the {len(ids)} object ids in its table; plain {kinds.get('plain', 0) + kinds.get('alone', 0)}, "
        f"encrypted with the key {kinds.get('encrypted', 0)}, with a wrong key {kinds.get('wrong key', 0)}, "
        f"without a key {kinds.get('no key', 0)}, a counter sequence {kinds.get('sequence', 0)}): "
        f"{tally['bthome agree']} agree")
    print(
        f"beacontools {version('beacontools')}: {tally['beacon']} beacon payloads compared "
        f"(Eddystone UID {kinds.get('uid', 0)}, URL {kinds.get('url', 0)}, TLM {kinds.get('tlm', 0)}, "
        f"eTLM {kinds.get('etlm', 0)}, EID {kinds.get('eid', 0)}, iBeacon {kinds.get('ibeacon', 0)}): "
        f"{tally['beacon agree']} agree")
    if missing:
        failures.append((0, "", [f"object ids never compared: {', '.join(f'0x{i:02x}' for i in missing)}"]))
    for frame, payload, problems in failures[:20]:
        print(f"DISAGREE frame {frame} {payload}: " + "; ".join(problems), file=sys.stderr)
    if failures:
        print(f"{len(failures)} payloads disagree (capture: {capture})", file=sys.stderr)
        sys.exit(1)
    if not options.keep:
        os.remove(capture)
        os.rmdir(directory)


if __name__ == "__main__":
    main()
