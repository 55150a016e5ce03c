"""Readings, events and capture summaries of many captures as Spark DataFrames.

Each capture is one unit of work: Spark reads it with `binaryFiles` (so HDFS, S3 and local paths
work alike), and the executor that gets it runs `bluetape decode -` (or `events -`, `info --json -`)
with the capture on standard input. Bluetape stays the task; Spark schedules it.
"""
import functools
import os
import shutil
import tempfile

from pyspark.sql import functions as F

from . import inputs
from .executor import Run, one_thread, resolve_binary, write_files
from .rows import (
    EVENT_COLUMNS, INFO_COLUMNS, READING_COLUMNS, event_row, failure_row, info_row, reading_row, schema)


def decode_captures(spark, paths, *, bluetape="bluetape", layouts=(), gatt=None, options=(), partitions=None):
    """The readings of every capture under `paths`, one row per reading.

    Columns: capture (the capture's URI), frame, ts (timestamp, µs), addr, decoder, source, uuid,
    company, repeats, fields (name → double: every numeric field), fields_json (a JSON object of
    the fields that are not numbers, or are integers a double cannot hold exactly; null when
    none), data (hex, with `--all` in `options`), extra_json (any other key of the reading),
    error (reason, offset, field). A capture that could not be read in full keeps the rows of
    everything readable and adds one row with only `capture` and `error.reason` (Bluetape's
    messages); its `frame` is null.

    `bluetape`: the binary's name or path on the executors (see `executor.resolve_binary`);
    `layouts`: layout files or directories of them, `gatt`: a GATT map file, both read here on the
    driver and sent with the tasks; `options`: more arguments for `bluetape decode`
    (e.g. ["--decoder", "envsensor", "--param", "NAME=VALUE"]); `partitions`: tasks to ask for
    (default: one per capture, which Spark packs into tasks of about equal size).
    """
    files, arguments = _decoding_files(spark, layouts, gatt)
    command = ["decode", "--format", "jsonl", *one_thread(options), *arguments, *options, "-"]
    return _captures_frame(spark, paths, bluetape, command, files, reading_row, READING_COLUMNS, partitions,
                           timestamps=["ts"])


def events_captures(spark, paths, *, bluetape="bluetape", gatt=None, options=(), partitions=None):
    """The event stream of every capture under `paths`, one row per event.

    Columns: capture, frame, ts (timestamp, µs), type, addr, addr_type, rssi, pdu, name, conn, dir,
    op, opcode, handle, uuid, service, value, extra_json (every other key of the event, as a JSON
    object: ad, mfr, service_data, reason, …; also a listed key whose value is null or of another
    type), error (for the one row of a capture that could not be read in full).
    `options`: filters and more for `bluetape events` (e.g. ["--type", "adv,att"]).
    """
    files, arguments = _decoding_files(spark, (), gatt)
    command = ["events", "--format", "jsonl", *one_thread(options), *arguments, *options, "-"]
    return _captures_frame(spark, paths, bluetape, command, files, event_row, EVENT_COLUMNS, partitions,
                           timestamps=["ts"])


def info_captures(spark, paths, *, bluetape="bluetape", options=(), partitions=None):
    """One row per capture: `bluetape info --json`.

    Columns: capture, format, datalink, datalink_name, records, first_ts, last_ts (timestamps),
    duration (s), kinds and adapters (name → records), out_of_order, snapped, truncated, damaged,
    info_json (the whole object, "file" naming the capture: containers, members, logs found in a
    bug report…), error (Bluetape's messages when the capture was damaged or unreadable).
    """
    command = ["info", "--json", *one_thread(options), *options, "-"]
    return _captures_frame(spark, paths, bluetape, command, {}, None, INFO_COLUMNS, partitions,
                           timestamps=["first_ts", "last_ts"])


def _captures_frame(spark, paths, bluetape, command, files, convert, columns, partitions, timestamps):
    captures = inputs.list_captures(spark, paths)
    task = functools.partial(_run_partition, bluetape, command, files, convert, columns)
    rdd = inputs.binary_files(spark, captures, partitions).mapPartitions(task)
    frame = spark.createDataFrame(rdd, schema(columns), verifySchema=False)
    return frame.select(*[
        F.expr(f"timestamp_micros({name})").alias(name[:-3]) if name[:-3] in timestamps else F.col(name)
        for name, _ in columns])


def _run_partition(bluetape, command, files, convert, columns, pairs):
    """Runs on an executor: each capture of the task through bluetape, in a directory of the task's
    own that holds the files the arguments name."""
    binary = resolve_binary(bluetape)
    directory = tempfile.mkdtemp(prefix="bluetape-task-")
    try:
        write_files(files, directory)
        for path, data in pairs:
            run = Run(binary, command, data, cwd=directory)
            if convert is None:  # info: one row per capture, whatever happened
                lines = list(run)
                yield info_row(path, lines[0] if lines else None, run.failure(path))
                continue
            for number, line in enumerate(run, 1):
                try:
                    yield convert(path, line)
                except ValueError as error:
                    raise ValueError(f"{path}: line {number} of bluetape's output is not JSON ({error})") from None
            failure = run.failure(path)
            if failure:
                yield failure_row(columns, path, failure)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _decoding_files(spark, layouts, gatt):
    """The layout and GATT map files as {path in the task's directory: bytes}, and the arguments
    that name them there."""
    if isinstance(layouts, str):
        layouts = [layouts]
    files, arguments = {}, []
    for number, layout in enumerate(layouts):
        local = inputs._local(layout)
        names = ([os.path.join(local, name) for name in sorted(os.listdir(local)) if name.endswith(".json")]
                 if local is not None and os.path.isdir(local) else [layout])
        for name in names:
            relative = f"layouts/{number}/{inputs.basename(name)}"
            files[relative] = inputs.read_small_file(spark, name)
            arguments += ["--layout", relative]
    if gatt is not None:
        files["gatt/" + inputs.basename(gatt)] = inputs.read_small_file(spark, gatt)
        arguments += ["--gatt", "gatt/" + inputs.basename(gatt)]
    return files, arguments
