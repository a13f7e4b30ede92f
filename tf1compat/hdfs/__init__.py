"""hdfs:// for TensorFlow 2.21: a filesystem plugin, and a pure-Python fallback.

>>> from tf1compat import hdfs
>>> sorted(hdfs.plugin_status())
['built', 'disabled', 'error', 'hdfs_native_python', 'loaded', 'path', 'plugin_version']

- `ensure_registered()` loads the Rust plugin (built by `pip install` when cargo is
  present) so that tf.io.gfile, TextLineReader and TextLineDataset take hdfs:// paths.
  `import tf1compat` (or `modern`) calls it as soon as TensorFlow is imported
  (`on_import`), so plain TensorFlow code needs no call.
- `text_line_dataset(paths)` is TextLineDataset through the plugin when it loads, and a
  generator over hdfs-native (Python) otherwise, with the same lines in the same order.
- `read_lines`, `read_bytes`, `glob`, `exists` use hdfs-native directly.

Importing this package does not import TensorFlow.
"""

from tf1compat.hdfs.fallback import exists, glob, read_bytes, read_lines
from tf1compat.hdfs.plugin import ensure_registered, plugin_path, plugin_status


def text_line_dataset(paths, *, use_plugin: bool | None = None):
    """A `tf.data.Dataset` of the lines of hdfs:// (or local) files, in order.

    Args:
      paths: one path or a list of paths (str or bytes).
      use_plugin: None = the plugin if it registers, else the fallback; True = the
        plugin or an error; False = always the hdfs-native fallback.

    Returns:
      A dataset of scalar tf.string lines, as `tf.data.TextLineDataset` yields them.

    Raises:
      HdfsError: use_plugin=True and the plugin is unavailable (the message says why).
    """
    import tensorflow as tf  # lazy

    from tf1compat.shared.errors import HdfsError
    from tf1compat.hdfs.fallback import as_path_list, fallback_text_line_dataset

    files = as_path_list(paths)
    plugin = ensure_registered() if use_plugin in (None, True) else False
    if use_plugin and not plugin:
        raise HdfsError(
            "text_line_dataset(use_plugin=True): " + (plugin_status()["error"] or "plugin unavailable"),
            files[0] if files else None,
        )
    if plugin or not any("://" in f for f in files):
        return tf.data.TextLineDataset(files)
    return fallback_text_line_dataset(files)


__all__ = [
    "ensure_registered",
    "exists",
    "glob",
    "plugin_path",
    "plugin_status",
    "read_bytes",
    "read_lines",
    "text_line_dataset",
]
