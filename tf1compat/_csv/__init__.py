"""What the TF1 and TF2 CSV input pipelines share.

`tf1compat.input_pipeline` (queues, sessions) and `modern.input_pipeline`
(tf.data) take the same options (`spec`), resolve and check the same files
(`files`) and find, report or raise bad rows the same way (`rows`), so that
both sides give the same rows in the same order and the same errors. Nothing
here imports TensorFlow at import time.
"""
