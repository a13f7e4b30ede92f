"""TF1's private module paths: what TF 1.15's `tensorflow.python.*` modules held, and where
each of those names lives on TF 2.21.

TF1 scripts import TensorFlow's own modules (`from tensorflow.python.framework
import graph_util`), which TF 2.21 still has but with names moved out or
changed in meaning. `table` reads TF 1.15's side from committed data
(`tf115_modules.json`, written under TF 1.15 by
`tests/tf1_reference/tf115_private_modules.py`);
`homes` finds each name's TF1 home on TF 2.21. `tf1compat run` serves the
names from there (tf1compat.runner.private_modules); `migrate` rewrites them
to their public names (tf1compat.migrate.rules.private_paths).
"""
