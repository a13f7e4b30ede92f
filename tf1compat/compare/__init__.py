"""Comparing runs number by number: compare's engine, used by `tf1compat compare`, the corpus,
`migrate --to tf2`'s measurements and the tests.

- `printed_numbers`: two printed outputs, line by line, number by number (integers exactly,
  floats within stated tolerances);
- `script`: a user's TF1 script under their TensorFlow 1 interpreter, under `tf1compat run`
  and after `migrate`, each side in its own copy of the working directory (`side_folder`);
- `migrated_tf2`: the script against its `migrate --to tf2` rewrite, both started from one
  TF1 checkpoint of the initial values (`tf1_initial_checkpoint.py` writes it under TF1);
- `examples`: the examples in their TF1 and TF2 forms; `plot` draws their training curves;
- `error_line`: the one line of a failed process's stderr that says why.
"""
