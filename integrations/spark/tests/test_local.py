"""bluetape_spark in PySpark local mode, checked against the bluetape binary run on each file.

Needs BLUETAPE (the binary; it must read a capture from standard input) and reads the captures of
the repository's captures/ and, when present, ../shared/captures. `scripts/test-spark` runs it.
"""
import datetime
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest
import xml.etree.ElementTree as ElementTree

from pyspark.sql import SparkSession
from pyspark.sql import functions as F

from bluetape_spark import decode_captures, events_captures, golden_check_captures, info_captures
from bluetape_spark.rows import EXACT_INTEGER, event_json, reading_json

BLUETAPE = os.environ.get("BLUETAPE")
INTEGRATION = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(os.path.dirname(INTEGRATION))
CAPTURES = os.path.join(ROOT, "captures")
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "captures")


def capture_files():
    """Every capture the tests read, found independently of the package: the files of
    ../shared/captures but its MANIFEST, and captures/*.btsnoop."""
    files = []
    if os.path.isdir(SHARED):
        files += [os.path.join(SHARED, n) for n in sorted(os.listdir(SHARED)) if not n.endswith(".md")]
    files += [os.path.join(CAPTURES, n) for n in sorted(os.listdir(CAPTURES)) if n.endswith(".btsnoop")]
    return files


def bluetape(*arguments, check_codes=(0,)):
    result = subprocess.run([BLUETAPE, *arguments], capture_output=True)
    if result.returncode not in check_codes:
        raise AssertionError(f"bluetape {' '.join(arguments)}: exit {result.returncode}: {result.stderr.decode()}")
    return result


def uri(path):
    return "file:" + os.path.abspath(path)


def canonical(record):
    """A record as sorted JSON, numbers in a field map as the DataFrame holds them (doubles, for
    every integer a double holds exactly)."""
    record = dict(record)
    if isinstance(record.get("fields"), dict):
        record["fields"] = {
            name: float(value) if isinstance(value, int) and not isinstance(value, bool) and abs(value) <= EXACT_INTEGER
            else value for name, value in record["fields"].items()}
    return json.dumps(record, sort_keys=True)


def with_micros(frame, *columns):
    for column in columns:
        frame = frame.withColumn(column + "_us", F.unix_micros(column)).drop(column)
    return frame


@unittest.skipUnless(BLUETAPE, "BLUETAPE is not set (scripts/test-spark sets it)")
class LocalModeTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.spark = (SparkSession.builder.master("local[2]").appName("bluetape-spark-tests")
                     .config("spark.ui.enabled", "false").config("spark.ui.showConsoleProgress", "false")
                     .config("spark.sql.session.timeZone", "UTC")
                     .config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS").getOrCreate())
        cls.spark.sparkContext.setLogLevel("ERROR")
        cls.work = tempfile.mkdtemp(prefix="bluetape-spark-tests-")

    @classmethod
    def tearDownClass(cls):
        cls.spark.stop()
        shutil.rmtree(cls.work, ignore_errors=True)

    def inputs(self):
        return [SHARED, CAPTURES] if os.path.isdir(SHARED) else [CAPTURES]

    def test_readings_equal_bluetape_decode_of_each_file(self):
        expected = []
        for path in capture_files():
            result = bluetape("decode", "--format", "jsonl", path)
            for line in result.stdout.splitlines():
                expected.append(canonical({"capture": uri(path), **json.loads(line)}))
        frame = with_micros(decode_captures(self.spark, self.inputs(), bluetape=BLUETAPE), "ts")
        rows = frame.collect()
        actual = [canonical({"capture": row.capture, **reading_json(row)}) for row in rows]
        self.assertEqual(sorted(expected), sorted(actual))
        self.assertGreater(len(actual), 0)
        # Each capture's rows come out in its order, and every capture the directories hold was read.
        by_capture = {}
        for row in rows:
            by_capture.setdefault(row.capture, []).append(row.frame)
        for frames in by_capture.values():
            self.assertEqual(frames, sorted(frames))
        listed = {row.capture for row in info_captures(self.spark, self.inputs(), bluetape=BLUETAPE).collect()}
        self.assertEqual(listed, {uri(path) for path in capture_files()})

    def test_timestamps_keep_every_microsecond(self):
        path = os.path.join(CAPTURES, "envsensor.btsnoop")
        text = bluetape("decode", "--format", "jsonl", path).stdout
        # The six decimals bluetape writes, read as integers: no double on the way.
        expected = sorted((int(frame), int(seconds) * 1_000_000 + int(micros))
                          for frame, seconds, micros in re.findall(rb'"frame":(\d+),"ts":(\d+)\.(\d{6})', text))
        frame = with_micros(decode_captures(self.spark, [path], bluetape=BLUETAPE), "ts")
        self.assertEqual(expected, sorted((row.frame, row.ts_us) for row in frame.collect()))
        self.assertEqual(dict(frame.dtypes)["ts_us"], "bigint")
        self.assertEqual(dict(decode_captures(self.spark, [path], bluetape=BLUETAPE).dtypes)["ts"], "timestamp")

    def test_events_equal_bluetape_events_of_each_file(self):
        paths = capture_files()
        expected = []
        for path in paths:
            for line in bluetape("events", "--format", "jsonl", path).stdout.splitlines():
                expected.append(json.dumps({"capture": uri(path), **json.loads(line)}, sort_keys=True))
        frame = with_micros(events_captures(self.spark, self.inputs(), bluetape=BLUETAPE), "ts")
        actual = [json.dumps({"capture": row.capture, **event_json(row)}, sort_keys=True)
                  for row in frame.toLocalIterator()]
        self.assertEqual(len(expected), len(actual))
        self.assertEqual(sorted(expected), sorted(actual))

    def test_info_has_one_row_per_capture_as_bluetape_info(self):
        rows = {row.capture: row for row in info_captures(self.spark, self.inputs(), bluetape=BLUETAPE).collect()}
        for path in capture_files():
            expected = json.loads(bluetape("info", "--json", path).stdout)
            row = rows[uri(path)]
            info = json.loads(row.info_json)
            self.assertEqual(info.pop("file"), uri(path))
            expected.pop("file")
            self.assertEqual(info, expected, path)
            self.assertEqual(row.records, expected["records"])
            self.assertEqual(row.kinds, expected["kinds"])
            self.assertIsNone(row.error)

    def damaged_captures(self):
        """A capture cut inside a record, one with a record mangled in the middle, and bytes that
        are no capture, in a directory of the test's own."""
        directory = os.path.join(self.work, "damaged")
        os.makedirs(directory, exist_ok=True)
        with open(os.path.join(CAPTURES, "envsensor.btsnoop"), "rb") as source:
            data = source.read()
        mangled = bytearray(data)
        mangled[2000:2010] = b"\xff" * 10
        files = {"cut.btsnoop": data[:3000], "mangled.btsnoop": bytes(mangled),
                 "noise.btsnoop": bytes(range(7, 107))}
        for name, content in files.items():
            with open(os.path.join(directory, name), "wb") as out:
                out.write(content)
        return directory, sorted(files)

    def test_a_damaged_capture_keeps_its_readable_rows_and_adds_one_error_row(self):
        directory, names = self.damaged_captures()
        frame = with_micros(decode_captures(self.spark, [directory], bluetape=BLUETAPE), "ts")
        rows = frame.collect()
        for name in names:
            path = os.path.join(directory, name)
            result = bluetape("decode", "--format", "jsonl", path, check_codes=(3,))
            expected = sorted(canonical({"capture": uri(path), **json.loads(line)})
                              for line in result.stdout.splitlines())
            mine = [row for row in rows if row.capture == uri(path)]
            readable = sorted(canonical({"capture": row.capture, **reading_json(row)})
                              for row in mine if row.frame is not None)
            errors = [row for row in mine if row.frame is None]
            self.assertEqual(expected, readable, name)
            self.assertEqual(len(errors), 1, name)
            # The message is bluetape's, naming the capture instead of standard input.
            message = result.stderr.decode().strip().replace(path, uri(path))
            self.assertEqual(errors[0].error.reason, message, name)
        self.assertGreater(len([row for row in rows if row.frame is not None]), 0)
        counts = {row.capture: row for row in info_captures(self.spark, [directory], bluetape=BLUETAPE).collect()}
        self.assertIn("byte offset 2993", counts[uri(os.path.join(directory, "cut.btsnoop"))].error.reason)
        self.assertIsNone(counts[uri(os.path.join(directory, "noise.btsnoop"))].records)

    def golden_copy(self, change):
        """captures/ with its goldens in a directory of the test's own (and the layouts the rules
        name beside it), `change` applied to the goldens."""
        directory = tempfile.mkdtemp(dir=self.work)
        suite = os.path.join(directory, "captures")
        shutil.copytree(CAPTURES, suite)
        shutil.copytree(os.path.join(ROOT, "layouts"), os.path.join(directory, "layouts"))
        change(suite)
        return suite

    def test_golden_check_reports_what_bluetape_golden_check_reports(self):
        def change(suite):
            golden = os.path.join(suite, "envsensor.btsnoop.golden.jsonl")
            with open(golden) as source:
                lines = source.read().splitlines()
            first = json.loads(lines[0])
            first["fields"]["temperature_c"] += 0.5
            lines[0] = json.dumps(first, separators=(",", ":"))
            del lines[5]
            with open(golden, "w") as out:
                out.write("\n".join(lines) + "\n")
            os.unlink(os.path.join(suite, "combustion.btsnoop.golden.jsonl"))

        suite = self.golden_copy(change)
        junit = os.path.join(self.work, "fleet.junit.xml")
        frame = golden_check_captures(self.spark, [suite], suite, bluetape=BLUETAPE, junit=junit)
        rows = frame.collect()
        local_junit = os.path.join(self.work, "local.junit.xml")
        report = json.loads(bluetape("golden", "check", "--format", "json", "--max", "0", "--junit", local_junit,
                                     suite, check_codes=(1,)).stdout)
        expected = set()
        for entry in report["captures"]:
            name = os.path.basename(entry["capture"])
            if entry["status"] == "no_golden":
                expected.add((name, "no_golden", None, None, None, None, None))
            for difference in (entry.get("report") or {}).get("differences", []):
                key = difference["key"]
                for change in difference.get("changes", [{}]):
                    expected.add((name, difference["status"], key.get("frame"), key["decoder"], change.get("field"),
                                  json.dumps(change["expected"]) if "expected" in change else None,
                                  json.dumps(change["actual"]) if "actual" in change else None))
        actual = {(os.path.basename(row.capture), row.status, row.frame, row.decoder, row.field, row.expected,
                   row.actual) for row in rows}
        self.assertEqual(expected, actual)
        self.assertTrue(any(row.status == "changed" and row.frame == 2 and row.field == "temperature_c"
                            and row.actual == "22.5" and float(row.expected) == 23.0 for row in rows))
        self.assertTrue(any(row.status == "added" and row.frame == 43 for row in rows))
        # The fleet's JUnit holds the test cases bluetape's own does, named by the captures' URIs.
        def cases(path, rename):
            root = ElementTree.parse(path).getroot()
            return root.get("tests"), root.get("failures"), sorted(
                (rename(case.get("classname")), case.get("name"), case.find("failure") is not None)
                for case in root.iter("testcase"))
        self.assertEqual(cases(junit, os.path.basename), cases(local_junit, os.path.basename))

    def test_golden_check_of_the_shipped_goldens_finds_no_difference(self):
        junit = os.path.join(self.work, "clean.junit.xml")
        frame = golden_check_captures(self.spark, [CAPTURES], CAPTURES, bluetape=BLUETAPE, junit=junit)
        self.assertEqual(frame.count(), 0)
        root = ElementTree.parse(junit).getroot()
        self.assertEqual(root.get("failures"), "0")
        self.assertEqual(root.get("errors"), "0")
        self.assertEqual(len(root.findall("testsuite")), len(
            [n for n in os.listdir(CAPTURES) if n.endswith(".btsnoop")]))

    def test_command_line_and_the_readme_duckdb_example(self):
        import duckdb

        out = os.path.join(self.work, "readings.parquet")
        environment = dict(os.environ, PYTHONPATH=INTEGRATION + os.pathsep + os.environ.get("PYTHONPATH", ""))
        directory, _ = self.damaged_captures()
        command = [sys.executable, "-m", "bluetape_spark", "decode", *self.inputs(), directory, "--out", out,
                   "--master", "local[2]", "--partition-by", "decoder", "--bluetape", BLUETAPE]
        result = subprocess.run(command, capture_output=True, text=True, env=environment)
        self.assertEqual(result.returncode, 3, result.stderr)  # the damaged captures
        self.assertIn("3 could not be read in full", result.stderr)

        paths = capture_files() + [os.path.join(directory, n) for n in sorted(os.listdir(directory))]
        lines = []
        for path in paths:
            lines += bluetape("decode", "--format", "jsonl", path, check_codes=(0, 3)).stdout.decode().splitlines()
        readings = [json.loads(line) for line in lines]
        table = f"read_parquet('{out}/**/*.parquet', hive_partitioning = true)"
        connection = duckdb.connect()
        count, errors = connection.execute(
            f"SELECT count(*), count(*) FILTER (WHERE frame IS NULL) FROM {table}").fetchall()[0]
        self.assertEqual(count - errors, len(readings))
        self.assertEqual(errors, 3)
        # Through Parquet too, every time to the microsecond.
        micros = sum(int(s) * 1_000_000 + int(u) for s, u in re.findall(r'"ts":(\d+)\.(\d{6})', "\n".join(lines)))
        self.assertEqual(connection.execute(f"SELECT sum(epoch_us(ts))::HUGEINT FROM {table}").fetchall()[0][0], micros)

        # The README's queries, as written there, on this output.
        with open(os.path.join(INTEGRATION, "README.md")) as source:
            queries = re.findall(r"```sql\n(.*?)```", source.read(), re.S)
        self.assertGreaterEqual(len(queries), 2)
        results = [connection.execute(query.replace("readings.parquet", out)).fetchall()
                   for query in queries if query.strip()]
        per_device = {}
        for reading in readings:
            if "addr" in reading:
                per_device[reading["addr"]] = per_device.get(reading["addr"], 0) + 1
        top = sorted(per_device.items(), key=lambda item: (-item[1], item[0]))[:10]
        self.assertEqual([tuple(row) for row in results[0]], top)
        hours = {}
        for reading in readings:
            value = (reading.get("fields") or {}).get("temperature_c")
            if isinstance(value, (int, float)):
                hour = datetime.datetime.fromtimestamp(reading["ts"], datetime.timezone.utc).replace(
                    minute=0, second=0, microsecond=0)
                hours.setdefault(hour, []).append(value)
        self.assertGreater(len(hours), 0)
        means = [(hour, sum(values) / len(values), len(values)) for hour, values in sorted(hours.items())]
        got = [(hour.astimezone(datetime.timezone.utc), mean, n) for hour, mean, n in results[1]]
        self.assertEqual([(h, n) for h, _, n in got], [(h, n) for h, _, n in means])
        for (_, mean, _), (_, expected_mean, _) in zip(got, means):
            self.assertAlmostEqual(mean, expected_mean, places=9)


if __name__ == "__main__":
    unittest.main()
