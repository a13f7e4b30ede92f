"""Errors raised by tf1compat and modern.

Every error names what was wrong (the option, file or device), echoes the value
it received, and says what is accepted or how to fix the program, in one line
that the command-line interface can print without a traceback.
"""

from __future__ import annotations


class Tf1CompatError(Exception):
    """Base class of every error this project raises on purpose."""


class OptionError(Tf1CompatError, ValueError):
    """An option value that is rejected when a `SessionOptions` is built.

    Attributes:
      option: the keyword (or ConfigProto field) that was wrong.
      value: the value received.
      accepted: what would have been accepted, in words.
    """

    def __init__(self, option: str, value: object, accepted: str, hint: str = ""):
        self.option = option
        self.value = value
        self.accepted = accepted
        self.hint = hint
        message = f"invalid {option}: received {option}={value!r}; accepted: {accepted}"
        if hint:
            message += f" ({hint})"
        super().__init__(message)


class UnmappedConfigError(Tf1CompatError, ValueError):
    """A ConfigProto sets fields that have no SessionOptions keyword."""

    def __init__(self, fields: list[str]):
        self.fields = list(fields)
        super().__init__(
            "ConfigProto sets fields that tf1compat does not map: "
            + ", ".join(self.fields)
            + "; accepted: the fields of the option table (`tf1compat explain --table`), "
            "or pass unmapped='keep' to carry these fields through unchanged"
        )


class RuntimeAlreadyInitializedError(Tf1CompatError, RuntimeError):
    """TF2 device options were asked for after TensorFlow's runtime started."""


class DeviceError(Tf1CompatError, ValueError):
    """A device was asked for that this machine does not have, or cannot make."""


class GpuMemoryUnknownError(Tf1CompatError, RuntimeError):
    """A memory fraction needs each GPU's total memory, and nothing could report it."""


class ClusterError(Tf1CompatError, ValueError):
    """A cluster description (ClusterSpec, TF_CONFIG, hostfile) that cannot work.

    Raised for a task index out of range, a duplicate or malformed `host:port`,
    a job the training mode needs that is missing, or TF_CONFIG that is not
    valid JSON; the message echoes what was received.
    """


class LaunchError(Tf1CompatError, RuntimeError):
    """`tf1compat launch` could not start, or a task it started failed."""

class HdfsError(Tf1CompatError, OSError):
    """An hdfs:// operation failed.

    The message names the full hdfs:// URI (or the NameNode host:port), what was
    being done, and what to check. Subclasses also derive from the matching built-in
    (FileNotFoundError, PermissionError, ConnectionError), so ordinary `except
    OSError` code keeps working.

    Attributes:
      path: the hdfs:// URI (or host:port) the operation was about.
    """

    def __init__(self, message: str, path: str | None = None):
        self.path = path
        super().__init__(message)

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class HdfsNotFoundError(HdfsError, FileNotFoundError):
    """An hdfs:// path does not exist (or was deleted while a pipeline used it)."""


class HdfsPermissionError(HdfsError, PermissionError):
    """The NameNode refused the HDFS user (HADOOP_USER_NAME) access to a path."""


class HdfsConnectionError(HdfsError, ConnectionError):
    """The NameNode (or every DataNode holding a block) could not be reached in time."""


class HdfsPluginWarning(UserWarning):
    """The hdfs:// TensorFlow plugin is unavailable; tf1compat falls back or fails."""

class InputPipelineError(Tf1CompatError):
    """A CSV input pipeline (TF1 queues or tf.data) could not go on.

    Raised for what is not a bad file or a bad row: no session to run in, an
    `hdfs://` path while HDFS support is missing, threads that would not stop.
    """


class InputFileError(InputPipelineError, OSError):
    """An input path that cannot be read as CSV: missing, empty, a directory, no match.

    Attributes:
      path: the path, URL or glob pattern as resolved.
      reason: what was wrong with it, in words.
    """

    def __init__(self, path: str, reason: str, hint: str = ""):
        self.path = path
        self.reason = reason
        message = f"cannot read CSV input {path!r}: {reason}"
        if hint:
            message += f" ({hint})"
        super().__init__(message)


class BadRowError(InputPipelineError, ValueError):
    """A CSV row that does not decode with the pipeline's column types.

    Attributes:
      path: the file the row is in.
      line: the row's 1-based physical line number in that file (header lines count).
      text: the row as read, decoded as UTF-8 with replacement, at most 200 characters.
      reason: TensorFlow's decode error for the row alone, e.g.
        "Field 1 is not a valid int32: x".
    """

    def __init__(self, path: str, line: int, text: str, reason: str):
        self.path = path
        self.line = line
        self.text = text
        self.reason = reason
        super().__init__(
            f"bad CSV row at {path}:{line}: {reason}; received row {text!r} "
            "(fix the row, or pass on_bad_row='skip' to skip such rows and count them "
            "in `pipeline.bad_rows`)")
