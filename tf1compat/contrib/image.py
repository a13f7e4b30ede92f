"""`tf.contrib.image`'s projective transforms on TF 2.21's own kernel.

TF 1.x's contrib.image ran `ImageProjectiveTransformV2`; TF 2.21 still has that
op (`tf.raw_ops.ImageProjectiveTransformV2`, with its gradient registered), so
`transform`, `translate` and `rotate` build on it with contrib's contract:

- images of rank 2 (HW), 3 (HWC) or 4 (NHWC), of dtype uint8, int32, int64,
  float16, float32 or float64; the result has the input's rank and dtype;
- transforms: one flat transform [a0, a1, a2, b0, b1, b2, c0, c1] (shape [8])
  or one per image ([N, 8]), mapping *output* points to *input* points;
- points that fall outside the input are zeros; `interpolation` is NEAREST
  or BILINEAR (any case).

The helpers build flat transforms as contrib did: a translation [dx, dy] is
[1, 0, -dx, 0, 1, -dy, 0, 0]; a rotation by an angle (radians,
counterclockwise) turns about the image's centre. Other contrib.image names
(`dense_image_warp`, `connected_components`, ...) are not served.
"""

from __future__ import annotations

from typing import Any

from tf1compat.contrib import registry
from tf1compat.shared.lazy_tf import tensorflow as _tf

__all__ = ["transform", "translate", "rotate", "translations_to_projective_transforms",
           "angles_to_projective_transforms", "compose_transforms",
           "flat_transforms_to_matrices", "matrices_to_flat_transforms"]

_IMAGE_DTYPES = ("uint8", "int32", "int64", "float16", "float32", "float64")
_INTERPOLATIONS = ("NEAREST", "BILINEAR")


def _as_batch(images, function: str):
    """images (rank 2, 3 or 4) -> (NHWC batch, the input's rank)."""
    tf = _tf()
    images = tf.convert_to_tensor(images, name="images")
    if images.dtype.base_dtype.name not in _IMAGE_DTYPES:
        raise TypeError(f"tf.contrib.image.{function}: images has dtype {images.dtype.name}; "
                        f"accepted: {', '.join(_IMAGE_DTYPES)}")
    rank = images.shape.ndims
    if rank is None:
        raise TypeError(f"tf.contrib.image.{function}: the rank of images must be known when "
                        "the graph is built (give the placeholder a shape of rank 2, 3 or 4)")
    if rank == 2:
        return images[None, :, :, None], rank
    if rank == 3:
        return images[None], rank
    if rank == 4:
        return images, rank
    raise TypeError(f"tf.contrib.image.{function}: images has rank {rank} (shape "
                    f"{images.shape}); accepted: rank 2 (HW), 3 (HWC) or 4 (NHWC)")


def _as_input_rank(output, rank: int):
    if rank == 2:
        return output[0, :, :, 0]
    if rank == 3:
        return output[0]
    return output


def _interpolation(interpolation, function: str) -> str:
    mode = interpolation.upper() if isinstance(interpolation, str) else None
    if mode not in _INTERPOLATIONS:
        raise ValueError(f"tf.contrib.image.{function}: interpolation={interpolation!r}; "
                         f"accepted: {' or '.join(repr(m) for m in _INTERPOLATIONS)}")
    return mode


def transform(images, transforms, interpolation="NEAREST", output_shape=None, name=None):
    """Applies projective transform(s) (output point -> input point) to image(s).

    Raises:
      TypeError: images of another dtype or rank, or transforms not of rank 1 or 2.
      ValueError: interpolation other than NEAREST/BILINEAR, or output_shape not 2 values.
    """
    tf = _tf()
    with tf.name_scope(name or "transform"):
        batch, rank = _as_batch(images, "transform")
        mode = _interpolation(interpolation, "transform")
        transforms = tf.convert_to_tensor(transforms, name="transforms", dtype=tf.float32)
        if transforms.shape.ndims is None:
            raise TypeError("tf.contrib.image.transform: the rank of transforms must be known "
                            "when the graph is built ([8] or [N, 8])")
        if transforms.shape.ndims == 1:
            transforms = transforms[None]
        elif transforms.shape.ndims != 2:
            raise TypeError(f"tf.contrib.image.transform: transforms has shape "
                            f"{transforms.shape}; accepted: [8] (one transform) or [N, 8] "
                            "(one per image)")
        if output_shape is None:
            output_shape = tf.shape(batch)[1:3]
        output_shape = tf.convert_to_tensor(output_shape, tf.int32, name="output_shape")
        if not output_shape.shape.is_compatible_with([2]):
            raise ValueError(f"tf.contrib.image.transform: output_shape has shape "
                             f"{output_shape.shape}; accepted: 2 values, [new_height, "
                             "new_width]")
        output = tf.raw_ops.ImageProjectiveTransformV2(
            images=batch, transforms=transforms, output_shape=output_shape,
            interpolation=mode, fill_mode="CONSTANT")
        return _as_input_rank(output, rank)


def translations_to_projective_transforms(translations, name=None):
    """[dx, dy] or [N, 2] translations -> [N, 8] flat transforms."""
    tf = _tf()
    with tf.name_scope(name or "translations_to_projective_transforms"):
        translations = tf.convert_to_tensor(translations, name="translations", dtype=tf.float32)
        ndims = translations.shape.ndims
        if ndims == 1:
            translations = translations[None]
        elif ndims != 2:
            raise TypeError("tf.contrib.image.translations_to_projective_transforms: "
                            f"translations has shape {translations.shape}; accepted: [2] "
                            "([dx, dy]) or [N, 2] (one per image), of known rank")
        count = tf.shape(translations)[0]
        ones = tf.ones((count, 1), tf.float32)
        zeros = tf.zeros((count, 1), tf.float32)
        return tf.concat([ones, zeros, -translations[:, 0, None], zeros, ones,
                          -translations[:, 1, None], zeros, zeros], axis=1)


def angles_to_projective_transforms(angles, image_height, image_width, name=None):
    """A scalar angle or [N] angles (radians) -> [N, 8] rotations about the image centre."""
    tf = _tf()
    with tf.name_scope(name or "angles_to_projective_transforms"):
        angles = tf.convert_to_tensor(angles, name="angles", dtype=tf.float32)
        ndims = angles.shape.ndims
        if ndims == 0:
            angles = angles[None]
        elif ndims != 1:
            raise TypeError("tf.contrib.image.angles_to_projective_transforms: angles has "
                            f"shape {angles.shape}; accepted: a scalar or [N] (one per image)")
        cos, sin = tf.cos(angles), tf.sin(angles)
        # the centre stays put: the offsets undo the turn of the (w-1, h-1) corner about (0, 0)
        x_offset = ((image_width - 1) - (cos * (image_width - 1) - sin * (image_height - 1))) / 2.0
        y_offset = ((image_height - 1) - (sin * (image_width - 1) + cos * (image_height - 1))) / 2.0
        count = tf.shape(angles)[0]
        return tf.concat([cos[:, None], -sin[:, None], x_offset[:, None], sin[:, None],
                          cos[:, None], y_offset[:, None], tf.zeros((count, 2), tf.float32)],
                         axis=1)


def translate(images, translations, interpolation="NEAREST", name=None):
    """Shifts image(s) by [dx, dy] (or one [dx, dy] per image); uncovered pixels are zeros."""
    tf = _tf()
    with tf.name_scope(name or "translate"):
        return transform(images, translations_to_projective_transforms(translations),
                         interpolation=interpolation)


def rotate(images, angles, interpolation="NEAREST", name=None):
    """Turns image(s) counterclockwise by angle(s) in radians about their centre."""
    tf = _tf()
    with tf.name_scope(name or "rotate"):
        batch, rank = _as_batch(images, "rotate")
        height = tf.cast(tf.shape(batch)[1], tf.float32)[None]
        width = tf.cast(tf.shape(batch)[2], tf.float32)[None]
        output = transform(batch, angles_to_projective_transforms(angles, height, width),
                           interpolation=interpolation)
        return _as_input_rank(output, rank)


def flat_transforms_to_matrices(transforms):
    """[8] or [N, 8] flat transforms -> [N, 3, 3] matrices (output -> input coordinates)."""
    tf = _tf()
    with tf.name_scope("flat_transforms_to_matrices"):
        transforms = tf.convert_to_tensor(transforms, name="transforms")
        if transforms.shape.ndims not in (1, 2):
            raise ValueError("tf.contrib.image.flat_transforms_to_matrices: transforms has "
                             f"shape {transforms.shape}; accepted: [8] or [N, 8]")
        transforms = tf.reshape(transforms, [-1, 8])
        ones = tf.ones([tf.shape(transforms)[0], 1], transforms.dtype)
        return tf.reshape(tf.concat([transforms, ones], axis=1), [-1, 3, 3])


def matrices_to_flat_transforms(transform_matrices):
    """[3, 3] or [N, 3, 3] matrices -> [N, 8] flat transforms (each scaled so its [2, 2] is 1)."""
    tf = _tf()
    with tf.name_scope("matrices_to_flat_transforms"):
        matrices = tf.convert_to_tensor(transform_matrices, name="transform_matrices")
        if matrices.shape.ndims not in (2, 3):
            raise ValueError("tf.contrib.image.matrices_to_flat_transforms: "
                             f"transform_matrices has shape {matrices.shape}; accepted: "
                             "[3, 3] or [N, 3, 3]")
        flat = tf.reshape(matrices, [-1, 9])
        flat /= flat[:, 8:9]
        return flat[:, :8]


def compose_transforms(*transforms):
    """One flat transform doing each given transform in turn (all of the same shape)."""
    if not transforms:
        raise ValueError("tf.contrib.image.compose_transforms: give at least one transform")
    tf = _tf()
    with tf.name_scope("compose_transforms"):
        composed = flat_transforms_to_matrices(transforms[0])
        for more in transforms[1:]:
            composed = tf.matmul(composed, flat_transforms_to_matrices(more))
        return matrices_to_flat_transforms(composed)


def __getattr__(name: str) -> Any:
    return registry.attribute("image", name)
