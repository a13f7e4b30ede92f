"""TF1 training scripts under TensorFlow 1.15, under `tf1compat run` and after `migrate`.

The question a user moving a TF1 script asks first: is it slower than it was?
Each script in benchmarks/vs_tf1_scripts/ (a dense `feed_dict` loop, a CNN on a
queue pipeline, an LSTM with `dynamic_rnn`, two towers on 2 logical CPUs, an
Estimator) is run in its own process in every form:

- `tf1.15`: the unmodified script under the TensorFlow 1.15 interpreter
  (`--tf1-python`, default the reference that tests/tf1_reference/setup.sh
  builds). TF 1.15 has no oneDNN switch: `TF_ENABLE_ONEDNN_OPTS` came with
  TF 2.5, and the tensorflow-cpu 1.15 wheel is not built with oneDNN (MKL).
- `run`: `python -m tf1compat.cli.main run --no-report SCRIPT` on TF 2.21;
- `migrated`: the script after `tf1compat migrate --write` (on a copy in a
  scratch folder), under plain `python` on TF 2.21;

the two TF 2.21 forms each with `TF_ENABLE_ONEDNN_OPTS=1` and `=0`. Every
script prints its own timing of its timed steps (warm-up steps, graph
building and session start excluded) as one line, `vs_tf1 timed steps=N
seconds=S`; the benchmark also times the whole process (import of
TensorFlow included). Runs are interleaved: each repeat goes round every
script and every form (the order of the forms rotating), so machine noise
hits all forms alike; the medians and the ratios against `tf1.15` come from
the same run.

    python benchmarks/vs_tf1.py [--repeats 3] [--scripts dense_feed_dict,...]
                                [--tf1-python PATH] [--json PATH] [--quick]

`--quick` (one repeat, a few timed steps) checks that every form runs; its
rates mean nothing. Prints two tables (steps/s, wall time), form x script,
each cell the median and its ratio against TF 1.15 (steps/s: above 1x is
faster; wall time: below 1x is faster).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
SCRIPTS_DIR = Path(__file__).resolve().parent / "vs_tf1_scripts"
# Script name -> timed steps under --quick (the scripts' own defaults otherwise).
SCRIPTS = {"dense_feed_dict": 5, "cnn_queue": 5, "rnn_dynamic": 5, "towers_cpu2": 20,
           "estimator_model_fn": 20}
FORMS = ("tf1.15", "run, oneDNN on", "run, oneDNN off", "migrated, oneDNN on",
         "migrated, oneDNN off")
REFERENCE = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / \
    "tf1compat" / "tf1-reference" / "bin" / "python"
TIMED_LINE = re.compile(r"^vs_tf1 timed steps=(\d+) seconds=([0-9.eE+-]+)$", re.M)
# Variables TF 2.21 sets or needs that must not reach TF 1.15 (TF2_BEHAVIOR would start it
# eager; PYTHONPATH would give it tf1compat).
TF2_ONLY = ("PYTHONPATH", "TF2_BEHAVIOR", "TF_USE_LEGACY_KERAS", "TF_ENABLE_ONEDNN_OPTS")


def environments() -> dict[str, dict[str, str]]:
    """Each form's environment."""
    quiet = {"TF_CPP_MIN_LOG_LEVEL": "2", "PYTHONWARNINGS": "ignore"}
    tf1 = {k: v for k, v in os.environ.items() if k not in TF2_ONLY} | quiet
    tf2 = dict(os.environ, **quiet, PYTHONPATH=os.pathsep.join(
        filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])))
    envs = {"tf1.15": tf1}
    for way in ("run", "migrated"):
        for switch, value in (("on", "1"), ("off", "0")):
            envs[f"{way}, oneDNN {switch}"] = dict(tf2, TF_ENABLE_ONEDNN_OPTS=value)
    return envs


def migrate_copies(names: list[str], folder: Path) -> dict[str, Path]:
    """Each script copied into `folder` and rewritten there as `tf1compat migrate --write` does."""
    copies = {}
    for name in names:
        copies[name] = folder / f"{name}.py"
        shutil.copy(SCRIPTS_DIR / f"{name}.py", copies[name])
    done = subprocess.run([sys.executable, "-m", "tf1compat.cli.main", "migrate", "--write",
                           *map(str, copies.values())], capture_output=True, text=True,
                          env=environments()["migrated, oneDNN on"])
    if done.returncode != 0:
        raise SystemExit(f"vs_tf1: tf1compat migrate failed:\n{done.stdout}{done.stderr}")
    return copies


def command(form: str, name: str, tf1_python: Path, migrated: dict[str, Path]) -> list[str]:
    script = str(SCRIPTS_DIR / f"{name}.py")
    if form == "tf1.15":
        return [str(tf1_python), script]
    if form.startswith("run"):
        return [sys.executable, "-m", "tf1compat.cli.main", "run", "--no-report", script]
    return [sys.executable, str(migrated[name])]


def run_once(argv: list[str], env: dict[str, str], cwd: Path) -> dict:
    """One process: its steps/s (from the script's own line) and its wall time, or its error."""
    start = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, env=env, cwd=str(cwd),
                              timeout=600)
    except subprocess.TimeoutExpired:
        return {"error": "timed out after 600 s"}
    wall = time.perf_counter() - start
    found = TIMED_LINE.findall(done.stdout)
    if done.returncode != 0 or not found:
        tail = (done.stderr.strip().splitlines() or ["(no stderr)"])[-1]
        return {"error": f"exit {done.returncode}: {tail[:300]}"}
    steps, seconds = int(found[-1][0]), float(found[-1][1])
    return {"steps_per_s": steps / seconds, "wall_s": wall}


def measure(names: list[str], forms: tuple[str, ...], repeats: int, quick: bool,
            tf1_python: Path, work: Path, progress: Optional[Path] = None
            ) -> dict[str, dict[str, list[dict]]]:
    """samples[script][form]: one dict per repeat, interleaved round-robin over the forms;
    written to `progress` after each round (a long run stopped early keeps what it measured)."""
    migrated = migrate_copies(names, work) if any(f.startswith("migrated") for f in forms) \
        else {}
    envs = environments()
    samples: dict[str, dict[str, list[dict]]] = {n: {f: [] for f in forms} for n in names}
    for repeat in range(repeats):
        order = forms[repeat % len(forms):] + forms[:repeat % len(forms)]
        for name in names:
            for form in order:
                argv = command(form, name, tf1_python, migrated)
                if quick:
                    argv.append(str(SCRIPTS[name]))
                samples[name][form].append(run_once(argv, envs[form], work))
        print(f"vs_tf1: round {repeat + 1} of {repeats} done", file=sys.stderr, flush=True)
        if progress is not None:
            progress.write_text(json.dumps({"rounds": repeat + 1, "samples": samples}))
    return samples


def summary(samples: dict[str, dict[str, list[dict]]]) -> dict[str, dict[str, dict]]:
    """Per script and form: the medians of the runs that worked, their count, and errors."""
    result: dict[str, dict[str, dict]] = {}
    for name, by_form in samples.items():
        result[name] = {}
        for form, runs in by_form.items():
            good = [run for run in runs if "error" not in run]
            cell: dict = {"runs": len(good), "errors": [r["error"] for r in runs if "error" in r]}
            if good:
                cell["steps_per_s"] = statistics.median(r["steps_per_s"] for r in good)
                cell["wall_s"] = statistics.median(r["wall_s"] for r in good)
            result[name][form] = cell
        base = result[name].get("tf1.15", {})
        for form, cell in result[name].items():
            if "steps_per_s" in cell and "steps_per_s" in base:
                cell["rate_ratio"] = cell["steps_per_s"] / base["steps_per_s"]
                cell["wall_ratio"] = cell["wall_s"] / base["wall_s"]
    return result


def table(result: dict[str, dict[str, dict]], forms: tuple[str, ...], key: str,
          ratio: str, unit: str) -> str:
    """A markdown table, form x script, each cell 'median (ratio x)'."""
    names = list(result)
    lines = ["| form | " + " | ".join(names) + " |", "|---" * (len(names) + 1) + "|"]
    for form in forms:
        cells = []
        for name in names:
            cell = result[name][form]
            if key not in cell:
                cells.append("failed")
                continue
            value = f"{cell[key]:.1f}{unit}" if key == "steps_per_s" else f"{cell[key]:.2f}{unit}"
            cells.append(value + (f" ({cell[ratio]:.2f}x)" if ratio in cell else ""))
        lines.append(f"| {form} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def tf1_has_onednn(tf1_python: Path) -> Optional[bool]:
    """Whether the TF 1.15 build has oneDNN (MKL) kernels at all (None: could not tell)."""
    probe = ("from tensorflow.python.framework import test_util\n"
             "print(bool(test_util.IsMklEnabled()))")
    done = subprocess.run([str(tf1_python), "-c", probe], capture_output=True, text=True,
                          env=environments()["tf1.15"])
    lines = done.stdout.split()
    return lines[-1] == "True" if done.returncode == 0 and lines else None


def main(argv: Optional[list[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--scripts", default=",".join(SCRIPTS),
                        help=f"comma-separated, from: {', '.join(SCRIPTS)}")
    parser.add_argument("--tf1-python", type=Path, default=Path(
        os.environ.get("TF1COMPAT_TF1_REFERENCE_PYTHON") or REFERENCE))
    parser.add_argument("--json", type=Path, help="also write the samples and medians here")
    parser.add_argument("--quick", action="store_true",
                        help="one repeat of a few timed steps: every form runs, rates mean nothing")
    args = parser.parse_args(argv)
    names = [name for name in args.scripts.split(",") if name]
    unknown = [name for name in names if name not in SCRIPTS]
    if unknown:
        parser.error(f"--scripts: unknown {unknown}; known: {', '.join(SCRIPTS)}")
    if not args.tf1_python.exists():
        parser.error(f"--tf1-python {args.tf1_python}: no such file (a python with "
                     "tensorflow-cpu==1.15.0; tests/tf1_reference/setup.sh builds one)")
    repeats = 1 if args.quick else args.repeats
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="vs-tf1-") as name:
        samples = measure(names, FORMS, repeats, args.quick, args.tf1_python, Path(name),
                          args.json.with_suffix(".partial.json") if args.json else None)
    load_after = os.getloadavg()
    result = summary(samples)
    onednn = None if args.quick else tf1_has_onednn(args.tf1_python)  # --quick: kept cheap
    print(f"TF1 training scripts: {repeats} run(s) of each form, interleaved, median "
          f"({'--quick: a few steps, rates mean nothing; ' if args.quick else ''}"
          f"{os.cpu_count()} CPUs, load average {load_before[0]:.1f} at the start, "
          f"{load_after[0]:.1f} at the end)")
    print(f"TF 1.15 has no oneDNN switch (TF_ENABLE_ONEDNN_OPTS came with TF 2.5); this build "
          f"has oneDNN kernels: {'unknown' if onednn is None else 'yes' if onednn else 'no'}")
    print("\nsteps/s of the timed steps (ratio: x TF 1.15's rate; above 1x is faster)")
    print(table(result, FORMS, "steps_per_s", "rate_ratio", "/s"))
    print("\nwall time of the whole process (ratio: x TF 1.15's time; below 1x is faster)")
    print(table(result, FORMS, "wall_s", "wall_ratio", " s"))
    failures = [f"  {n} / {f}: {e}" for n, by in result.items() for f, c in by.items()
                for e in c["errors"]]
    if failures:
        print("\nfailed runs:\n" + "\n".join(failures))
    if args.json:
        args.json.write_text(json.dumps({"repeats": repeats, "load": [load_before, load_after],
                                         "tf1_onednn": onednn, "samples": samples,
                                         "medians": result}, indent=1))
        args.json.with_suffix(".partial.json").unlink(missing_ok=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
