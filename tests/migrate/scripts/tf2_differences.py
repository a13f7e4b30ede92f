"""TF1 calls whose TF 2 namesake (tf_upgrade_v2's output) gives another result: image resizing
with integer method codes, the method enum and the default method; a while_loop and a cond over
one tensor in a list; CTC beam search with TF1's default merging of repeated labels."""
import numpy as np
import tensorflow as tf

images = tf.constant(np.arange(2 * 4 * 5 * 3, dtype=np.float32).reshape(2, 4, 5, 3))
resized = {
    "default": tf.image.resize_images(images, [7, 6]),
    "nearest code": tf.image.resize_images(images, [7, 6], method=1),
    "bicubic code": tf.image.resize_images(images, [7, 6], 2),
    "area enum": tf.image.resize_images(images, [3, 2], method=tf.image.ResizeMethod.AREA),
    "aligned": tf.image.resize_images(images, [7, 6], align_corners=True),
}
counted = tf.while_loop(lambda i: i < 5, lambda i: i + 2, [tf.constant(0)])
chosen = tf.cond(tf.constant(True), lambda: [tf.constant(3.5)], lambda: [tf.constant(-1.0)])
probabilities = np.array([[[0.8, 0.1, 0.1]], [[0.8, 0.1, 0.1]], [[0.1, 0.1, 0.8]],
                          [[0.1, 0.8, 0.1]]], dtype=np.float32)
decoded, _ = tf.nn.ctc_beam_search_decoder(np.log(probabilities), np.array([4], np.int32),
                                           beam_width=1)
with tf.Session() as sess:
    for name, value in sorted(sess.run(resized).items()):
        print(name, value.dtype, value.shape, " ".join("%.5f" % v for v in value.ravel()[:12]))
    print("while_loop", type(counted).__name__ in ("Tensor", "SymbolicTensor"),
          sess.run(counted) * 10)
    print("cond", type(chosen).__name__ in ("Tensor", "SymbolicTensor"), sess.run(chosen) + 1)
    print("ctc", sess.run(tf.sparse_tensor_to_dense(decoded[0])).tolist())
