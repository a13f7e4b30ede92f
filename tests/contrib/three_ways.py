"""One TF1 script, three ways: TensorFlow 1.15 itself, `tf1compat run`, and after `migrate`.

The script prints `RESULT <json>` lines; the three lists are compared by the
test. TensorFlow 1.15 runs in its own interpreter (Python 3.7), the one
tests/tf1_reference locates; without it the test skips and says so (fails under CI).
"""

import json
import os
import textwrap


from isolated import python_env, run_cli, run_python



def results(stdout: str) -> list:
    return [json.loads(line[len("RESULT "):]) for line in stdout.splitlines()
            if line.startswith("RESULT ")]


def reference(path, env=None, outputs=()) -> list:
    """TF 1.15's results; `outputs`: files it writes next to the script that the test reads."""
    import tf1_reference
    from tf1_reference import recorded

    python = str(tf1_reference.require())
    # TF 2.21, once imported here, sets TF2_BEHAVIOR=1 in this process: TF 1.15 would obey it
    inherited = {k: v for k, v in os.environ.items() if k != "TF2_BEHAVIOR"}
    result = recorded.run(python, [str(path)], cwd=path.parent, timeout=300, outputs=outputs,
                          env={**inherited, "TF_CPP_MIN_LOG_LEVEL": "2", **(env or {})},
                          probe_env=list(env or {}))
    assert result.returncode == 0, result.stderr[-3000:]
    return results(result.stdout)


def three_ways(tmp_path, source: str, env=None) -> tuple[list, list, list]:
    """(TF 1.15's results, `tf1compat run`'s, the migrated script's)."""
    from tf1compat.migrate.driver import migrate_source

    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent(source))
    expected = reference(path, env)
    under_run = run_cli("run", str(path), env=env)
    assert under_run.returncode == 0, under_run.stderr[-3000:]
    migrated, _ = migrate_source(path.read_text(), str(path), "tf1compat")
    assert "tf.contrib" not in migrated and "tensorflow.contrib" not in migrated, migrated
    after = run_python(migrated, env=env)
    return expected, results(under_run.stdout), results(after.stdout)


def assert_close(expected, actual, tolerance: float, where: str = "") -> None:
    """Same structure; numbers within `tolerance` (absolute and relative), the rest equal."""
    if isinstance(expected, float) or isinstance(actual, float):
        assert expected == actual or abs(expected - actual) <= tolerance * max(1.0, abs(expected)), \
            f"{where}: {actual} != {expected} (tolerance {tolerance})"
    elif isinstance(expected, list):
        assert isinstance(actual, list) and len(actual) == len(expected), \
            f"{where}: {actual!r} != {expected!r}"
        for index, (e, a) in enumerate(zip(expected, actual)):
            assert_close(e, a, tolerance, f"{where}[{index}]")
    elif isinstance(expected, dict):
        assert isinstance(actual, dict) and sorted(actual) == sorted(expected), \
            f"{where}: keys {sorted(actual)} != {sorted(expected)}"
        for key in expected:
            assert_close(expected[key], actual[key], tolerance, f"{where}.{key}")
    else:
        assert expected == actual, f"{where}: {actual!r} != {expected!r}"


__all__ = ["three_ways", "assert_close", "python_env"]
