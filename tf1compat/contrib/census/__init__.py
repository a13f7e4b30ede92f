"""A census of the `tf.contrib` names public TF1 code uses, and how tf1compat serves each.

`python -m tf1compat.contrib.census` recounts from the repositories listed in
`tf1compat/contrib/census_data/repositories.csv` (git directories under
`--mirrors`); `--report` prints the share of counted uses and of
repositories that `run` and `migrate` serve, at the census and now;
`--folder DIR` counts a folder of your own. Where it reads files, attribute
chains and CSV files is shared with the census of every TensorFlow name,
`tf1compat.census` (`sources` is that one's).
"""

from tf1compat.census import sources  # noqa: F401 - `tf1compat.contrib.census.sources`
