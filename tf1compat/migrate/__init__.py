"""`tf1compat migrate`: rewrite a TF1 script for TF 2.21, semantics included.

Step one is TensorFlow's own tf_upgrade_v2 (the renames to `tf.compat.v1.*`);
then one LibCST rule per module (`rules/`) adds what it lacks: ConfigProto
sessions become `tf1compat.session(...)` keywords or one `modern.configure(...)`,
`tf.layers` comes from legacy Keras, the script stays a graph program, and
what cannot be converted safely is left as is and reported with its line and
reason. `driver.migrate_file` does one file; the CLI verb does the batch.
"""

from tf1compat.migrate.driver import collect_paths, migrate_file, migrate_source

__all__ = ["collect_paths", "migrate_file", "migrate_source"]
