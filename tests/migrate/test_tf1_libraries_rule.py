"""`migrate`: an import of an installed library that is TF1 code is reported where it is (the
migrated script would still fail there); other imports are not."""

import libcst as cst
from libcst.codemod import CodemodContext

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.tf1_libraries import Tf1LibrariesRule
from tf1compat.runner import tf1_libraries


def test_imports_of_a_tf1_library_are_reported_once_with_the_evidence(tmp_path, monkeypatch):
    site = tmp_path / "site-packages"
    for name, source in (("oldlib", "import tensorflow.contrib.slim as slim\n"),
                         ("newlib", "import tensorflow as tf\n")):
        (site / name).mkdir(parents=True)
        (site / name / "__init__.py").write_text(source)
    (site / "oldlib" / "layers.py").write_text("")
    monkeypatch.syspath_prepend(str(site))
    monkeypatch.setattr(tf1_libraries, "installed_roots", lambda: [str(site)])
    code = ("import os\nimport newlib\nfrom oldlib.layers import dense\nimport oldlib\n"
            "import no_such_package_here\n")
    rule = Tf1LibrariesRule(CodemodContext())
    out = rule.transform_module(cst.parse_module(code))
    assert out.code == code
    assert [(f.line, f.kind) for f in rule.findings] == [(3, Kind.NOT_CONVERTED)]
    message = rule.findings[0].message
    assert message.startswith("oldlib is an installed library that is TF1 code (oldlib/"
                              "__init__.py line 1 uses tensorflow.contrib.slim as it loads)")
    assert "tf1compat run" in message
