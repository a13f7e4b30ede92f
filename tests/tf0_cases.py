"""TF 0.x -> 1.x cases shared by the run and migrate tests, and TensorFlow 1.15 to run them.

One script is written twice from the same cases: with the 0.x spelling
(`tf.pack`, `tf.concat(0, values)`, positional `logits, labels`) and with the
1.x spelling, which TensorFlow 1.15 itself runs as the reference (TF 1.15 no
longer has the 0.x names). The script prints every output as JSON.
"""

import os

import numpy as np

from isolated import last_json

# name, TF 0.x spelling (run on TF 2.21 under `tf1compat run`), TF 1.x spelling (TF 1.15).
CASES = [
    ("pack", "tf.pack([a, b], axis=1)", "tf.stack([a, b], axis=1)"),
    ("unpack", "tf.unpack(a)[1]", "tf.unstack(a)[1]"),
    ("mul", "tf.mul(a, b)", "tf.multiply(a, b)"),
    ("sub", "tf.sub(a, b)", "tf.subtract(a, b)"),
    ("neg", "tf.neg(a)", "tf.negative(a)"),
    ("inv", "tf.inv(a)", "tf.reciprocal(a)"),
    ("select", "tf.select(mask, a, b)", "tf.where(mask, a, b)"),
    ("complex_abs", "tf.complex_abs(z)", "tf.abs(z)"),
    ("listdiff", "tf.listdiff([1, 2, 3, 4], [2, 4])[0]", "tf.setdiff1d([1, 2, 3, 4], [2, 4])[0]"),
    ("batch_matmul_positional", "tf.batch_matmul(m3, m3, False, True)",
     "tf.matmul(m3, m3, adjoint_b=True)"),
    ("batch_matmul_keywords", "tf.batch_matmul(m3, m3, adj_x=True)",
     "tf.matmul(m3, m3, adjoint_a=True)"),
    ("concat_old", "tf.concat(1, [a, b])", "tf.concat([a, b], 1)"),
    ("concat_old_tensor_axis", "tf.concat(tf.constant(0), [a, b])", "tf.concat([a, b], 0)"),
    ("concat_old_single", "tf.concat(0, a)", "tf.concat(a, 0)"),
    ("concat_new", "tf.concat([a, b], 0)", "tf.concat([a, b], 0)"),
    ("concat_keywords", "tf.concat(concat_dim=1, values=[a, b])", "tf.concat([a, b], axis=1)"),
    ("split_old", "tf.split(1, 2, a)[1]", "tf.split(a, 2, 1)[1]"),
    ("split_new", "tf.split(a, 2, 0)[0]", "tf.split(a, 2, 0)[0]"),
    ("split_keywords", "tf.split(split_dim=0, num_split=2, value=a)[1]",
     "tf.split(a, 2, axis=0)[1]"),
    ("softmax_xent_positional", "tf.nn.softmax_cross_entropy_with_logits(a, tf.nn.softmax(b))",
     "tf.nn.softmax_cross_entropy_with_logits(logits=a, labels=tf.nn.softmax(b))"),
    ("sparse_xent_positional", "tf.nn.sparse_softmax_cross_entropy_with_logits(a, classes)",
     "tf.nn.sparse_softmax_cross_entropy_with_logits(logits=a, labels=classes)"),
    ("sigmoid_xent_positional", "tf.nn.sigmoid_cross_entropy_with_logits(a, tf.sigmoid(b))",
     "tf.nn.sigmoid_cross_entropy_with_logits(logits=a, labels=tf.sigmoid(b))"),
    ("reverse_bools", "tf.reverse(a, [False, True])", "tf.reverse(a, [1])"),
    ("reverse_bool_tensor", "tf.reverse(a, tf.constant([True, True]))", "tf.reverse(a, [0, 1])"),
    ("reverse_axes", "tf.reverse(a, [0])", "tf.reverse(a, [0])"),
    ("batch_matrix_inverse", "tf.batch_matrix_inverse(spd)", "tf.matrix_inverse(spd)"),
    ("batch_matrix_determinant", "tf.batch_matrix_determinant(m3)", "tf.matrix_determinant(m3)"),
    ("batch_matrix_transpose", "tf.batch_matrix_transpose(m3)", "tf.matrix_transpose(m3)"),
    ("batch_matrix_diag", "tf.batch_matrix_diag(a)", "tf.matrix_diag(a)"),
    ("batch_band_part", "tf.batch_band_part(m3, 0, 0)", "tf.matrix_band_part(m3, 0, 0)"),
    ("batch_set_diag", "tf.batch_set_diag(m3, a)", "tf.matrix_set_diag(m3, a)"),
    ("batch_cholesky", "tf.batch_cholesky(spd)", "tf.cholesky(spd)"),
    ("batch_cholesky_solve", "tf.batch_cholesky_solve(tf.cholesky(spd), rhs)",
     "tf.cholesky_solve(tf.cholesky(spd), rhs)"),
    ("batch_matrix_solve", "tf.batch_matrix_solve(spd, rhs)", "tf.matrix_solve(spd, rhs)"),
    ("batch_matrix_triangular_solve", "tf.batch_matrix_triangular_solve(tf.cholesky(spd), rhs)",
     "tf.matrix_triangular_solve(tf.cholesky(spd), rhs)"),
    ("batch_matrix_solve_ls", "tf.batch_matrix_solve_ls(spd, rhs)", "tf.matrix_solve_ls(spd, rhs)"),
    ("batch_self_adjoint_eigvals", "tf.batch_self_adjoint_eigvals(spd)",
     "tf.self_adjoint_eigvals(spd)"),
    ("batch_self_adjoint_eig", "tf.batch_self_adjoint_eig(spd)[0]", "tf.self_adjoint_eig(spd)[0]"),
    ("batch_svd_positional", "tf.batch_svd(m3, False)", "tf.svd(m3, compute_uv=False)"),
    ("batch_fft", "tf.batch_fft(z)", "tf.fft(z)"),
    ("batch_ifft", "tf.batch_ifft(z)", "tf.ifft(z)"),
    ("batch_fft2d", "tf.batch_fft2d(z)", "tf.fft2d(z)"),
    ("batch_ifft2d", "tf.batch_ifft2d(z)", "tf.ifft2d(z)"),
    ("batch_fft3d", "tf.batch_fft3d(z3)", "tf.fft3d(z3)"),
    ("batch_ifft3d", "tf.batch_ifft3d(z3)", "tf.ifft3d(z3)"),
    ("per_image_whitening", "tf.image.per_image_whitening(image)",
     "tf.image.per_image_standardization(image)"),
    ("scalar_summary", "tf.scalar_summary('loss', tf.reduce_sum(a))",
     "tf.summary.scalar('loss', tf.reduce_sum(a))"),
    ("histogram_summary", "tf.histogram_summary('weights', a)", "tf.summary.histogram('weights', a)"),
    ("image_summary", "tf.image_summary('img', tf.reshape(image / 255.0, [1, 4, 4, 3]))",
     "tf.summary.image('img', tf.reshape(image / 255.0, [1, 4, 4, 3]))"),
    ("audio_summary", "tf.audio_summary('wave', tf.reshape(tf.sin(tf.range(16.0)), [1, 16]), 8000)",
     "tf.summary.audio('wave', tf.reshape(tf.sin(tf.range(16.0)), [1, 16]), 8000)"),
    ("merge_summary", "tf.merge_summary([tf.scalar_summary('m', tf.reduce_max(a))])",
     "tf.summary.merge([tf.summary.scalar('m', tf.reduce_max(a))])"),
]

# Builds the inputs, evaluates every case in one session and prints the results as JSON.
TEMPLATE = """
import json
import os
import numpy as np
import tensorflow as tf

rng = np.random.RandomState(7)
a = tf.constant(rng.uniform(0.5, 2.0, (2, 2)).astype(np.float32))
b = tf.constant(rng.uniform(0.5, 2.0, (2, 2)).astype(np.float32))
mask = tf.constant([[True, False], [False, True]])
classes = tf.constant([0, 1])
z = tf.constant(rng.uniform(-1, 1, (2, 4)) + 1j * rng.uniform(-1, 1, (2, 4)), tf.complex64)
z3 = tf.constant(rng.uniform(-1, 1, (2, 2, 2, 2)).astype(np.complex64))
m3 = tf.constant(rng.uniform(-1, 1, (2, 2, 2)).astype(np.float32))
spd = tf.matmul(m3, m3, transpose_b=True) + 2.0 * tf.eye(2, batch_shape=[2])
rhs = tf.constant(rng.uniform(-1, 1, (2, 2, 1)).astype(np.float32))
image = tf.constant(rng.uniform(0, 255, (4, 4, 3)).astype(np.float32))
cases = {
%(cases)s
}
%(variables)s
results = {}
with tf.Session() as sess:
    sess.run(%(init)s)
    for key, tensor in sorted(cases.items()):
        value = sess.run(tensor)
        if isinstance(value, bytes):
            results[key] = value.hex()
        elif np.iscomplexobj(value):
            results[key] = [np.real(value).tolist(), np.imag(value).tolist()]
        else:
            results[key] = np.asarray(value).tolist()
    results["zeros_variable"] = sess.run(zeros).tolist()
    results["ones_variable"] = sess.run(ones).tolist()
    %(writer)s
print(json.dumps(results))
"""

OLD_VARIABLES = ("zeros = tf.get_variable('zeros', [2, 3], initializer=tf.zeros_initializer)\n"
                 "ones = tf.get_variable('ones', [3], initializer=tf.ones_initializer)")
NEW_VARIABLES = ("zeros = tf.get_variable('zeros', [2, 3], initializer=tf.zeros_initializer())\n"
                 "ones = tf.get_variable('ones', [3], initializer=tf.ones_initializer())")
OLD_WRITER = ("writer = tf.train.SummaryWriter(os.environ['LOGDIR'], sess.graph); "
              "writer.add_summary(sess.run(tf.merge_all_summaries()), 1); writer.close()")
NEW_WRITER = ("writer = tf.summary.FileWriter(os.environ['LOGDIR'], sess.graph); "
              "writer.add_summary(sess.run(tf.summary.merge_all()), 1); writer.close()")


def script(column: int, skip: tuple = ()) -> str:
    """The cases' script: column 0 spells them as TF 0.x, 1 as TF 1.x; `skip` leaves cases out."""
    cases = "\n".join(f"    {case[0]!r}: {case[1 + column]}," for case in CASES
                      if case[0] not in skip)
    old = column == 0
    return TEMPLATE % {
        "cases": cases,
        "variables": OLD_VARIABLES if old else NEW_VARIABLES,
        "init": "tf.initialize_all_variables()" if old else "tf.global_variables_initializer()",
        "writer": OLD_WRITER if old else NEW_WRITER,
    }


def run_reference(path, env):
    import tf1_reference

    python = str(tf1_reference.require())  # skips without one, fails under CI
    # A clean environment: importing TF 2.21 sets TF2_BEHAVIOR=1 in the test process,
    # which would turn TF 1.15 eager; and this checkout's PYTHONPATH is not TF 1.15's.
    clean = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR")
             if key in os.environ}
    from tf1_reference import recorded

    result = recorded.run(python, [str(path)], cwd=path.parent, timeout=600, outputs=(),
                          env=dict(clean, TF_CPP_MIN_LOG_LEVEL="2", **env),
                          probe_env=list(env))
    assert result.returncode == 0, result.stderr[-4000:]
    return last_json(result)


def assert_same(ours, reference):
    """Every case agrees: floats within 1e-4, serialized summaries byte for byte."""
    assert sorted(ours) == sorted(reference)
    for key, expected in reference.items():
        if isinstance(expected, str):  # a serialized Summary, as hex
            assert ours[key] == expected, key
        else:
            np.testing.assert_allclose(np.array(ours[key]), np.array(expected), rtol=1e-4,
                                       atol=1e-4, err_msg=key)
