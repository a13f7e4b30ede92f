"""`migrate --to tf2`: TF1 session scripts rewritten as TF2 code (eager, `tf.function`,
Keras layers and optimizers), importing `tensorflow` and `modern` only.

`pipeline.to_tf2` runs it (`driver.migrate_source_tf2` falls back): the session options become `modern.configure(...)` (the tf1compat
rule, target modern), `flags` moves `tf.app` to absl, and `program` turns each block that
builds a graph and runs it in a session into variables, layers and optimizers created
once plus one function per `Session.run` shape (`tf.function` where it is fed or trains).
A file whose shape is not recognised gets today's `--to tf1compat` output, and the
report says, per construct and line, what stayed and why.
"""
