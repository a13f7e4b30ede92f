"""Makes Keras 3 `Model.fit` work under `MultiWorkerMirroredStrategy` (TF 2.21, Keras 3.15).

Keras 3's TensorFlow trainer fails with two workers or more, before the first
step (keras-team/keras#20585, tensorflow/tensorflow#72388, still open):

1. `fit` builds the model from a first batch with
   `strategy.reduce("MEAN", (x, y), axis=None)`. A tuple of PerReplica values
   is not something `reduce` accepts once the collective has to cross workers:
   "Attempt to convert a value (PerReplica:{...}) with an unsupported type".
   Building only needs the shapes of one local batch, so we take the local one.
2. After each step the logs (scalars: loss, metrics) are reduced with
   `strategy.reduce("MEAN", value, axis=0)`: "Invalid reduction dimension 0
   for input with 0 dimensions". For scalars we reduce with `axis=None` (the
   mean over replicas, which is what one worker reports).

`install()` patches those two places once per process, and only changes their
behaviour under a multi-worker collective strategy: single-process code runs
Keras's code unchanged. It is called by `modern.cluster.multi_worker_mirrored`.
When a Keras release fixes these, `install()` finds the attributes changed
and leaves them alone.
"""

from __future__ import annotations

import threading

from tf1compat.shared import patches

_lock = threading.Lock()
BUILD, REDUCE = "keras.multi-worker-build", "keras.reduce-per-replica"  # patch_table's keys


def _is_distributed(value) -> bool:
    import tensorflow as tf

    return isinstance(value, tf.distribute.DistributedValues)


def install() -> bool:
    """Applies both fixes (idempotent). Returns True if they are in place."""
    with _lock:
        if patches.is_installed(BUILD):
            return True
        try:
            from keras.src.backend.tensorflow import trainer as keras_trainer
        except ImportError:  # another Keras layout: nothing we know how to fix
            return False
        trainer_class = getattr(keras_trainer, "TensorFlowTrainer", None)
        original_build = getattr(trainer_class, "_maybe_symbolic_build", None)
        original_reduce = getattr(keras_trainer, "reduce_per_replica", None)
        multi_worker = getattr(keras_trainer, "_collective_all_reduce_multi_worker", None)
        if original_build is None or original_reduce is None or multi_worker is None:
            return False
        import tensorflow as tf

        def _maybe_symbolic_build(self, iterator=None, data_batch=None):
            strategy = self._distribute_strategy
            if strategy is None or iterator is None or not multi_worker(strategy):
                return original_build(self, iterator=iterator, data_batch=data_batch)
            for _, _, batches in iterator:
                first = next(batches)
                data_batch = tf.nest.map_structure(
                    lambda v: strategy.experimental_local_results(v)[0]
                    if _is_distributed(v) else v, first)
                break
            with strategy.scope():
                self._symbolic_build(data_batch=data_batch)

        def reduce_per_replica(values, strategy, reduction):
            if reduction not in ("auto", "mean") or not multi_worker(strategy):
                return original_reduce(values, strategy, reduction)

            def one(value):
                local = strategy.experimental_local_results(value)[0] \
                    if _is_distributed(value) else value
                if getattr(local, "shape", None) is not None and local.shape.rank == 0:
                    return strategy.reduce("MEAN", value, axis=None)
                return original_reduce(value, strategy, reduction)

            return tf.nest.map_structure(one, values)

        _maybe_symbolic_build.__wrapped__ = original_build
        reduce_per_replica.__wrapped__ = original_reduce
        with patches.all_or_nothing():
            patches.replace_attribute(BUILD, trainer_class, "_maybe_symbolic_build",
                                      lambda _: _maybe_symbolic_build)
            patches.replace_attribute(REDUCE, keras_trainer, "reduce_per_replica",
                                      lambda _: reduce_per_replica)
        return True
