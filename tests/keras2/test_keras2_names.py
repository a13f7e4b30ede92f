"""The census's Keras 2 names against the Keras 2 that `tf1compat run` serves, and its errors."""

import json
import subprocess
import sys
import types

import pytest

from budgets import budget
from isolated import python_env, run_cli
from keras2 import reference
from tf1compat.census import keras_scan

USES = f"{keras_scan.DATA}/{keras_scan.USES}"


def _absent(stdout: str) -> dict:
    line = next(line for line in stdout.splitlines() if line.startswith("ABSENT "))
    return json.loads(line[len("ABSENT "):])


def test_every_counted_name_keras_2_3_has_resolves_under_run(tf1_python):
    in_keras2 = _absent(reference.run(tf1_python, [reference.SCRIPTS / "resolve_names.py",
                                                   USES]).stdout)
    served = run_cli("run", str(reference.SCRIPTS / "resolve_names.py"), USES)
    assert served.returncode == 0, served.stderr[-3000:]
    not_served = _absent(served.stdout)
    counted = sum(1 for _ in open(USES)) - 1
    assert counted > 150  # the census as committed: 201 names
    # Names Keras 2.3.1 itself lacks (Keras 1's optimizer_from_config, a script's typo) may
    # be missing; every other counted name must be there.
    assert set(not_served) <= set(in_keras2), sorted(set(not_served) - set(in_keras2))
    # A name that is not served fails naming itself and what to use instead.
    merge_error = next(line for line in served.stdout.splitlines() if line.startswith("MERGE "))
    assert "keras.layers.Merge" in merge_error and "keras.layers.Concatenate" in merge_error


MIGRATED_NAMES = """
import csv, json, sys
import libcst as cst
from libcst.codemod import CodemodContext
from tf1compat.migrate.rules.keras2 import Keras2Rule

skipped = set(json.loads(sys.argv[1]))
failed = {}
for row in csv.DictReader(open(sys.argv[2])):
    name = row["name"]
    module, _, last = name.rpartition(".")
    if name in skipped or not module:
        continue
    # As the census saw it: `from keras.x import y` (for a module, `import keras.x.y as m`).
    for line in (f"from {module} import {last} as target", f"import {name} as target"):
        code = Keras2Rule(CodemodContext()).transform_module(cst.parse_module(line + "\\n")).code
        try:
            exec(code, {})
            break
        except ImportError as error:
            failed[name] = code.strip() + ": " + str(error)
    else:
        continue
    failed.pop(name, None)
print("FAILED " + json.dumps(failed, sort_keys=True))
"""


def test_every_counted_name_keras_2_3_has_resolves_after_migrate(tf1_python, tmp_path):
    in_keras2 = _absent(reference.run(tf1_python, [reference.SCRIPTS / "resolve_names.py",
                                                   USES]).stdout)
    script = tmp_path / "migrated_names.py"
    script.write_text(MIGRATED_NAMES)
    result = subprocess.run([sys.executable, str(script), json.dumps(sorted(in_keras2)), USES],
                            capture_output=True, text=True, env=python_env(),
                            timeout=budget(240, floor=240))
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(line for line in result.stdout.splitlines() if line.startswith("FAILED "))
    assert json.loads(line[len("FAILED "):]) == {}


def test_the_counter_reads_keras_imports_and_chains_but_not_other_keras_packages():
    uses = keras_scan.count_source(
        "import keras.backend.tensorflow_backend as KTF\n"
        "from keras.layers import merge, LSTM\n"
        "import keras_retinanet.models\n"
        "KTF.set_session(None)\nLSTM(3)\nx = merge([a, b], mode='concat')\n")
    assert uses.counts == {"keras.backend.tensorflow_backend": 1,
                           "keras.backend.tensorflow_backend.set_session": 1,
                           "keras.layers.merge": 2, "keras.layers.LSTM": 2}


def test_without_tf_keras_user_code_importing_keras_gets_one_line_saying_what_to_install(
        tmp_path):
    from tf1compat.runner import keras2, shim, user_modules

    hook = types.SimpleNamespace(taggers=[], where=lambda: "?")
    keras2.install(False, hook)
    try:
        imports = shim.ImportHook(types.ModuleType("tf1"), [str(tmp_path)])
        with pytest.raises(ImportError) as raised:
            imports("keras.layers", {"__file__": str(tmp_path / "train.py")}, None, ("LSTM",))
    finally:
        user_modules.unregister("keras")
    message = str(raised.value)
    assert "\n" not in message and "tf1compat[legacy]" in message and "keras.layers" in message


def test_the_committed_keras_counts_are_those_of_their_repositories():
    """The data as committed: per-repository counts add up to the totals; with the mirrors
    (TF1COMPAT_CENSUS_MIRRORS), a recount of one repository gives its committed rows."""
    import collections
    import os

    from tf1compat.census import sources, tally

    per_repo = tally.read_rows(f"{keras_scan.DATA}/{keras_scan.REPOSITORY_USES}")
    totals = collections.Counter()
    for row in per_repo:
        totals[row["name"]] += int(row["uses"])
    assert totals == {row["name"]: int(row["uses"]) for row in tally.read_rows(USES)}
    mirrors = os.environ.get("TF1COMPAT_CENSUS_MIRRORS")
    repo = "oarriaga/face_classification"
    try:
        sources.git_dir(mirrors or "", repo)
    except FileNotFoundError:
        pytest.skip(f"TF1COMPAT_CENSUS_MIRRORS={mirrors!r} holds no git directory of {repo}: "
                    "the recount is not checked")
    row = next(r for r in tally.read_rows(f"{keras_scan.DATA}/repositories.csv")
               if r["repo"] == repo)
    counted = tally.count_repositories([row], mirrors, keras_scan.count_source)
    assert dict(counted.totals) == {r["name"]: int(r["uses"]) for r in per_repo
                                    if r["repo"] == repo}


KERAS_2_SPELLINGS = '''
import tensorflow as tf
import keras.backend.tensorflow_backend as KTF
from keras.layers import *
from keras.layers import merge
from keras.models import Sequential
from keras.utils import multi_gpu_model
import keras
print("chain", KTF.set_session is keras.backend.set_session, KTF._get_available_gpus())
print("star", Dense.__name__, LSTM(2).recurrent_activation.__name__)
a, b = Input(shape=(3,)), Input(shape=(3,))
print("merge", [tuple(merge([a, b], mode=m).shape.as_list()) for m in ("concat", "sum", "cos")])
print("ordering", keras.backend.image_dim_ordering())
try:
    multi_gpu_model(Sequential([Dense(1, input_shape=(2,))]), gpus=2)
except ValueError as error:
    print("towers", error)
import keras.legacy.interfaces
'''


def test_keras_2_spellings_under_run_and_a_name_not_served_failing_at_the_scripts_line(
        tmp_path):
    path = tmp_path / "spellings.py"
    path.write_text(KERAS_2_SPELLINGS)
    result = run_cli("run", "--no-report", str(path))
    assert result.returncode == 1
    out = result.stdout
    assert "chain True []" in out  # no GPU here, none mapped
    assert "star Dense sigmoid" in out  # Keras 2.3's LSTM default
    assert "merge [(None, 6), (None, 3), (None, 1)]" in out  # Keras 1's merge modes
    assert "ordering tf" in out
    assert "towers multi_gpu_model: gpus=2 needs /gpu:0, /gpu:1, but this process has no GPU" in out
    tail = result.stderr.strip().splitlines()
    assert tail[-1].startswith("tf1compat.runner.keras2.Keras2ImportError: No module named "
                               "'keras.legacy.interfaces'") and "Keras 2 arguments" in tail[-1]
    assert tail[-3].strip() == f'File "{path}", line 18, in <module>', tail[-4:]
