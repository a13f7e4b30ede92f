"""`tf1compat run [OPTIONS] SCRIPT [ARGS]`: run's options end at the script; every argument
after it reaches the script's sys.argv unchanged, even one that looks like run's own option or
an abbreviation of one."""

import argparse
import json

import pytest

from isolated import run_cli
from tf1compat.cli.main import build_parser
from tf1compat.cli.script_argv import ScriptArgumentParser, split_at_script, stop_at_script

# Each would match one of run's options (or abbreviate some) if argparse read it.
SCRIPT_ARGV = ["--device=cpu", "--dev", "1", "--rep", "3", "--over", "--user-root", "x",
               "--help"]
PRINTS_ARGV = "import json, sys\nprint(json.dumps(sys.argv[1:]))\n"


def printed_argv(result):
    assert result.returncode == 0, result.stderr[-3000:]
    return json.loads(result.stdout.strip().splitlines()[-1])


@pytest.mark.parametrize("before, after", [
    ([], []),
    (["--device-map", "gpu:*=cpu:*", "--report-json", "/dev/null"], []),  # values: not the script
    (["--override", "--"], []),  # `--` ends run's options
    ([], ["--"]),  # the older `SCRIPT -- ARGS`
])
def test_the_script_gets_every_argument_after_it(tmp_path, before, after):
    script = tmp_path / "argv.py"
    script.write_text(PRINTS_ARGV)
    result = run_cli("run", "--no-report", *before, str(script), *after, *SCRIPT_ARGV)
    assert printed_argv(result) == SCRIPT_ARGV


def test_a_script_named_like_an_option_after_a_double_dash(tmp_path):
    (tmp_path / "--odd.py").write_text(PRINTS_ARGV)
    result = run_cli("run", "--no-report", "--", "--odd.py", "--dev", cwd=tmp_path)
    assert printed_argv(result) == ["--dev"]


def test_run_options_are_spelled_in_full(tmp_path):
    script = tmp_path / "argv.py"
    script.write_text(PRINTS_ARGV)
    result = run_cli("run", "--over", str(script))
    assert result.returncode == 2 and "Traceback" not in result.stderr
    assert "tf1compat run: error: unrecognized option '--over' before the script" \
        in result.stderr
    missing = run_cli("run", "--no-report")
    assert missing.returncode == 2
    assert "tf1compat run: error: the script is missing: tf1compat run [OPTIONS] SCRIPT " \
        "[ARGS]" in missing.stderr


def test_the_split_follows_the_parser_options():
    args = build_parser().parse_args(
        ["run", "--report-json", "r.json", "--cpus=2", "--growth", "train.py", *SCRIPT_ARGV])
    assert (args.report_json, args.cpus, args.growth) == ("r.json", 2, True)
    assert args.script == "train.py" and args.script_args == SCRIPT_ARGV
    args = build_parser().parse_args(["compare", "--json", "--script", "t.py", "--json"])
    assert args.json and args.script == "t.py" and args.script_args == ["--json"]
    args = build_parser().parse_args(["launch", "-m", "pkg.train", "-m", "x"])
    assert args.module and args.script == "pkg.train" and args.script_args == ["-m", "x"]


def test_split_at_script_without_a_script():
    parser = ScriptArgumentParser(prog="p", allow_abbrev=False)
    parser.add_argument("--rules")
    assert split_at_script(parser, ["--rules", "a.py"]) == (["--rules", "a.py"], None, [])
    assert split_at_script(parser, ["--script=t.py", "x"], "--script") == ([], "t.py", ["x"])
    with pytest.raises(TypeError, match="needs a ScriptArgumentParser"):
        stop_at_script(argparse.ArgumentParser())
