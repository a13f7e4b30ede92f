"""The private TensorFlow names the code uses are the ones declared, and each is checked.

- every private TensorFlow name in tf1compat/ and modern/ is declared in
  `tf1compat.shared.tf_internal_table`, and every declaration is used;
- `check()` finds each declared name in this TensorFlow, and reports each one
  missing when it is taken away (one test per declared name);
- the table in docs/command-line.md is the declarations'.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from internals_absent import entries, make_absent

from tf1compat.shared import tf_internals
from tf1compat.shared.tf_internals import DECLARED

from tf1compat.shared import library_internal_table

from .tf_internal_uses import PYTHON_PRIVATES, all_uses, covers

ROOT = Path(__file__).resolve().parents[2]
TABLE = "tf1compat/shared/tf_internal_table.py"
LIBRARY_TABLE = "tf1compat/shared/library_internal_table.py"
OTHER_LIBRARIES = {name for internal in library_internal_table.DECLARED
                   for name in internal.attribute_names}
LOCATIONS = [location for internal in DECLARED for location in internal.locations]
ATTRIBUTES = {location.rpartition(".")[2] for location in LOCATIONS}


@pytest.fixture(scope="module")
def uses():
    return all_uses(ROOT, skip=(TABLE, LIBRARY_TABLE))


def test_every_private_tensorflow_module_name_used_is_declared(uses):
    dotted, _, _ = uses
    undeclared = [str(use) for use in dotted
                  if not any(covers(location, use.name) for location in LOCATIONS)]
    assert not undeclared, f"private TensorFlow names used but not declared in {TABLE}:\n" + \
        "\n".join(undeclared)


def test_every_private_attribute_of_another_library_is_declared_or_named(uses):
    _, attributes, defined = uses
    unknown = sorted({str(use) for use in attributes
                      if use.name not in defined and use.name not in PYTHON_PRIVATES
                      and use.name not in OTHER_LIBRARIES and use.name not in ATTRIBUTES})
    assert not unknown, ("private attributes the project does not define: declare TensorFlow's "
                         f"in {TABLE}, other libraries' in {LIBRARY_TABLE}:\n"
                         + "\n".join(unknown))


def test_every_declaration_is_used(uses):
    dotted, attributes, defined = uses
    source = "\n".join(path.read_text() for path in sorted(ROOT.glob("tf1compat/**/*.py"))
                       + sorted(ROOT.glob("modern/**/*.py")) if str(path.relative_to(ROOT)) != TABLE)
    names = {value: key for key, value in vars(tf_internals.tf_internal_table).items()
             if isinstance(value, tf_internals.TfInternal)}
    # A private method or attribute is used when it is read, or overridden by a subclass.
    attribute_names = {use.name for use in attributes} | defined
    dotted_names = {use.name for use in dotted}
    unused = []
    for internal in DECLARED:
        if re.search(rf"\b{names[internal]}\b", source):
            continue  # resolved, patched or required through its declaration
        unused += [location for location in internal.locations
                   if location not in dotted_names
                   and location.rpartition(".")[2] not in attribute_names]
    assert not unused, "declared but not used (remove them):\n" + "\n".join(unused)


def test_the_checker_finds_an_undeclared_use(tmp_path):
    package = tmp_path / "modern"
    package.mkdir()
    (tmp_path / "tf1compat").mkdir()
    (package / "new.py").write_text(
        "from tensorflow.python.framework import ops\n"
        "ops.Graph._private_thing\n"
        "import importlib\nimportlib.import_module('tensorflow.python.ops.gen_linalg_ops')\n")
    dotted, attributes, defined = all_uses(tmp_path)
    undeclared = {use.name for use in dotted if not any(covers(loc, use.name) for loc in LOCATIONS)}
    assert undeclared == {"tensorflow.python.framework.ops.Graph._private_thing",
                          "tensorflow.python.ops.gen_linalg_ops"}
    assert "_private_thing" in {use.name for use in attributes} - defined - ATTRIBUTES


@pytest.mark.parametrize("internal", DECLARED, ids=lambda internal: internal.label[:70])
def test_each_declaration_is_present_in_this_tensorflow(internal):
    assert tf_internals.missing(internal) == ()
    assert tf_internals.tensorflow_version() in internal.checked_on


@pytest.mark.parametrize("internal, name, instance", [
    (internal, name, instance) for internal in DECLARED for name, instance in entries(internal)],
    ids=lambda value: value.module if isinstance(value, tf_internals.TfInternal) else str(value))
def test_check_reports_each_name_missing(monkeypatch, internal, name, instance):
    make_absent(monkeypatch, internal, name, instance)
    status = {status.internal: status for status in tf_internals.check()}
    location = f"{internal.module}.{name}" if name else internal.module
    assert not status[internal].ok
    assert any(entry.startswith(location) for entry in status[internal].absent), \
        status[internal].absent
    with pytest.raises(tf_internals.MissingInternalError) as raised:
        tf_internals.require(internal)
    message = str(raised.value)
    assert location in message and internal.feature in message
    assert f"TensorFlow {tf_internals.tensorflow_version()}" in message
    assert "tested with TensorFlow 2.21.0" in message


def test_resolve_and_patch_go_through_the_declaration(monkeypatch):
    internal = tf_internals.NODE_ERROR_MESSAGE
    original = tf_internals.resolve(internal)
    from tensorflow.python.framework import error_interpolation

    assert original is error_interpolation._build_node_error_message
    from tf1compat.shared import patches

    monkeypatch.setattr(error_interpolation, "_build_node_error_message", original)
    try:
        returned = tf_internals.patch("tf.node-error-message",
                                      lambda f: lambda op: ("wrapped", f))
        assert returned is original
        assert error_interpolation._build_node_error_message(None) == ("wrapped", original)
        # made once: a second call changes nothing and returns the same original
        assert tf_internals.patch("tf.node-error-message", lambda f: "twice") is original
        assert error_interpolation._build_node_error_message(None) == ("wrapped", original)
    finally:
        assert patches.undo("tf.node-error-message")
    assert error_interpolation._build_node_error_message is original
    with pytest.raises(ValueError, match="not declared"):
        tf_internals.resolve(internal, "_something_else")


def test_quiet_deprecations_is_a_no_op_without_tensorflows_silence(monkeypatch):
    make_absent(monkeypatch, tf_internals.DEPRECATION_SILENCE, "silence")
    with tf_internals.quiet_deprecations():
        pass


def test_the_docs_table_is_the_declarations():
    readme = (ROOT / "docs" / "command-line.md").read_text()
    match = re.search(r"<!-- tf-internals:start -->\n(.*?)\n<!-- tf-internals:end -->", readme,
                      re.S)
    assert match, "docs/command-line.md lost its tf-internals markers"
    assert match.group(1) == tf_internals.markdown_table(), \
        "docs/command-line.md's internals table drifted: paste tf_internals.markdown_table() between the markers"
