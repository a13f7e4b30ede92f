"""The environment variable naming the TF1 checkpoint a migrated TF2 program starts from.

`tf1compat compare --migrated-tf2` sets it (the TF1 run's initial values) and
`modern.tf1_checkpoint.load_initial` reads it, so both worlds name it here once.
"""

INIT_CHECKPOINT_VARIABLE = "TF1_INIT_CHECKPOINT"
