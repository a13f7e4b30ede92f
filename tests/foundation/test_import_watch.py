"""tf1compat.shared.import_watch: a function run once a module has finished importing."""

import textwrap

from isolated import run_json


def test_callback_runs_after_the_module_code_once_and_failures_do_not_break_the_import(tmp_path):
    (tmp_path / "watched.py").write_text("VALUE = 41\n")
    (tmp_path / "broken_after.py").write_text("VALUE = 1\n")
    got = run_json(textwrap.dedent(f"""
        import json, sys, warnings
        sys.path.insert(0, {str(tmp_path)!r})
        from tf1compat.shared import import_watch
        seen = []
        import_watch.when_imported("watched", lambda m: seen.append(m.VALUE + 1))
        before = list(seen)
        import watched
        import importlib; importlib.reload(watched)
        import_watch.when_imported("watched", lambda m: seen.append("now"))  # already imported

        def fail(module):
            raise RuntimeError("boom")
        import_watch.when_imported("broken_after", fail)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import broken_after
        print(json.dumps({{"before": before, "seen": seen, "value": broken_after.VALUE,
                          "warnings": [str(w.message) for w in caught],
                          "pending": sorted(import_watch._pending)}}))
        """))
    assert got["before"] == []
    assert got["seen"] == [42, "now"]
    assert got["value"] == 1
    assert len(got["warnings"]) == 1 and "broken_after" in got["warnings"][0] \
        and "RuntimeError: boom" in got["warnings"][0]
    assert got["pending"] == ["tensorflow"]  # only import tf1compat's own hdfs:// watch is left
