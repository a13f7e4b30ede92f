"""TF1 image resizing as TF1 scripts wrote it: integer method codes, the method enum, and the
default (bilinear) method."""
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
with tf.Session() as sess:
    for name, value in sorted(sess.run(resized).items()):
        print(name, value.dtype, value.shape, " ".join("%.5f" % v for v in value.ravel()[:12]))
