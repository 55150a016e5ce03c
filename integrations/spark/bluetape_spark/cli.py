"""`python -m bluetape_spark decode|events|info|golden-check INPUT… --out OUT.parquet`

Arguments after `--` go to bluetape itself (`-- --decoder envsensor`, `-- --type adv`). Exit codes
are Bluetape's: 0 ok, 1 differences (golden-check), 2 usage error, 3 a capture could not be read
in full (its readable rows are written all the same).
"""
import argparse
import os
import sys

from . import inputs
from .captures import decode_captures, events_captures, info_captures
from .executor import BluetapeNotFound, resolve_binary
from .golden import golden_check_captures

COMMANDS = ("decode", "events", "info", "golden-check")


def parser():
    p = argparse.ArgumentParser(
        prog="python -m bluetape_spark",
        description="Bluetape over many captures with Apache Spark; the results in Parquet.",
        epilog="Arguments after -- are passed to bluetape (e.g. -- --decoder envsensor).")
    p.add_argument("command", choices=COMMANDS)
    p.add_argument("inputs", nargs="+", metavar="INPUT",
                   help="captures, directories of captures or globs (local, hdfs://, s3a://, …)")
    p.add_argument("--out", required=True, metavar="OUT.parquet", help="where to write the Parquet output")
    p.add_argument("--master", help="Spark master (default: spark-submit's, else local[*])")
    p.add_argument("--partition-by", metavar="COLUMN", action="append", default=[],
                   help="partition the Parquet output by this column (repeatable), e.g. decoder")
    p.add_argument("--bluetape", default=os.environ.get("BLUETAPE", "bluetape"),
                   help="the bluetape binary on the executors: a name shipped with --files or on PATH, "
                        "or a path (default: $BLUETAPE, else bluetape)")
    p.add_argument("--layout", action="append", default=[], metavar="L.json",
                   help="decode: also decode with this layout, or every layout in a directory (repeatable)")
    p.add_argument("--gatt", metavar="MAP.json", help="decode, events: a GATT map")
    p.add_argument("--goldens", metavar="DIR", help="golden-check: the directory of <capture>.golden.jsonl files")
    p.add_argument("--junit", metavar="FILE", help="golden-check: JUnit XML (default: OUT with .junit.xml)")
    p.add_argument("--partitions", type=int, help="tasks to ask Spark for (default: one per capture, packed)")
    p.add_argument("--mode", default="overwrite", choices=("overwrite", "append", "error"),
                   help="when OUT exists (default: overwrite)")
    return p


def session(master):
    from pyspark.sql import SparkSession

    builder = SparkSession.builder.appName("bluetape-spark")
    if master:
        builder = builder.master(master)
    # Microsecond timestamps in Parquet (Spark's default, INT96, is a legacy nanosecond type).
    builder = builder.config("spark.sql.parquet.outputTimestampType", "TIMESTAMP_MICROS")
    builder = builder.config("spark.sql.session.timeZone", "UTC")
    builder = builder.config("spark.ui.showConsoleProgress", "true" if sys.stderr.isatty() else "false")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    passed = []
    if "--" in argv:
        passed = argv[argv.index("--") + 1:]
        argv = argv[:argv.index("--")]
    args = parser().parse_args(argv)
    if args.command == "golden-check" and not args.goldens:
        parser().error("golden-check needs --goldens DIR")
    spark = session(args.master)
    binary = args.bluetape
    if spark.sparkContext.master.startswith("local"):
        try:  # one machine: find the binary once, here, and say so plainly when it is missing
            binary = resolve_binary(binary)
        except BluetapeNotFound as error:
            print(f"error: {error}", file=sys.stderr)
            return 2
    try:
        return run(spark, args, binary, passed)
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 3 if isinstance(error, FileNotFoundError) else 2
    except Exception as error:  # a task failed: name its cause, not the JVM's stack
        print(f"error: {_cause(error)}", file=sys.stderr)
        return 2 if "BluetapeUsageError" in str(error) or "BluetapeNotFound" in str(error) else 1
    finally:
        spark.stop()


def run(spark, args, binary, passed):
    captures = inputs.list_captures(spark, args.inputs)  # for the count; each call lists them again
    if args.command == "decode":
        frame = decode_captures(spark, args.inputs, bluetape=binary, layouts=args.layout, gatt=args.gatt,
                                options=passed, partitions=args.partitions)
    elif args.command == "events":
        frame = events_captures(spark, args.inputs, bluetape=binary, gatt=args.gatt, options=passed,
                                partitions=args.partitions)
    elif args.command == "info":
        frame = info_captures(spark, args.inputs, bluetape=binary, options=passed, partitions=args.partitions)
    else:
        junit = args.junit or _beside(args.out, ".junit.xml")
        frame = golden_check_captures(spark, args.inputs, args.goldens, bluetape=binary, junit=junit,
                                      options=passed, partitions=args.partitions)
    writer = frame.write.mode(args.mode)
    if args.partition_by:
        writer = writer.partitionBy(*args.partition_by)
    writer.parquet(args.out)

    written = spark.read.parquet(args.out)
    rows = written.count()
    if args.command == "golden-check":
        outcomes = {row.outcome for row in written.select("outcome").distinct().collect()}
        differing = written.where("outcome = 'differs'").select("capture").distinct().count()
        print(f"{len(captures)} captures checked: {differing} differ, {rows} differences and problems "
              f"in {args.out}; JUnit in {junit}", file=sys.stderr)
        if "unreadable" in outcomes:
            return 3
        return 1 if "differs" in outcomes or ("no_golden" in outcomes and _strict(passed)) else 0
    # The rows that say a capture could not be read in full (for info: its one row has an error).
    failed = written.where("error IS NOT NULL" + ("" if args.command == "info" else " AND frame IS NULL"))
    failures = failed.select("capture").distinct().count()
    print(f"{rows} rows from {len(captures)} captures in {args.out}"
          + (f"; {failures} could not be read in full (rows with error)" if failures else ""), file=sys.stderr)
    return 3 if failures else 0


def _strict(passed):
    ci = os.environ.get("CI", "")
    return "--strict" in passed or ci.lower() not in ("", "0", "false")


def _beside(out, suffix):
    base = out.rstrip("/")
    return (base[:-len(".parquet")] if base.endswith(".parquet") else base) + suffix


def _cause(error):
    text = str(error)
    for line in reversed(text.splitlines()):
        for marker in ("BluetapeUsageError: ", "BluetapeNotFound: ", "ValueError: ", "Error: "):
            if marker in line:
                return line.split(marker, 1)[1].strip()
    return text.splitlines()[0] if text else type(error).__name__
