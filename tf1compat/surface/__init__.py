"""The surface probe: every name of TensorFlow 1.15 held against what tf1compat serves.

As mypy's stubtest holds a stub against its runtime, each public name of TF 1.15's
`tf` (the v1 API) and `tf.contrib`, and each name a census of public TF1 code
counted, is resolved three ways and compared: under TensorFlow 1.15 (committed as
data, `reference`, written by `dump.py` under the reference interpreter), under
`tf1compat run` (`serve_run`: the TF1 view a user script gets) and after
`tf1compat migrate` under plain Python on TF 2.21 (`serve_migrate`). `compare`
says for each whether it is the same (kind, signature, constant value) or how it
differs; `python -m tf1compat.surface` prints the tables and the headline number.
"""
