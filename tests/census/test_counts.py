"""How often the census saw a name, as the errors of names tf1compat does not serve say it."""

import csv

from tf1compat.census import counts


def test_the_runner_paths_read_as_census_names():
    assert counts.census_name("contrib.rnn.GRUBlockCell") == "tf.contrib.rnn.GRUBlockCell"
    assert counts.census_name("python.framework.ops.convert_to_tensor") == \
        "tensorflow.python.framework.ops:convert_to_tensor"


def test_said_gives_the_census_numbers_of_the_name():
    with open(counts.USES, encoding="utf-8", newline="") as handle:
        row = next(row for row in csv.DictReader(handle) if row["name"].startswith("tensorflow."))
    with open(counts.REPOSITORIES, encoding="utf-8", newline="") as handle:
        repositories = len(list(csv.DictReader(handle)))
    path = "python." + row["name"][len("tensorflow.python."):].replace(":", ".")
    assert counts.count(path) == (int(row["uses"]), int(row["repositories"]))
    assert counts.said(path) == (f"used {row['uses']} times in {row['repositories']} of the "
                                 f"census's {repositories} repositories of TF1 code")
    assert counts.said("no_such_name_anywhere") == \
        f"not used in any of the census's {repositories} repositories of TF1 code"


def test_a_contrib_name_counts_every_spelling_scripts_wrote_it_in():
    # written as tensorflow.contrib.tpu.python.tpu.util.check_positive_integer; run's error
    # names it by its public path, and must not say the census never saw it
    with open(counts.REPOSITORY_USES, encoding="utf-8", newline="") as handle:
        rows = [row for row in csv.DictReader(handle)
                if row["name"] in ("tf.contrib.framework.arg_scope",
                                   "tensorflow.contrib.framework.python.ops:arg_scope")]
    assert {row["name"] for row in rows} == {"tf.contrib.framework.arg_scope",
                                             "tensorflow.contrib.framework.python.ops:arg_scope"}
    assert counts.count("contrib.framework.arg_scope") == (
        sum(int(row["uses"]) for row in rows), len({row["repo"] for row in rows}))
    assert counts.said("contrib.tpu.check_positive_integer").startswith("used 6 times in 1 ")
