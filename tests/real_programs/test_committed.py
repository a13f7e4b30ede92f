"""The committed corpus data is what the code and the programs make now.

- Every program has TF 1.15's record, made from the program as it is named now (the digest of
  its files, edits, arguments and data makers): a changed entry needs `record` again.
- The results describe the code as it is: each verdict carries the digest of tf1compat and
  modern it was measured on; a change to either needs `measure --write` again.
- A fixed sample runs live under `tf1compat run` and is held to TF 1.15's record, where the
  programs' sources are on this machine (they are fetched, never committed).
"""

from __future__ import annotations

import re

import pytest

from tf1compat.corpus import judge, manifest, records, runs, sources, table

CORPUS = manifest.load()
# Deterministic programs of different shapes (a session tutorial, a gradient tutorial, a queue
# pipeline), quick under run: held live to TF 1.15's numbers.
LIVE_SAMPLE = ("morvanzhou-session", "hunkim-minimizing-cost-tf-gradient",
               "adventuresinml-tf-queuing")


@pytest.mark.parametrize("program", CORPUS.programs, ids=lambda p: p.name)
def test_each_program_has_tf115s_record_of_its_current_inputs(program):
    record = records.read_reference(program)
    assert record is not None, (f"no TF 1.15 record: run `python -m tf1compat.corpus record "
                                f"{program.name}`")
    assert record["digest"] == records.digest(program), (
        f"{program.name}'s entry or data makers changed since TF 1.15's record: run "
        f"`python -m tf1compat.corpus record {program.name}`")
    assert record["returncode"] == 0, f"TF 1.15 itself fails on {program.name}"
    assert re.search(program.success, record["stdout"] + "\n" + record["stderr"], re.MULTILINE)


def test_no_record_is_left_without_its_program():
    names = {p.name for p in CORPUS.programs}
    orphans = sorted(path.stem for path in records.TF115.glob("*.json") if path.stem not in names)
    assert not orphans, f"records of programs no longer in the corpus: {orphans}"


def test_the_results_describe_the_code_as_it_is():
    results = records.read_results()
    assert results is not None, "no results: run `python -m tf1compat.corpus measure --write`"
    code = records.code_digest()
    stale, missing = [], []
    for program in CORPUS.programs:
        entry = results["programs"].get(program.name, {})
        for mode in table.MEASURED_MODES:
            if mode not in entry:
                missing.append(f"{program.name}:{mode}")
            elif entry[mode]["code_digest"] != code:
                stale.append(f"{program.name}:{mode}")
    assert not missing, f"never measured: {missing[:10]} (`measure NAME... --write`)"
    assert not stale, (f"{len(stale)} verdicts were measured on other code than tf1compat and "
                       f"modern as they are now (e.g. {stale[:3]}): run `python -m "
                       f"tf1compat.corpus measure --write`")


def test_the_table_counts_what_the_results_say():
    results = records.read_results() or {"programs": {}}
    summary = table.totals(CORPUS, results)
    for mode in table.MEASURED_MODES:
        verdicts = [results["programs"][p.name][mode] for p in CORPUS.programs
                    if results["programs"].get(p.name, {}).get("tf115", {}).get("passed")
                    and mode in results["programs"][p.name]]
        assert summary[mode]["passed"] == sum(v["passed"] for v in verdicts)
        assert sum(summary[mode]["failures"].values()) == len(verdicts) - summary[mode]["passed"]


def test_the_docs_and_the_readme_show_the_totals_of_the_results():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    lines = table.totals_lines(CORPUS, records.read_results() or {"programs": {}})
    for page in ("docs/corpus.md", "README.md"):
        text = (root / page).read_text()
        block = text.split("<!-- corpus-totals -->", 1)[1].split("```text\n", 1)[1]
        shown = block.split("```", 1)[0].rstrip("\n").splitlines()
        assert shown[:len(lines)] == lines, f"{page} shows other totals than the results: " \
            f"run `python -m tf1compat.corpus` and copy its totals"


@pytest.mark.parametrize("name", LIVE_SAMPLE)
def test_a_sample_runs_under_run_as_it_did_under_tf115(name):
    (program,) = CORPUS.named([name])
    if not sources.available(program):
        pytest.skip(f"{name}'s files are not fetched on this machine (the corpus commits no "
                    f"program code): `python -m tf1compat.corpus fetch --mirrors DIR {name}`")
    verdict = judge.judge(program, runs.run(program, "run"), records.reference_outcome(program))
    assert verdict.passed, f"{verdict.failure}: {verdict.reason}"
