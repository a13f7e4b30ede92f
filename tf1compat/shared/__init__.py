"""The shared model: what the TF1 world (`tf1compat`) and the TF2 world (`modern`) both use.

- the option model: one declaration per option (`option_spec`; `option_gpu`,
  `option_runtime`, `option_graph`, gathered in `option_table`), `SessionOptions`
  (`options`), the ConfigProto conversion both ways (`proto_conversion`) and the
  TF2 steps a GPU option plans (`gpu_steps`);
- errors: the exceptions both worlds raise (`errors`) and TensorFlow's
  missing-device errors turned into one `DeviceError` (`device_errors`);
- placement data: `Placement`, `PlacedOp`, `short_device` (`placement`) and
  how a written op maps to the node that ran it (`written_ops`);
- the CSV file and row contract: the options (`csv_spec`), the files and how
  they are read (`csv_files`) and the bad-row rules (`csv_rows`), so that both
  input pipelines give the same rows in the same order and the same errors;
- clusters: `Cluster` (`cluster_spec`) and this task's server (`cluster_server`);
- towers' building blocks (`towers`: `replicate`, `sum_on`), the packages'
  lazy attributes (`lazy_exports`) and a function run once a module has been
  imported (`import_watch`);
- the private TensorFlow names both worlds rely on, declared (`tf_internal_table`)
  and resolved and checked (`tf_internals`);
- the MNIST tutorial reader both worlds serve (`mnist_reader`) and the variable naming
  the TF1 checkpoint a migrated program starts from (`initial_checkpoint`).

What it is not: no TF1 session machinery (sessions, queues, queue runners:
those are `tf1compat`'s), no tf.data, tf.function or tf.distribute (those are
`modern`'s). Nothing here imports either world, and nothing here imports
TensorFlow at import time. Every module name is public.
"""
