"""`tf1compat run` takes the newer option flags and merges them into the script's sessions."""

import json
import textwrap

from isolated import run_cli


def test_rewrite_filters_and_allocator_flags_reach_the_scripts_session(tmp_path):
    path = tmp_path / "script.py"
    path.write_text(textwrap.dedent("""
        import tensorflow as tf
        with tf.Session() as sess:
            config = sess._config
            print('value', sess.run(tf.constant(2) * 3))
            print('rewrite', config.graph_options.rewrite_options.constant_folding,
                  config.graph_options.rewrite_options.remapping)
            print('filters', list(config.device_filters), config.gpu_options.allocator_type)
        """))
    report = tmp_path / "report.json"
    result = run_cli("run", "--rewrite-options", "constant_folding=off,remapping=on",
                     "--device-filters", "/job:ps,/job:worker/task:0", "--allocator-type", "BFC",
                     "--report-json", str(report), str(path))
    assert result.returncode == 0, result.stderr
    assert "value 6" in result.stdout
    assert "rewrite 2 1" in result.stdout  # RewriterConfig OFF, ON
    assert "filters ['/job:ps', '/job:worker/task:0'] BFC" in result.stdout
    [session] = json.loads(report.read_text())["sessions"]
    assert session["options"]["rewrite_options"] == {"constant_folding": False, "remapping": True}
    assert session["options"]["device_filters"] == ["/job:ps", "/job:worker/task:0"]


def test_a_bad_rewrite_flag_is_one_line_naming_the_option(tmp_path):
    path = tmp_path / "script.py"
    path.write_text("print('never')\n")
    result = run_cli("run", "--rewrite-options", "constant_folding=maybe", str(path))
    assert result.returncode != 0 and "never" not in result.stdout
    errors = [line for line in result.stderr.splitlines() if line.startswith("tf1compat")]
    assert len(errors) == 1 and "rewrite_options" in errors[0], result.stderr
    assert "Traceback" not in result.stderr
