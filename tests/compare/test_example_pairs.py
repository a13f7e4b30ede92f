"""Every example, in its TF1 and its TF2 form, each in its own process, must agree."""

import importlib
import json
import subprocess
import sys

import pytest

from isolated import REPO_ROOT, python_env

sys.path.insert(0, str(REPO_ROOT))
import examples  # noqa: E402


def _run(name: str, form: str) -> dict:
    done = subprocess.run([sys.executable, "-m", f"examples.{name}", "--form", form, "--json",
                           "--size", "small"], capture_output=True, text=True, timeout=600,
                          cwd=str(REPO_ROOT), env=python_env())
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


# multi_worker starts several TensorFlow processes through launch: slow, like tests/cluster.
PAIRS = [pytest.param(name, marks=pytest.mark.cluster) if name == "multi_worker" else name
         for name in examples.EXAMPLES]


@pytest.mark.parametrize("name", PAIRS)
def test_tf1_and_tf2_forms_agree(name):
    module = importlib.import_module(f"examples.{name}")
    tf1, tf2 = _run(name, "tf1"), _run(name, "tf2")
    assert tf1["form"] == "tf1" and tf2["form"] == "tf2"
    agreed, detail = module.agree(tf1["result"], tf2["result"])
    assert agreed, detail
    if "history" in tf1["result"]:
        history = tf1["result"]["history"]
        assert history["loss"][-1] < history["loss"][0], "training did not reduce the loss"
        assert tf1["result"]["summary"] and tf2["result"]["summary"]
    if "test_accuracy" in tf1["result"].get("history", {}):
        assert tf1["result"]["history"]["test_accuracy"][-1] > 0.8


def test_every_example_module_is_listed():
    modules = {path.stem for path in (REPO_ROOT / "examples").glob("*.py")
               if "def tf1(" in path.read_text()}
    assert modules == set(examples.EXAMPLES)
