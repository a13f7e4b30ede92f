"""Command lines that end at a script: `tf1compat VERB [OPTIONS] SCRIPT [ARGS]`.

A verb's own options come before the script; everything after it is the
script's, passed on unchanged (as `python SCRIPT ARGS` would), even when an
argument looks like one of the verb's options or an abbreviation of one.
argparse cannot be told this: it classifies every argument as an option or not
before it matches positionals, so `run train.py --dev 1` fails as "ambiguous
option". So the command line is split here, by the verb's own option table
(an option that takes a value also takes the next argument), and only the part
before the script is given to argparse.

`--` before the script ends the verb's options (for a script named like an
option); one `--` right after the script is dropped, so the older spelling
`SCRIPT -- ARGS` still passes ARGS alone.
"""

from __future__ import annotations

import argparse
from typing import Optional, Sequence


class ScriptArgumentParser(argparse.ArgumentParser):
    """An ArgumentParser that, once `stop_at_script` was called on it, parses only the
    arguments before the script and puts the rest, unparsed, in `script_args`."""

    _script_dest: Optional[str] = None
    _script_option: Optional[str] = None

    def parse_known_args(self, args=None, namespace=None):
        if self._script_dest is None or args is None:
            return super().parse_known_args(args, namespace)
        own, script, script_args = split_at_script(self, list(args), self._script_option)
        asks_help = any(token in ("-h", "--help") for token in own)
        if script is None and self._script_option is None and not asks_help:
            self.error(f"the script is missing: {self.prog} [OPTIONS] SCRIPT [ARGS]")
        if script is None and self._script_option in args:
            self.error(f"{self._script_option} needs the script: {self.prog} [OPTIONS] "
                       f"{self._script_option} SCRIPT [ARGS]")
        if script is not None:  # `=` keeps a script named like an option a value
            own += [f"{self._script_option}={script}"] if self._script_option \
                else ["--", script]
        namespace, extras = super().parse_known_args(own, namespace)
        if extras:
            where = " before the script" if script is not None else ""
            self.error(f"unrecognized option {extras[0]!r}{where}; {self.prog}'s options are "
                       f"spelled in full (`{self.prog} --help` lists them), and everything "
                       "after the script is the script's")
        setattr(namespace, "script_args", script_args)
        return namespace, extras


def stop_at_script(parser: argparse.ArgumentParser, *, option: Optional[str] = None) -> None:
    """Makes `parser` end its options at the script: the positional `script` (or the
    value of `option`, e.g. "--script"); what follows goes to `args.script_args`."""
    if not isinstance(parser, ScriptArgumentParser):
        raise TypeError("stop_at_script needs a ScriptArgumentParser (build the subparsers "
                        "with parser_class=ScriptArgumentParser)")
    parser._script_dest = "script"
    parser._script_option = option


def _action_for(parser: argparse.ArgumentParser,
                token: str) -> tuple[Optional[argparse.Action], bool]:
    """The action `token` names exactly (no abbreviations), and whether it carries its
    value (`--opt=value`, `-oVALUE`)."""
    actions = parser._option_string_actions
    if token in actions:
        return actions[token], False
    if token.startswith("--") and "=" in token:
        return actions.get(token.split("=", 1)[0]), True
    if not token.startswith("--") and len(token) > 2 and token[:2] in actions:
        return actions[token[:2]], True
    return None, False


def _takes_value(action: argparse.Action) -> bool:
    return action.nargs != 0


def split_at_script(parser: argparse.ArgumentParser, argv: Sequence[str],
                    option: Optional[str] = None
                    ) -> tuple[list[str], Optional[str], list[str]]:
    """Splits `argv` into the verb's own arguments, the script and the script's arguments.

    The script is the first argument that is neither an option nor an option's value (or,
    with `option`, the value of that option). Unknown options stay with the verb's own
    arguments, for argparse to report.

    Returns:
      (own arguments, the script or None when there is none, the script's arguments).

    >>> parser = ScriptArgumentParser(prog="run", allow_abbrev=False)
    >>> _ = parser.add_argument("--device-map")
    >>> split_at_script(parser, ["--device-map", "x.py", "train.py", "--device-map", "y"])
    (['--device-map', 'x.py'], 'train.py', ['--device-map', 'y'])
    """
    own: list[str] = []
    index = 0
    while index < len(argv):
        token = argv[index]
        if option is None and token == "--":
            return (own, *_script_at(argv, index + 1))
        if option is not None and token.startswith(option + "="):
            return own, token.split("=", 1)[1], _after_script(argv[index + 1:])
        if option is not None and token == option:
            skip = 1 + (argv[index + 1:index + 2] == ["--"])  # `--script -- SCRIPT`
            return (own, *_script_at(argv, index + skip))
        if option is None and (not token.startswith("-") or token == "-"):
            return own, token, _after_script(argv[index + 1:])
        action, attached = _action_for(parser, token)
        own.append(token)
        index += 1
        if action is not None and _takes_value(action) and not attached \
                and index < len(argv):
            own.append(argv[index])
            index += 1
    return own, None, []


def _script_at(argv: Sequence[str], index: int) -> tuple[Optional[str], list[str]]:
    if index >= len(argv):
        return None, []
    return argv[index], _after_script(argv[index + 1:])


def _after_script(rest: Sequence[str]) -> list[str]:
    rest = list(rest)
    return rest[1:] if rest[:1] == ["--"] else rest
