"""The seed topics, each written twice: a TF1 form (tf1compat) and a TF2 form (modern).

Run one alone from the checkout with `python -m examples.<name>`, or all of
them side by side with `tf1compat compare`. Not installed with the packages.
"""

# The order `tf1compat compare` runs them in.
EXAMPLES = (
    "session_options",
    "virtual_devices",
    "layer_placement",
    "matmul_towers",
    "csv_pipeline",
    "baseline_loop",
    "keras_fit_mirrored",
    "custom_training_loop",
    "multi_worker",
)
