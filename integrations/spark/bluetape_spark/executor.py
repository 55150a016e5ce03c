"""What runs on each executor: the bluetape binary, found and started with a capture on its standard
input, its output read line by line as it comes (a capture's readings are never held whole).

Nothing here imports Spark at module level, so it can be tested and used without a cluster.
"""
import os
import shutil
import stat
import subprocess
import tempfile
import threading

# Bluetape's exit codes (README): 0 ok, 1 differences, 2 usage error, 3 unreadable or damaged input.
USAGE_ERROR = 2

# The most of a run's standard error kept for its error row: enough for every message a damaged
# capture gives, bounded so that a capture that warns on every record cannot fill an executor.
MAX_MESSAGES = 64 * 1024


class BluetapeNotFound(RuntimeError):
    pass


class BluetapeUsageError(RuntimeError):
    """Bluetape refused its arguments (exit code 2): the same for every capture, so the job stops."""


def resolve_binary(name):
    """The path of the bluetape binary on this node.

    - an absolute path, or one with a '/', is used as given (relative to the working directory,
      where YARN and Kubernetes unpack `--archives bluetape.tar.gz#bt`: "bt/bluetape");
    - a bare name is looked for among the files shipped with the job (`spark-submit --files`,
      `SparkContext.addFile`), then in the working directory, then on PATH.

    A shipped file that lost its executable bit is copied once to a private directory and made
    executable there.
    """
    candidates = []
    if "/" in name:
        candidates.append(name)
    else:
        try:
            from pyspark import SparkFiles

            candidates.append(SparkFiles.get(name))
        except Exception:  # not inside Spark, or no files shipped
            pass
        candidates.append(os.path.join(os.getcwd(), name))
        found = shutil.which(name)
        if found:
            candidates.append(found)
    for candidate in candidates:
        if os.path.isfile(candidate):
            return _executable(os.path.abspath(candidate))
    raise BluetapeNotFound(
        f"bluetape binary '{name}' not found on this node (looked in: {', '.join(candidates) or 'PATH'}); "
        "ship it with spark-submit --files or --archives, or give a path present on every node")


_copies = {}
_copies_lock = threading.Lock()


def _executable(path):
    if os.access(path, os.X_OK):
        return path
    with _copies_lock:
        if path not in _copies:
            directory = tempfile.mkdtemp(prefix="bluetape-bin-")
            copy = os.path.join(directory, os.path.basename(path))
            shutil.copyfile(path, copy)
            os.chmod(copy, os.stat(copy).st_mode | stat.S_IXUSR)
            _copies[path] = copy
        return _copies[path]


class Run:
    """`bluetape ARGS…` with `data` on standard input. Iterating gives its standard output, one line
    (bytes, without the newline) at a time; afterwards `returncode` and `messages` (standard error,
    as text) are set. Standard input is written and standard error read on threads of their own,
    so that no pipe fills while another waits."""

    def __init__(self, binary, arguments, data, cwd=None):
        self.arguments = [binary] + list(arguments)
        self.data = data
        self.cwd = cwd
        self.returncode = None
        self.messages = ""

    def __iter__(self):
        process = subprocess.Popen(
            self.arguments, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            cwd=self.cwd, bufsize=1 << 16)
        errors = bytearray()

        def feed():
            try:
                view = memoryview(self.data)
                for start in range(0, len(view), 1 << 20):
                    process.stdin.write(view[start:start + (1 << 20)])
            except (BrokenPipeError, OSError):
                pass  # bluetape stopped reading (an unreadable capture): its exit code says why
            finally:
                try:
                    process.stdin.close()
                except OSError:
                    pass

        def drain():
            while True:
                chunk = process.stderr.read(1 << 14)
                if not chunk:
                    break
                if len(errors) < MAX_MESSAGES:
                    errors.extend(chunk[:MAX_MESSAGES - len(errors)])

        threads = [threading.Thread(target=feed, daemon=True), threading.Thread(target=drain, daemon=True)]
        for thread in threads:
            thread.start()
        try:
            for line in process.stdout:
                if line.endswith(b"\n"):
                    line = line[:-1]
                if line:
                    yield line
        finally:
            process.stdout.close()
            for thread in threads:
                thread.join()
            self.returncode = process.wait()
            self.messages = errors.decode("utf-8", "replace")
        if self.returncode == USAGE_ERROR:
            message = "; ".join(line[len("error: "):] if line.startswith("error: ") else line
                                for line in self.messages.strip().splitlines())
            raise BluetapeUsageError(f"bluetape {' '.join(self.arguments[1:])}: {message}")

    def failure(self, capture):
        """The run's problem as one message naming `capture`, or None when it ended well.
        Bluetape names standard input "standard input" (or "-"); the message names the capture."""
        if self.returncode == 0 or self.returncode == 1:
            return None
        lines = [_naming(line, capture) for line in self.messages.splitlines() if line.strip()]
        if self.returncode is not None and self.returncode < 0:
            lines.append(f"error: {capture}: bluetape ended with signal {-self.returncode}")
        elif not lines:
            lines.append(f"error: {capture}: bluetape ended with exit code {self.returncode}")
        return "\n".join(lines)


def _naming(line, capture):
    for prefix in ("error: ", "warning: "):
        for name in ("standard input: ", "-: "):
            if line.startswith(prefix + name):
                return prefix + capture + ": " + line[len(prefix + name):]
    return line


def one_thread(options):
    """`--jobs 1` unless `options` say otherwise: an executor runs a task per core, so each
    bluetape keeps to one thread instead of splitting its stages across cores already taken."""
    return [] if any(option == "--jobs" or option.startswith("--jobs=") for option in options) else ["--jobs", "1"]


def write_files(files, directory):
    """Writes {relative path: bytes} under `directory` (made if missing); returns the directory."""
    for relative, content in files.items():
        path = os.path.join(directory, relative)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as out:
            out.write(content)
    return directory
