"""A census of every TensorFlow 1 name public code uses.

`python -m tf1compat.census --mirrors DIR` recounts the repositories listed in
`tf1compat/census/data/repositories.csv` (git directories under DIR) and writes
`uses.csv`, `repositories.csv` and `repository_uses.csv` beside it; `--report`
prints the totals and the most used names per top-level module from the
committed data; `--folder DIR` counts a folder of your own; `--repo R` one
repository.

Names are written in one canonical form (`names.canonical`; how to resolve one
against TensorFlow 1.15 is `names.resolve`):

- `tf.<path>` for the public API, as `tensorflow` reaches it attribute by
  attribute (`tf.train.AdamOptimizer`, `tf.contrib.layers.flatten`,
  `tf.keras.layers.Dense`); `tensorflow.compat.v1` is the TF1 API itself, so
  `tf.compat.v1.placeholder` and `placeholder` under `import
  tensorflow.compat.v1 as tf` are both `tf.placeholder`; `tf` alone is the
  module (one use per `import tensorflow`);
- `tensorflow.<module>:<attribute>` for a name whose path goes through a part
  that is not public API (`python`, `core`, `examples`, `tools`, ...):
  `tensorflow.python.framework.graph_util:convert_variables_to_constants`,
  `tensorflow.contrib.framework.python.ops:arg_scope`. The part after the
  colon is the last part of the path, whichever way the script reached it
  (`from tensorflow.python.framework import graph_util` then
  `graph_util.convert_variables_to_constants`, or `import
  tensorflow.python.framework.graph_util as g` then `g.convert_...`).

`--contrib` prints the share of the `tf.contrib` uses that `run` and `migrate` serve
(`contrib_report`, asking `served` of each name); `--contrib-baseline` records today's
verdicts as the baseline it compares with.
"""
