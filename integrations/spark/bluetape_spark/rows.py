"""Bluetape's JSON lines as rows of an explicit schema, and back (`reading_json`, `event_json`), so
that nothing a line says is lost on the way into a table.

The rows carry `ts_us` (integer microseconds since 1970, as Bluetape keeps time); the DataFrame
makes the `ts` timestamp column from it in the JVM (`timestamp_micros`).
"""
import json

from pyspark.sql.types import (
    DoubleType, LongType, MapType, StringType, StructField, StructType)

# The largest integer a double holds exactly: larger ones go to fields_json, not to the map.
EXACT_INTEGER = 2 ** 53

ERROR = StructType([
    StructField("reason", StringType()),
    StructField("offset", LongType()),
    StructField("field", StringType()),
])

# The columns of each table, in order; `ts_us` becomes `ts`.
READING_COLUMNS = [
    ("capture", StringType()), ("frame", LongType()), ("ts_us", LongType()), ("addr", StringType()),
    ("decoder", StringType()), ("source", StringType()), ("uuid", StringType()), ("company", LongType()),
    ("repeats", LongType()), ("fields", MapType(StringType(), DoubleType())), ("fields_json", StringType()),
    ("data", StringType()), ("extra_json", StringType()), ("error", ERROR),
]

# Keys of an event with a column of their own, and the JSON type a value must have to go there;
# any other key (or a value of another type, or null) is kept in extra_json.
EVENT_KEYS = [
    ("type", str, StringType()), ("addr", str, StringType()), ("addr_type", str, StringType()),
    ("rssi", int, LongType()), ("pdu", str, StringType()), ("name", str, StringType()),
    ("conn", int, LongType()), ("dir", str, StringType()), ("op", str, StringType()),
    ("opcode", int, LongType()), ("handle", int, LongType()), ("uuid", str, StringType()),
    ("service", str, StringType()), ("value", str, StringType()),
]
EVENT_COLUMNS = ([("capture", StringType()), ("frame", LongType()), ("ts_us", LongType())]
                 + [(key, spark_type) for key, _, spark_type in EVENT_KEYS]
                 + [("extra_json", StringType()), ("error", ERROR)])

INFO_KEYS = [
    ("format", str, StringType()), ("datalink", int, LongType()), ("datalink_name", str, StringType()),
    ("records", int, LongType()),
]
INFO_COUNTS = ["out_of_order", "snapped", "truncated", "damaged"]
INFO_COLUMNS = ([("capture", StringType())] + [(key, spark_type) for key, _, spark_type in INFO_KEYS]
                + [("first_ts_us", LongType()), ("last_ts_us", LongType()), ("duration", DoubleType()),
                   ("kinds", MapType(StringType(), LongType())), ("adapters", MapType(StringType(), LongType()))]
                + [(key, LongType()) for key in INFO_COUNTS]
                + [("info_json", StringType()), ("error", ERROR)])

DIFFERENCE_COLUMNS = [
    ("capture", StringType()), ("golden", StringType()), ("outcome", StringType()), ("status", StringType()),
    ("frame", LongType()), ("decoder", StringType()), ("addr", StringType()), ("sequence", LongType()),
    ("index", LongType()), ("field", StringType()), ("expected", StringType()), ("actual", StringType()),
    ("tolerance", DoubleType()), ("expected_line", LongType()), ("actual_line", LongType()),
    ("reading", StringType()), ("message", StringType()),
]


def schema(columns):
    return StructType([StructField(name, spark_type) for name, spark_type in columns])


# One encoder for every call: json.dumps with options builds a new one each time.
_COMPACT = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False).encode


def compact(value):
    return _COMPACT(value)


def microseconds(seconds):
    """Bluetape writes times with exactly six decimals; a double holds those to well under half a
    microsecond for any time before the year 2200, so rounding gives back the integer exactly."""
    return None if seconds is None else round(seconds * 1_000_000)


def _is_number(value):
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _integer(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _text(value):
    return value if isinstance(value, str) else None


def reading_row(capture, line):
    """A reading line as a row of READING_COLUMNS."""
    reading = json.loads(line)
    typed, extra = _split(reading, _READING_TYPES, handled=("fields", "error"))
    numbers = others = error = None
    fields = reading.get("fields")
    if type(fields) is dict:
        numbers, others = {}, {}
        for name, value in fields.items():
            kind = type(value)  # not isinstance: a bool is an int to it, and is not a number here
            if kind is float:
                numbers[name] = value
            elif kind is int and -EXACT_INTEGER <= value <= EXACT_INTEGER:
                numbers[name] = float(value)
            else:
                others[name] = value
    elif "fields" in reading:
        extra["fields"] = fields
    value = reading.get("error")
    if _is_decode_error(value):
        error = (value.get("reason"), value.get("offset"), value.get("field"))
    elif "error" in reading:
        extra["error"] = value
    return (
        capture, typed.get("frame"), microseconds(typed.get("ts")), typed.get("addr"), typed.get("decoder"),
        typed.get("source"), typed.get("uuid"), typed.get("company"), typed.get("repeats"), numbers,
        compact(others) if others else None, typed.get("data"), compact(extra) if extra else None, error,
    )


def _is_decode_error(value):
    """Whether `value` is a decode error as the error struct holds it: reason, offset, field."""
    if not isinstance(value, dict) or not set(value) <= {"reason", "offset", "field"}:
        return False
    offset = value.get("offset")
    return (isinstance(value.get("reason", ""), str) and isinstance(value.get("field", ""), str)
            and (offset is None or (isinstance(offset, int) and not isinstance(offset, bool))))


def _split(record, types, handled=()):
    """The keys of `record` that have a column and a value of its type, and the rest (a null, a
    value of another type, a key without column) for the extra_json column."""
    typed, extra = {}, {}
    for key, value in record.items():
        kinds = types.get(key)
        if kinds is not None:
            # By exact type, as json.loads makes them: a bool is not an int here.
            if type(value) in kinds:
                typed[key] = value
            else:
                extra[key] = value
        elif key not in handled:
            extra[key] = value
    return typed, extra


_READING_TYPES = {
    "frame": (int,), "ts": (int, float), "addr": (str,), "decoder": (str,), "source": (str,), "uuid": (str,),
    "company": (int,), "repeats": (int,), "data": (str,),
}


def event_row(capture, line):
    """An event line as a row of EVENT_COLUMNS."""
    event = json.loads(line)
    typed, extra = _split(event, _EVENT_TYPES)
    return (capture, typed.get("frame"), microseconds(typed.get("ts")),
            *(typed.get(key) for key, _, _ in EVENT_KEYS), compact(extra) if extra else None, None)


_EVENT_TYPES = {"frame": (int,), "ts": (int, float), **{key: (kind,) for key, kind, _ in EVENT_KEYS}}


def info_row(capture, line, failure):
    """`bluetape info --json` of one capture as a row of INFO_COLUMNS; `failure`: its messages."""
    info = json.loads(line) if line else {}
    if "file" in info:
        info["file"] = capture
    values = []
    for key, kind, _ in INFO_KEYS:
        value = info.get(key)
        values.append(value if isinstance(value, kind) and not isinstance(value, bool) else None)
    counts = [_integer(info.get(key)) for key in INFO_COUNTS]
    duration = info.get("duration")
    return (
        capture, *values,
        microseconds(info.get("first_ts")) if _is_number(info.get("first_ts")) else None,
        microseconds(info.get("last_ts")) if _is_number(info.get("last_ts")) else None,
        float(duration) if _is_number(duration) else None,
        _counts(info.get("kinds")), _counts(info.get("adapters")), *counts,
        compact(info) if info else None,
        (failure, None, None) if failure else None,
    )


def _counts(value):
    if not isinstance(value, dict):
        return None
    return {str(key): count for key, count in value.items() if _integer(count) is not None}


def failure_row(columns, capture, message):
    """The one row a capture that could not be read in full adds: its name and the messages."""
    row = [None] * len(columns)
    row[0] = capture
    row[-1] = (message, None, None)
    return tuple(row)


# Back from rows to Bluetape's JSON, for comparisons and for people reading a table. A row of the
# DataFrame has `ts`, a timestamp; select `unix_micros(ts) AS ts_us` first. The "ts" given back is
# ts_us / 10^6, the double nearest the six-decimal number Bluetape wrote, as a JSON parser reads it.

def reading_json(row):
    """The reading a row of READING_COLUMNS came from (without "capture"), as a dict."""
    row = row if isinstance(row, dict) else row.asDict(recursive=True)
    reading = {}
    for key in ("frame", "ts", "addr", "decoder", "source", "uuid", "company", "fields", "repeats", "data"):
        if key == "ts":
            if row.get("ts_us") is not None:
                reading["ts"] = row["ts_us"] / 1_000_000
            continue
        if key == "fields":
            if row.get("fields") is not None or row.get("fields_json") is not None:
                fields = dict(row.get("fields") or {})
                fields.update(json.loads(row["fields_json"]) if row.get("fields_json") else {})
                reading["fields"] = fields
            continue
        if row.get(key) is not None:
            reading[key] = row[key]
    error = row.get("error")
    if error is not None and row.get("frame") is not None:
        reading["error"] = {k: v for k, v in error.items() if v is not None}
    if row.get("extra_json"):
        reading.update(json.loads(row["extra_json"]))
    return reading


def event_json(row):
    """The event a row of EVENT_COLUMNS came from (without "capture"), as a dict."""
    row = row if isinstance(row, dict) else row.asDict(recursive=True)
    event = {}
    if row.get("frame") is not None:
        event["frame"] = row["frame"]
    if row.get("ts_us") is not None:
        event["ts"] = row["ts_us"] / 1_000_000
    for key, _, _ in EVENT_KEYS:
        if row.get(key) is not None:
            event[key] = row[key]
    if row.get("extra_json"):
        event.update(json.loads(row["extra_json"]))
    return event
