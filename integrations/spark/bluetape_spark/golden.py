"""Captures against their goldens on the executors, with Bluetape's own comparison.

Each executor puts a capture and its golden (`<capture file name>.golden.jsonl`, from
`goldens_dir`) side by side in a directory of its own, with the directory's golden.json and the
files that names, and runs `bluetape golden check --format json --junit …` on it: the same rules,
tolerances and decode options as `bluetape golden check` on one machine. The driver gets back a
DataFrame of the differences and one JUnit file for the whole fleet.
"""
import functools
import json
import os
import posixpath
import shutil
import tempfile
import xml.etree.ElementTree as ElementTree
from xml.sax.saxutils import escape

from pyspark import StorageLevel

from . import inputs
from .executor import Run, one_thread, resolve_binary, write_files
from .rows import DIFFERENCE_COLUMNS, compact, schema

GOLDEN_SUFFIX = ".golden.jsonl"
RULES = "golden.json"
# Decode options of golden.json that name files, relative to the golden.json (GoldenConfig.fileOptions).
FILE_OPTIONS = ("layouts", "gatt")


def golden_check_captures(spark, captures, goldens_dir, *, bluetape="bluetape", junit="golden-check.junit.xml",
                          options=(), partitions=None):
    """Checks every capture under `captures` against `goldens_dir/<its file name>.golden.jsonl`.

    Returns a DataFrame with a row per difference (a changed field, an added or missing reading,
    a duplicate key, a golden line that is not a reading) and per capture that could not be
    compared (outcome "unreadable" or "no_golden"); captures that match add no row. Columns:
    capture, golden, outcome (the capture's: differs, unreadable, no_golden), status (changed,
    added, missing, duplicate_key, problem, unreadable, no_golden), frame, decoder, addr,
    sequence, index (the reading's key), field, expected, actual (JSON values), tolerance,
    expected_line, actual_line (in the golden and in the capture's readings), reading (the whole
    added or missing reading, as JSON), message.

    Writes JUnit XML to `junit` (a local path; None writes none): one test suite per capture and a
    test case per decoder, as `bluetape golden check --junit` writes them. `options`: more
    arguments for `golden check` (--tolerance, --ignore, --align, --strict). Capture file names
    must be unique, since a capture finds its golden by name.
    """
    found = inputs.list_captures(spark, captures)
    goldens_dir = inputs.qualified(spark, goldens_dir)
    names = {}
    for path in found:
        name = inputs.basename(path)
        if name in names:
            raise ValueError(f"{names[name]} and {path} have the same name: each capture finds its golden by name")
        names[name] = path
    goldens = [inputs.join(goldens_dir, name + GOLDEN_SUFFIX) for name in names]
    present = _files_in(spark, goldens_dir)
    goldens = [golden for golden in goldens if inputs.basename(golden) in present]
    rules = _rules_files(spark, goldens_dir) if RULES in present else {}

    capture_pairs = inputs.binary_files(spark, found, partitions).map(lambda pair: (inputs.basename(pair[0]), pair))
    if goldens:
        golden_pairs = inputs.binary_files(spark, goldens).map(
            lambda pair: (inputs.basename(pair[0])[:-len(GOLDEN_SUFFIX)], pair))
        joined = capture_pairs.leftOuterJoin(golden_pairs, numPartitions=capture_pairs.getNumPartitions())
    else:
        joined = capture_pairs.mapValues(lambda pair: (pair, None))
    task = functools.partial(_check_partition, bluetape, list(options), rules, goldens_dir)
    results = joined.mapPartitions(task).persist(StorageLevel.MEMORY_AND_DISK)

    order = {path: index for index, path in enumerate(found)}
    reports = sorted(results.map(lambda result: (result[0], result[1])).collect(), key=lambda r: order[r[0]])
    if junit is not None:
        _write_junit(junit, [report for _, report in reports])
    return spark.createDataFrame(results.flatMap(lambda result: result[2]), schema(DIFFERENCE_COLUMNS),
                                 verifySchema=False)


def _files_in(spark, directory):
    """The names of the files in `directory` (not its subdirectories)."""
    local = inputs._local(directory)
    if local is not None:
        if not os.path.isdir(local):
            raise FileNotFoundError(f"{directory}: not a directory of goldens")
        return {name for name in os.listdir(local) if os.path.isfile(os.path.join(local, name))}
    jvm, conf = inputs._hadoop(spark)
    path = jvm.org.apache.hadoop.fs.Path(directory)
    return {status.getPath().getName() for status in path.getFileSystem(conf).listStatus(path) if status.isFile()}


def _rules_files(spark, goldens_dir):
    """golden.json and the files its decode options name, as {path in the task's directory: bytes}.

    The goldens go in a directory deep enough that every relative name ('../layouts/x.json')
    stays inside the task's directory; absolute names are left as they are (they must exist on
    every node)."""
    text = inputs.read_small_file(spark, inputs.join(goldens_dir, RULES))
    try:
        decode = json.loads(text).get("decode") or {}
    except (ValueError, AttributeError):
        decode = {}  # bluetape reports what is wrong with it, on the executor
    relative = []
    for option in FILE_OPTIONS:
        value = decode.get(option) if isinstance(decode, dict) else None
        if isinstance(value, str):
            relative += [entry.strip() for entry in value.split(",") if entry.strip() and not entry.strip().startswith("/")]
    depth = max([_ups(name) for name in relative] + [0])
    home = posixpath.join(*(["up"] * depth + ["goldens"]))
    files = {posixpath.join(home, RULES): text}
    for name in relative:
        files[posixpath.normpath(posixpath.join(home, name))] = inputs.read_small_file(
            spark, inputs.join(goldens_dir, name))
    return {"home": home, "files": files}


def _ups(name):
    """How far above its directory a relative path goes."""
    level = lowest = 0
    for part in name.split("/"):
        if part == "..":
            level -= 1
            lowest = min(lowest, level)
        elif part not in ("", "."):
            level += 1
    return -lowest


def _check_partition(bluetape, options, rules, goldens_dir, pairs):
    """Runs on an executor: (capture path, JUnit XML, difference rows) for each capture."""
    binary = resolve_binary(bluetape)
    directory = tempfile.mkdtemp(prefix="bluetape-golden-")
    try:
        write_files(rules.get("files", {}), directory)
        home = os.path.join(directory, rules.get("home", "goldens"))
        os.makedirs(home, exist_ok=True)
        for name, ((capture, data), golden) in pairs:
            golden_path = golden[0] if golden is not None else inputs.join(goldens_dir, name + GOLDEN_SUFFIX)
            yield _check_one(binary, options, home, name, capture, data, golden, golden_path)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _check_one(binary, options, home, name, capture, data, golden, golden_path):
    local_capture = os.path.join(home, name)
    local_golden = local_capture + GOLDEN_SUFFIX
    junit = os.path.join(home, "junit.xml")
    files = {name: data}
    if golden is not None:
        files[name + GOLDEN_SUFFIX] = golden[1]
    write_files(files, home)
    try:
        run = Run(binary, ["golden", "check", "--format", "json", "--max", "0", "--junit", junit,
                           *one_thread(options), *options, local_capture], b"")
        output = b"\n".join(run)
        renames = [(local_golden, golden_path), (local_capture, capture)]
        try:
            report = _renamed(json.loads(output), renames)
        except ValueError:
            message = _renamed(run.failure(capture) or run.messages, renames)
            return capture, _error_suite(capture, message), [_row(capture, golden_path, "unreadable", "unreadable",
                                                                  message=message)]
        with open(junit, encoding="utf-8") as source:
            xml = source.read()
        for old, new in renames:
            xml = xml.replace(escape(old, {'"': "&quot;"}), escape(new, {'"': "&quot;"}))
        return capture, xml, list(_difference_rows(report))
    finally:
        for path in (local_capture, local_golden, junit):
            if os.path.exists(path):
                os.unlink(path)


def _renamed(value, renames):
    """`value` with the task's paths replaced by the names the user gave (longest first)."""
    if isinstance(value, str):
        for old, new in renames:
            value = value.replace(old, new)
        return value
    if isinstance(value, list):
        return [_renamed(item, renames) for item in value]
    if isinstance(value, dict):
        return {key: _renamed(item, renames) for key, item in value.items()}
    return value


def _row(capture, golden, outcome, status, **values):
    row = dict.fromkeys(name for name, _ in DIFFERENCE_COLUMNS)
    row.update(capture=capture, golden=golden, outcome=outcome, status=status, **values)
    return tuple(row[name] for name, _ in DIFFERENCE_COLUMNS)


def _difference_rows(report):
    for entry in report.get("captures", []):
        capture, golden, outcome = entry.get("capture"), entry.get("golden"), entry.get("status")
        if outcome == "unreadable":
            yield _row(capture, golden, outcome, outcome, message=entry.get("error"))
        elif outcome == "no_golden":
            yield _row(capture, golden, outcome, outcome, message=f"no golden file {golden}")
        comparison = entry.get("report") or {}
        for difference in comparison.get("differences", []):
            key = difference.get("key", {})
            where = dict(
                frame=key.get("frame", difference.get("actual_frame", difference.get("expected_frame"))),
                decoder=key.get("decoder"), addr=key.get("addr"), sequence=key.get("sequence"),
                index=key.get("index"), expected_line=difference.get("expected_line"),
                actual_line=difference.get("actual_line"))
            status = difference.get("status")
            if status == "changed":
                for change in difference.get("changes", []):
                    yield _row(capture, golden, outcome, status, field=change.get("field"),
                               expected=compact(change["expected"]) if "expected" in change else None,
                               actual=compact(change["actual"]) if "actual" in change else None,
                               tolerance=change.get("tolerance"), **where)
            elif status in ("added", "missing"):
                yield _row(capture, golden, outcome, status, reading=compact(difference.get("reading")), **where)
            else:
                lines = {k: difference[k] for k in ("expected_lines", "actual_lines") if k in difference}
                yield _row(capture, golden, outcome, status, message=compact(lines) if lines else None,
                           **dict(where, expected_line=None, actual_line=None))
        for problem in comparison.get("problems", []):
            side = "expected_line" if problem.get("file") == golden else "actual_line"
            yield _row(capture, golden, outcome, "problem", message=problem.get("message"),
                       **{side: problem.get("line")})


def _error_suite(capture, message):
    name = escape(capture, {'"': "&quot;"})
    text = escape(message or "", {'"': "&quot;"})
    return (f'<testsuites tests="1" failures="0" errors="1"><testsuite name="{name}" tests="1" failures="0" '
            f'errors="1" skipped="0"><testcase name="decode" classname="{name}"><error message="{text}"/>'
            f"</testcase></testsuite></testsuites>")


def _write_junit(path, reports):
    """One JUnit document from each capture's: their test suites in capture order, totals summed."""
    root = ElementTree.Element("testsuites", name="bluetape golden check")
    totals = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    for report in reports:
        for suite in ElementTree.fromstring(report.encode("utf-8")).iter("testsuite"):
            for key in totals:
                totals[key] += int(suite.get(key, "0"))
            root.append(suite)
    for key, value in totals.items():
        root.set(key, str(value))
    ElementTree.indent(root)
    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    ElementTree.ElementTree(root).write(path, encoding="UTF-8", xml_declaration=True)
