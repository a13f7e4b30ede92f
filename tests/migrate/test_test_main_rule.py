"""`migrate`: tf.test.main and googletest.main are reported (TF 2 renamed the benchmark flag)."""

import libcst as cst
from libcst.codemod import CodemodContext

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.test_main import TestMainRule


def test_test_main_calls_are_noted_with_the_renamed_flag():
    code = ("import tensorflow as tf\nfrom tensorflow.python.platform import googletest\n"
            "tf.test.main()\ngoogletest.main()\ntf.compat.v1.test.main(argv=None)\n"
            "main()\nabsltest.main()\n")
    rule = TestMainRule(CodemodContext())
    assert rule.transform_module(cst.parse_module(code)).code == code
    assert [(f.line, f.kind) for f in rule.findings] == [(3, Kind.NOTE), (4, Kind.NOTE),
                                                        (5, Kind.NOTE)]
    assert "--benchmark_filter=REGEX" in rule.findings[0].message
