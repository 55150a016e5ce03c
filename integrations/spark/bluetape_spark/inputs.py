"""The driver's side of the inputs: captures named by files, directories or globs on any file system
Hadoop reaches (local, HDFS, S3), and the small files (layouts, GATT maps, golden rules) that are
read once here and sent with the tasks, so that executors need nothing but the binary.
"""
import glob
import os
import posixpath

# The names `bluetape decode DIR` and `golden check` take for captures (GoldenSuite.captureExtensions).
CAPTURE_EXTENSIONS = {"btsnoop", "log", "last", "cfa", "snoop", "pcap", "pcapng", "pklg", "zip", "gz", "tgz"}

# Characters Hadoop reads as glob syntax in a path; a path is escaped before binaryFiles sees it.
_GLOB = set("*?[]\\")


def is_capture_name(name):
    dot = name.rfind(".")
    return dot > 0 and name[dot + 1:].lower() in CAPTURE_EXTENSIONS


def _hadoop(spark):
    sc = spark.sparkContext
    return sc._jvm, sc._jsc.hadoopConfiguration()


def list_captures(spark, inputs):
    """The captures under `inputs`, as fully qualified paths: a file as given (whatever its name),
    a directory searched with its subdirectories for capture names (hidden ones left out), a glob
    expanded; sorted within each input, inputs in the order given, each capture once."""
    if isinstance(inputs, str):
        inputs = [inputs]
    jvm, conf = _hadoop(spark)
    local_default = jvm.org.apache.hadoop.fs.FileSystem.getDefaultUri(conf).getScheme() in (None, "file")
    found, seen = [], set()
    for given in inputs:
        # Local files are listed here, without a call into the JVM per file (thousands of captures).
        is_local = given.startswith("file:") or ("://" not in given and local_default)
        here = _list_local(given) if is_local else _list_hadoop(jvm, conf, given)
        for name in sorted(here):
            if name not in seen:
                seen.add(name)
                found.append(name)
    if not found:
        raise FileNotFoundError(f"no captures in {', '.join(inputs)} (files named .btsnoop, .log, .pcap, …)")
    return found


def _list_local(given):
    path = _local(given)
    matches = sorted(glob.glob(path)) if glob.has_magic(path) else [path] if os.path.exists(path) else []
    if not matches:
        raise FileNotFoundError(f"{given}: no such file or directory")
    here = []
    for match in matches:
        if not os.path.isdir(match):
            here.append(match)
            continue
        for directory, subdirectories, names in os.walk(match):
            subdirectories[:] = [d for d in subdirectories if not d.startswith(".")]
            here += [os.path.join(directory, n) for n in names if not n.startswith(".") and is_capture_name(n)]
    return ["file:" + os.path.abspath(name) for name in here]


def _list_hadoop(jvm, conf, given):
    path = jvm.org.apache.hadoop.fs.Path(given)
    fs = path.getFileSystem(conf)
    statuses = fs.globStatus(path)
    if statuses is None or len(statuses) == 0:
        raise FileNotFoundError(f"{given}: no such file or directory")
    here = []
    for status in statuses:
        if not status.isDirectory():
            here.append(status.getPath().toString())
            continue
        root = status.getPath().toString().rstrip("/")
        files = fs.listFiles(status.getPath(), True)
        while files.hasNext():
            name = files.next().getPath().toString()
            relative = name[len(root):].strip("/").split("/")
            if not any(part.startswith(".") for part in relative) and is_capture_name(relative[-1]):
                here.append(name)
    return here


def binary_files(spark, paths, partitions=None):
    """`sparkContext.binaryFiles` over exactly these files: (path, bytes) pairs.

    Spark packs small files into one task up to about their mean size plus
    `spark.files.openCostInBytes`; asking for one partition per capture keeps the tasks of a
    fleet of mixed sizes about equal in bytes, so that no executor waits on one that drew the big
    files. `partitions` overrides it."""
    for path in paths:
        if "," in path or "{" in path or "}" in path:
            raise ValueError(f"{path}: Hadoop's list of input paths cannot hold a name with ',', '{{' or '}}'")
        if basename(path).startswith(("_", ".")):
            raise ValueError(f"{path}: Hadoop leaves out files whose name begins with '_' or '.'; rename it")
    joined = ",".join("".join("\\" + c if c in _GLOB else c for c in path) for path in paths)
    return spark.sparkContext.binaryFiles(joined, minPartitions=partitions or max(len(paths), 1))


def read_small_file(spark, path):
    """The bytes of a small file on the driver: local paths directly, others through Spark."""
    local = _local(path)
    if local is not None:
        with open(local, "rb") as source:
            return source.read()
    pairs = spark.sparkContext.binaryFiles(path).collect()
    if len(pairs) != 1:
        raise FileNotFoundError(f"{path}: not one file")
    return pairs[0][1]


def exists(spark, path):
    local = _local(path)
    if local is not None:
        return os.path.isfile(local)
    jvm, conf = _hadoop(spark)
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return hadoop_path.getFileSystem(conf).isFile(hadoop_path)


def join(directory, name):
    """A path under `directory` (a local path or a URI); `name` may go up with '..'."""
    scheme, separator, rest = directory.partition(":")
    if not separator or "/" in scheme:
        return os.path.normpath(os.path.join(directory, name))
    authority = ""
    if rest.startswith("//"):
        authority, _, rest = rest[2:].partition("/")
        authority = "//" + authority
    return f"{scheme}:{authority}" + posixpath.normpath(posixpath.join("/" + rest.lstrip("/"), name))


def qualified(spark, path):
    """`path` as Spark names files: with its scheme (file:/…, hdfs://…), relative ones made absolute."""
    jvm, conf = _hadoop(spark)
    hadoop_path = jvm.org.apache.hadoop.fs.Path(path)
    return hadoop_path.getFileSystem(conf).makeQualified(hadoop_path).toString()


def _local(path):
    if path.startswith("file://"):
        return path[len("file://"):]
    if path.startswith("file:"):
        return path[len("file:"):]
    if "://" in path:
        return None
    return path


def basename(path):
    return path.rstrip("/").rsplit("/", 1)[-1]
