"""`tf1compat compare --tf1-python PATH --migrated-tf2 --script SCRIPT`: the corpus script
layers_model.py (Glorot-initialized Dense layers trained by Adam) under TF 1.15 and as its
`migrate --to tf2` rewrite, both from the TF1 run's initial checkpoint. TF 1.15's side (its
printed numbers and the checkpoint it wrote) comes from its record (tf1_reference/recorded)."""

import shutil
from pathlib import Path

import pytest

from isolated import run_cli
from tf1_reference import recorded
from tf1compat.cli.compare_tf2 import compare_migrated_tf2

CORPUS = Path(__file__).resolve().parents[1] / "legacy_scripts"


def recorded_tf1(command, cwd, env, timeout):
    """The TF1 side from its record; the checkpoint folder (after --save) is what it writes."""
    return recorded.run(command[0], command[1:], cwd=cwd, env=env, timeout=timeout,
                        outputs=[str(Path(command[3]).parent)])


def test_the_tf2_rewrite_matches_tf115_from_the_same_initial_checkpoint(
        tmp_path, monkeypatch, tf1_python):
    folder = tmp_path / "work"
    folder.mkdir()
    shutil.copy(CORPUS / "layers_model.py", folder)
    monkeypatch.chdir(folder)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    outcome, comparisons = compare_migrated_tf2(folder / "layers_model.py", [], tf1_python,
                                                None, 1e-4, 1e-6, 300, runner=recorded_tf1)
    assert outcome["ok"], outcome
    assert outcome["sides"]["tf2"]["converted"]  # no compat.v1 or tf1compat left
    # the loss after 20 Adam steps, and the count of variables; without the checkpoint
    # the Glorot draws differ and the loss is 0.454 under TF2 against TF 1.15's 0.362
    assert [(a.expected, a.actual) for a in comparisons["tf2"].agreements] == [
        ("0.362", "0.362"), ("4", "4")]


@pytest.mark.no_rewritten_ops
def test_bad_input_names_the_option_and_the_value(tmp_path):
    (tmp_path / "script.py").write_text("print(1)\n")
    absent = run_cli("compare", "--tf1-python", "/bin/sh", "--migrated-tf2",
                     "--init-checkpoint", str(tmp_path / "model.ckpt-7"), "--script",
                     str(tmp_path / "script.py"))
    assert absent.returncode == 2 and f"--init-checkpoint {tmp_path / 'model.ckpt-7'}: no " \
        f"{tmp_path / 'model.ckpt-7'}.index" in absent.stderr
    alone = run_cli("compare", "--tf1-python", "/bin/sh", "--init-checkpoint", "x",
                    "--script", str(tmp_path / "script.py"))
    assert alone.returncode == 2 and "--init-checkpoint x goes with --migrated-tf2" \
        in alone.stderr
    both = run_cli("compare", "--tf1-python", "/bin/sh", "--migrated", "--migrated-tf2",
                   "--script", str(tmp_path / "script.py"))
    assert both.returncode == 2 and "--migrated and --migrated-tf2: give one" in both.stderr
