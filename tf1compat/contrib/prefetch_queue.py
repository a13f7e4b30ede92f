"""`tf.contrib.slim.prefetch_queue.prefetch_queue`: a FIFO queue filled by background threads.

Contract (TF 1.x slim): `prefetch_queue(tensors, capacity=8, num_threads=1,
dynamic_pad=False, shared_name=None, name=None)` makes a FIFOQueue
(PaddingFIFOQueue with dynamic_pad) of the tensors' dtypes and shapes (a
dict keeps its keys as the queue's names), registers a QueueRunner with
`num_threads` enqueue ops, records the summary `fraction_of_<capacity>_full`,
and returns the queue: `queue.dequeue()` gives the tensors back, which lets
each tower of a multi-GPU script take its own prefetched batch.
"""

from __future__ import annotations

__all__ = ["prefetch_queue"]


def prefetch_queue(tensors, capacity=8, num_threads=1, dynamic_pad=False, shared_name=None,
                   name=None):
    import tensorflow as tf

    v1 = tf.compat.v1
    if isinstance(tensors, dict):
        names = list(tensors)
        tensor_list = [tensors[key] for key in names]
    else:
        names, tensor_list = None, list(tensors)
    with v1.name_scope(name, "prefetch_queue", tensor_list):
        queue_class = v1.PaddingFIFOQueue if dynamic_pad else v1.FIFOQueue
        queue = queue_class(capacity=capacity, dtypes=[t.dtype for t in tensor_list],
                            shapes=[t.shape for t in tensor_list], names=names,
                            shared_name=shared_name)
        enqueue = queue.enqueue(tensors)
        v1.train.add_queue_runner(v1.train.QueueRunner(queue, [enqueue] * num_threads))
        v1.summary.scalar(f"fraction_of_{capacity}_full",
                          tf.cast(queue.size(), tf.float32) * (1.0 / capacity))
        return queue
