"""The TF 0.x -> 1.0 API changes, as data: renamed functions, renamed keywords, new argument orders.

Derived from TensorFlow's own 0.x -> 1.0 upgrade table (the TF 1.x
`tf_upgrade.py` converter), so that `tf1compat run` can serve a 0.x name
(`tf.pack`, `tf.mul`, `tf.train.SummaryWriter`, ...) and `tf1compat migrate`
can rewrite it. Keys are names under `tf.` as a script spells them.

Two targets of that table never existed in TF 1.x (`tf.band_part`,
`tf.set_diag`); they are given here as the 1.x functions of the same op
(`matrix_band_part`, `matrix_set_diag`).

Data only: `tf1compat.runner.tf0_calls` serves it, `tf1compat.migrate.rules.tf0_names`
rewrites it. Importing this module does not import TensorFlow.
"""

from __future__ import annotations

from typing import Optional

# 0.x name -> 1.x name (both under `tf.`).
RENAMES: dict[str, str] = {
    "inv": "reciprocal",
    "listdiff": "setdiff1d",
    "list_diff": "setdiff1d",
    "mul": "multiply",
    "neg": "negative",
    "sub": "subtract",
    "select": "where",
    "complex_abs": "abs",
    "pack": "stack",
    "unpack": "unstack",
    "batch_matmul": "matmul",
    "train.SummaryWriter": "summary.FileWriter",
    "scalar_summary": "summary.scalar",
    "histogram_summary": "summary.histogram",
    "audio_summary": "summary.audio",
    "image_summary": "summary.image",
    "merge_summary": "summary.merge",
    "merge_all_summaries": "summary.merge_all",
    "contrib.deprecated.scalar_summary": "summary.scalar",
    "contrib.deprecated.histogram_summary": "summary.histogram",
    "image.per_image_whitening": "image.per_image_standardization",
    "all_variables": "global_variables",
    "initialize_all_variables": "global_variables_initializer",
    "initialize_variables": "variables_initializer",
    "initialize_local_variables": "local_variables_initializer",
    "batch_matrix_diag": "matrix_diag",
    "batch_band_part": "matrix_band_part",
    "batch_set_diag": "matrix_set_diag",
    "batch_matrix_transpose": "matrix_transpose",
    "batch_matrix_determinant": "matrix_determinant",
    "batch_matrix_inverse": "matrix_inverse",
    "batch_cholesky": "cholesky",
    "batch_cholesky_solve": "cholesky_solve",
    "batch_matrix_solve": "matrix_solve",
    "batch_matrix_triangular_solve": "matrix_triangular_solve",
    "batch_matrix_solve_ls": "matrix_solve_ls",
    "batch_self_adjoint_eig": "self_adjoint_eig",
    "batch_self_adjoint_eigvals": "self_adjoint_eigvals",
    "batch_svd": "svd",
    "batch_fft": "fft",
    "batch_ifft": "ifft",
    "batch_fft2d": "fft2d",
    "batch_ifft2d": "ifft2d",
    "batch_fft3d": "fft3d",
    "batch_ifft3d": "ifft3d",
}

# Keyword arguments renamed in 1.0, by the name the script calls (0.x or shared).
KEYWORD_RENAMES: dict[str, dict[str, str]] = {
    "batch_matmul": {"adj_x": "adjoint_a", "adj_y": "adjoint_b"},
    "count_nonzero": {"reduction_indices": "axis"},
    "reduce_all": {"reduction_indices": "axis"},
    "reduce_any": {"reduction_indices": "axis"},
    "reduce_max": {"reduction_indices": "axis"},
    "reduce_mean": {"reduction_indices": "axis"},
    "reduce_min": {"reduction_indices": "axis"},
    "reduce_prod": {"reduction_indices": "axis"},
    "reduce_sum": {"reduction_indices": "axis"},
    "reduce_logsumexp": {"reduction_indices": "axis"},
    "reduce_join": {"reduction_indices": "axis"},
    "expand_dims": {"dim": "axis"},
    "argmax": {"dimension": "axis"},
    "argmin": {"dimension": "axis"},
    "sparse_concat": {"concat_dim": "axis"},
    "sparse_split": {"split_dim": "axis"},
    "sparse_reduce_sum": {"reduction_axes": "axis"},
    "sparse_reduce_sum_sparse": {"reduction_axes": "axis"},
    "reverse_sequence": {"seq_dim": "seq_axis", "batch_dim": "batch_axis"},
    "squeeze": {"squeeze_dims": "axis"},
    "split": {"split_dim": "axis", "num_split": "num_or_size_splits"},
    "concat": {"concat_dim": "axis"},
}

# Positional parameters as 0.x had them, named as 1.x names them, by the name the
# script calls. Where 1.x takes them in another order (or by keyword only), a
# positional 0.x call means these names.
OLD_POSITIONS: dict[str, tuple[str, ...]] = {
    "split": ("axis", "num_or_size_splits", "value", "name"),
    "sparse_split": ("axis", "num_split", "sp_input", "name"),
    "concat": ("axis", "values", "name"),
    "svd": ("tensor", "compute_uv", "full_matrices", "name"),
    "batch_svd": ("tensor", "compute_uv", "full_matrices", "name"),
    "batch_matmul": ("a", "b", "adjoint_a", "adjoint_b", "name"),
    "nn.softmax_cross_entropy_with_logits": ("logits", "labels", "dim", "name"),
    "nn.sparse_softmax_cross_entropy_with_logits": ("logits", "labels", "name"),
    "nn.sigmoid_cross_entropy_with_logits": ("logits", "labels", "name"),
}

# 1.x functions that 1.x only takes by keyword: any positional call is a 0.x call.
KEYWORD_ONLY = ("sparse_split", "nn.softmax_cross_entropy_with_logits",
                "nn.sparse_softmax_cross_entropy_with_logits",
                "nn.sigmoid_cross_entropy_with_logits")

# 0.x functions that became initializer classes in 1.0: 0.x passed the function itself
# (`initializer=tf.zeros_initializer`) or called it with a shape.
BECAME_CLASSES = ("zeros_initializer", "ones_initializer")

# tf.reverse(tensor, dims): 0.x took one bool per dimension, 1.x the axes to reverse.
BOOL_DIMS_TO_AXES = ("reverse",)


def renamed(name: str) -> Optional[str]:
    """The 1.x name of a 0.x name under `tf.`, or None.

    >>> renamed('pack'), renamed('train.SummaryWriter'), renamed('stack')
    ('stack', 'summary.FileWriter', None)
    """
    return RENAMES.get(name)


def changed_call(name: str) -> bool:
    """Whether a call of `tf.<name>` may carry 0.x arguments that 1.x reads otherwise.

    >>> changed_call('concat'), changed_call('reverse'), changed_call('stack')
    (True, True, False)
    """
    return name in OLD_POSITIONS or name in BECAME_CLASSES or name in BOOL_DIMS_TO_AXES
