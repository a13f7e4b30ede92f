"""The corpus's repository files: their format, and what `load` refuses with a clear message."""

from __future__ import annotations

import textwrap

import pytest

from tf1compat.corpus import manifest

GOOD = """
[repository]
repo = "someone/tf1-examples"
commit = "0123456789abcdef0123456789abcdef01234567"
date = "2018-01-02"
kind = "tutorial/general"

[[program]]
name = "someone-mlp"
path = "mlp.py"
blob = "89abcdef0123456789abcdef0123456789abcdef"
shape = "tutorial"
args = ["--steps", "3"]
data = [{ maker = "mnist", into = "{data}/mnist", train = 5500 }]
edits = [{ old = "epochs = 20", new = "epochs = 1" }]
success = "done"

[[skipped]]
path = "big.py"
reason = "needs ImageNet-pretrained weights"
"""


def write(tmp_path, text, name="someone+tf1-examples.toml"):
    (tmp_path / name).write_text(textwrap.dedent(text))
    return tmp_path


def test_a_repository_file_gives_its_programs_and_skips(tmp_path):
    corpus = manifest.load(write(tmp_path, GOOD))
    (program,) = corpus.programs
    assert program.repo == "someone/tf1-examples" and program.script.path == "mlp.py"
    assert program.args == ("--steps", "3")
    assert program.data[0].options == (("train", 5500),)
    assert program.edits[0].file == "mlp.py"   # an edit's file defaults to the script
    assert corpus.skipped[0].reason.startswith("needs ImageNet")
    assert corpus.repositories == {"someone/tf1-examples"}


@pytest.mark.parametrize("change, message", [
    (('shape = "tutorial"', 'shape = "toy"'), "shape='toy'; accepted: tutorial"),
    (('blob = "89ab', 'blob = "zz'), "is not 40 hex digits"),
    (('success = "done"', 'success = "("'), "success='(' is no regular expression"),
    (('success = "done"', 'sucess = "done"'), "unknown keys ['sucess']"),
    (('name = "someone-mlp"', 'name = "Someone MLP"'), "use lower-case letters"),
    (('edits = [{ old', 'edits = [{ file = "other.py", old'), "an edit of 'other.py'"),
])
def test_a_bad_entry_is_refused_with_the_key_and_value(tmp_path, change, message):
    with pytest.raises(manifest.ManifestError, match=None) as raised:
        manifest.load(write(tmp_path, GOOD.replace(*change)))
    assert message in str(raised.value)
    assert "someone+tf1-examples.toml" in str(raised.value)


def test_a_file_must_be_named_after_its_repository(tmp_path):
    with pytest.raises(manifest.ManifestError, match="must be named someone\\+tf1-examples.toml"):
        manifest.load(write(tmp_path, GOOD, name="other.toml"))


def test_a_name_used_twice_is_refused(tmp_path):
    write(tmp_path, GOOD)
    write(tmp_path, GOOD.replace("someone/tf1-examples", "other/repo"), name="other+repo.toml")
    with pytest.raises(manifest.ManifestError, match="'someone-mlp' is used twice"):
        manifest.load(tmp_path)


def test_the_digest_follows_what_tf115_sees_and_not_the_tolerances(tmp_path):
    (program,) = manifest.load(write(tmp_path, GOOD)).programs
    base = program.digest({"mnist": "v1"})
    import dataclasses
    assert dataclasses.replace(program, rtol=0.5, note="x").digest({"mnist": "v1"}) == base
    assert dataclasses.replace(program, args=("--steps", "4")).digest({"mnist": "v1"}) != base
    assert program.digest({"mnist": "v2"}) != base   # the data maker changed


def test_unknown_program_names_are_listed(tmp_path):
    corpus = manifest.load(write(tmp_path, GOOD))
    with pytest.raises(manifest.ManifestError, match="no corpus program named nope"):
        corpus.named(["nope"])


def test_the_committed_corpus_loads_and_each_program_uses_known_data_makers():
    from tf1compat.corpus import makers
    corpus = manifest.load()
    assert corpus.programs, "the committed corpus has no program"
    known = makers.all_makers()
    for program in corpus.programs:
        for data in program.data:
            assert data.maker in known, f"{program.name}: data maker {data.maker!r}"
