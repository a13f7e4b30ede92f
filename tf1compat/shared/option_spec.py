"""The option model: what one declaration of a session option holds.

An `OptionSpec` is everything the project knows about one option, in one
place: its keyword, the ConfigProto field(s) it reads and writes, its check
(with the accepted values for errors), its command-line flag, its row of the
docs table, and its TF2 mapping: the steps it plans for a machine, each step
carrying how to apply itself and how to tell it is already in effect, and the
portable TF2 code a program should contain.

`SessionOptions`, the ConfigProto conversion, the CLI flags, `modern.plan`,
`modern.configure`, `explain` and the README table all read these specs; the
declarations themselves are in `option_gpu`, `option_runtime` and
`option_graph`, gathered in order by `option_table`.

Nothing here imports TensorFlow; a step imports it when it runs.
"""

from __future__ import annotations

import dataclasses
import enum
import numbers
import os
from typing import Any, Callable, NoReturn, Optional

from tf1compat.shared.errors import OptionError

Reject = Callable[..., NoReturn]


class Status(str, enum.Enum):
    """How a TF1 option fares in TF2 on a given machine."""

    APPLIED = "applied"
    APPROXIMATED = "approximated"
    NOT_APPLICABLE = "not applicable"
    UNSUPPORTED = "unsupported"


@dataclasses.dataclass(frozen=True)
class Step:
    """One TF2 call, with what it needs to run itself and to check itself.

    Attributes:
      action, args: the call as data (what reports and tests read).
      code: the call as Python text, for people.
      run: `run(*args)` makes the call.
      in_effect: `in_effect(*args)` tells whether the runtime already has it.
      fixed_at_start: TF2 refuses the call once its runtime started.
      needs: names the code text uses ("os", "gpus", "cpus", "modern").
    """

    action: str
    args: tuple
    code: str
    run: Callable[..., None] = dataclasses.field(default=None, compare=False, repr=False)
    in_effect: Optional[Callable[..., bool]] = dataclasses.field(default=None, compare=False,
                                                                 repr=False)
    fixed_at_start: bool = True
    needs: frozenset = frozenset()

    def apply(self) -> None:
        self.run(*self.args)

    def already_in_effect(self) -> bool:
        return self.in_effect is not None and bool(self.in_effect(*self.args))


def environ_step(name: str, value: str, why: str = "before the first op") -> Step:
    """A step that sets an environment variable TensorFlow reads when its runtime starts."""

    def set_environ(key: str, text: str) -> None:
        os.environ[key] = text

    return Step("set_environ", (name, value), f"os.environ[{name!r}] = {value!r}  # {why}",
                set_environ, lambda key, text: os.environ.get(key) == text, needs=frozenset({"os"}))


@dataclasses.dataclass(frozen=True)
class Portable:
    """TF2 code for an option that is the same on every machine.

    `lines` run where `needs` are defined (see `modern.code_text`); on a
    machine without GPUs the GPU loops simply do nothing.
    """

    lines: tuple[str, ...]
    needs: frozenset = frozenset()


# -- ConfigProto fields ---------------------------------------------------


def message_at(proto: Any, path: str) -> tuple[Any, str]:
    """(parent message, leaf name) of a dotted path; reading does not set fields."""
    *parents, leaf = path.split(".")
    for name in parents:
        proto = getattr(proto, name)
    return proto, leaf


@dataclasses.dataclass(frozen=True)
class Scalar:
    """A plain ConfigProto field; proto3's zero value reads as "not set".

    `same_value`: the field holds what the keyword takes (so code that sets the
    field from a variable can pass that variable to the keyword instead).
    """

    path: str
    from_proto: Callable[[Any], Any] = lambda raw: raw
    to_proto: Callable[[Any], Any] = lambda value: value
    same_value: bool = True

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,)

    def read(self, proto: Any) -> Any:
        parent, leaf = message_at(proto, self.path)
        raw = getattr(parent, leaf)
        return self.from_proto(raw) if raw else None

    def write(self, proto: Any, value: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        setattr(parent, leaf, self.to_proto(value))

    def clear(self, proto: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        parent.ClearField(leaf)


@dataclasses.dataclass(frozen=True)
class MapEntry:
    """One key of a ConfigProto map field, such as device_count['GPU']."""

    path: str
    key: str
    same_value = True

    @property
    def paths(self) -> tuple[str, ...]:
        return (f"{self.path}[{self.key!r}]",)

    def read(self, proto: Any) -> Any:
        parent, leaf = message_at(proto, self.path)
        return dict(getattr(parent, leaf)).get(self.key)

    def write(self, proto: Any, value: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        getattr(parent, leaf)[self.key] = value

    def clear(self, proto: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        getattr(parent, leaf).pop(self.key, None)


@dataclasses.dataclass(frozen=True)
class RepeatedText:
    """A repeated string field, read as a tuple."""

    path: str
    same_value = True

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,)

    def read(self, proto: Any) -> Any:
        parent, leaf = message_at(proto, self.path)
        return tuple(getattr(parent, leaf)) or None

    def write(self, proto: Any, value: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        parent.ClearField(leaf)
        getattr(parent, leaf).extend(value)

    def clear(self, proto: Any) -> None:
        parent, leaf = message_at(proto, self.path)
        parent.ClearField(leaf)


# -- command-line flags ---------------------------------------------------


def _integer(text: str) -> Any:
    """An int when it is one; otherwise the text, so the check names the option."""
    try:
        return int(text)
    except ValueError:
        return text


def _number(text: str) -> Any:
    try:
        return float(text)
    except ValueError:
        return text


@dataclasses.dataclass(frozen=True)
class Flag:
    """How an option appears on the command line (argparse keywords)."""

    kind: str = "text"  # "bool", "int", "number", "text" or "append"
    metavar: Optional[str] = None
    parse: Optional[Callable[[str], Any]] = None
    help_extra: str = ""

    def argparse_keywords(self) -> dict[str, Any]:
        import argparse

        if self.kind == "bool":
            return {"action": argparse.BooleanOptionalAction}
        parse = self.parse or {"int": _integer, "number": _number}.get(self.kind)
        keywords: dict[str, Any] = {"metavar": self.metavar}
        if parse is not None:
            keywords["type"] = parse
        if self.kind == "append":
            keywords["action"] = "append"
        return keywords


BOOL_FLAG = Flag("bool")
INT_FLAG = Flag("int", "N")


# -- checks shared by several declarations -----------------------------------


def check_bool(value: Any, reject: Reject) -> bool:
    if isinstance(value, bool):
        return value
    # numpy.bool_ is not a bool subclass but is what people pass from arrays.
    if type(value).__name__ == "bool_":
        return bool(value)
    reject()


def check_int_at_least(minimum: int) -> Callable[[Any, Reject], int]:
    def check(value: Any, reject: Reject) -> int:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
            reject()
        return int(value)

    return check


NOT_PROCESS_WIDE = object()


@dataclasses.dataclass(frozen=True)
class OptionSpec:
    """The one declaration of a session option.

    Attributes:
      keyword: the `SessionOptions` keyword (also `tf1compat.session(...)`'s).
      field: the ConfigProto field(s): `read`, `write`, `clear` and `paths`.
      check: `check(value, reject)` returns the normalised value or calls
        `reject(hint="")`, which raises `OptionError` naming the option.
      accepted: the accepted values, in words (for errors and flag help).
      tf2_call, note: the docs row (README table, `explain --table`).
      flag: the command-line flag.
      plan: `plan(planner)` adds this option's row(s) for the planner's machine.
      portable: `portable(value, options)` is the TF2 code for every machine.
      table_order: its row in the docs table (also the keyword order of
        `SessionOptions` and of migrated code).
      plan_order: where it is planned (TF2 needs visible devices before
        logical devices before growth, ...); ties keep table order.
      tf1_names: ConfigProto names people type as keywords (for suggestions).
      process_wide_default: for options TF1 fixes for the whole process with
        its first GPU session, the value TF uses when unset.
      show: the value as a user writes it (reports, keyword text).
    """

    keyword: str
    field: Any
    check: Callable[[Any, Reject], Any]
    accepted: str
    tf2_call: str
    note: str
    flag: Flag
    plan: Callable[[Any], None]
    portable: Callable[[Any, Any], Portable]
    table_order: int
    plan_order: int
    tf1_names: tuple[str, ...] = ()
    process_wide_default: Any = NOT_PROCESS_WIDE
    show: Callable[[Any], Any] = lambda value: value

    @property
    def tf1_field(self) -> str:
        return " / ".join(self.field.paths)

    @property
    def process_wide(self) -> bool:
        return self.process_wide_default is not NOT_PROCESS_WIDE

    def validate(self, value: Any) -> Any:
        """The normalised value (None stays None), or OptionError naming this option."""
        if value is None:
            return None

        def reject(hint: str = "") -> NoReturn:
            raise OptionError(self.keyword, value, self.accepted, hint)

        return self.check(value, reject)

    def flag_name(self) -> str:
        return "--" + self.keyword.replace("_", "-")
