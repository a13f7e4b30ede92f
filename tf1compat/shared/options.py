"""`SessionOptions`: one typed, frozen description of a TF1 session's options.

Both worlds read it: `tf1compat.session(...)` turns it into a ConfigProto and
`modern.configure(...)` into TF2 `tf.config` calls. Every value is checked
when the object is built, so a bad option fails where it was written, with an
error that names the option, the value received and what is accepted.

Building one does not import TensorFlow; converting to and from a ConfigProto
does (see `tf1compat.shared.proto_conversion`).
"""

from __future__ import annotations

import dataclasses
import difflib
import inspect
from typing import Any, Mapping, Optional

from tf1compat.shared import proto_conversion
from tf1compat.shared.errors import OptionError
from tf1compat.shared.option_graph import JitLevel
from tf1compat.shared.option_table import OPTION_SPECS, SPECS_BY_KEYWORD, TF1_NAME_ALIASES

__all__ = ["JitLevel", "SessionOptions", "from_keywords", "unknown_keyword_error"]


def unknown_keyword_error(name: str) -> OptionError:
    """Builds the error for a keyword that is not an option, with a suggestion."""
    if name in TF1_NAME_ALIASES:
        hint = f"{name} is the ConfigProto field; the keyword is {TF1_NAME_ALIASES[name]}"
    else:
        close = difflib.get_close_matches(name, list(SPECS_BY_KEYWORD), n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}?" if close else ""
    return OptionError("option name", name, "one of " + ", ".join(SPECS_BY_KEYWORD), hint)


def _docstring() -> str:
    rows = "\n".join(f"      {spec.keyword}: ConfigProto `{spec.tf1_field}`; {spec.accepted}."
                     for spec in OPTION_SPECS)
    return f"""The options of a TF1 session, valid by construction.

    `None` means "not set": each world then keeps its own default (for example
    soft placement is on in TF2 eager code and off in TF1 graph sessions).
    The keywords come from the option table (`tf1compat.shared.option_table`).

    Args (all keyword-only; see `tf1compat explain --table`):
{rows}
      passthrough: a serialized ConfigProto holding fields that have no
        keyword; kept so they are not lost (see `from_config_proto`).

    Raises:
      OptionError: a value is out of range or of the wrong type, or a keyword
        is unknown (the message suggests the closest one).

    >>> SessionOptions(growth=True, visible_gpus="0,1").visible_gpus
    (0, 1)
    """


class _SessionOptionsMethods:
    """What `SessionOptions` does; its fields are made from the option table below."""

    def __init__(self, **keywords: Any):
        unknown = [name for name in keywords if name not in _FIELD_NAMES]
        if unknown:
            raise unknown_keyword_error(sorted(unknown)[0])
        passthrough = keywords.pop("passthrough", None)
        if passthrough is not None and not isinstance(passthrough, bytes):
            raise OptionError("passthrough", passthrough,
                              "bytes of a serialized ConfigProto, or None")
        for spec in OPTION_SPECS:
            object.__setattr__(self, spec.keyword, spec.validate(keywords.get(spec.keyword)))
        object.__setattr__(self, "passthrough", passthrough or None)

    # -- building ---------------------------------------------------------

    @classmethod
    def coerce(cls, options: Any = None, /, **keywords: Any) -> "SessionOptions":
        """Returns SessionOptions from options, a ConfigProto, or keywords.

        A ConfigProto's fields that have no keyword are kept (`passthrough`):
        a TF1 session still honours them, and `modern.plan` reports them as
        unsupported rather than dropping them.

        Args:
          options: None, a `SessionOptions`, a `tf.compat.v1.ConfigProto`, its
            serialized bytes, or its text format.
          **keywords: option keywords; they override what `options` sets.

        Raises:
          OptionError: as for the constructor.
        """
        if options is None:
            return cls(**keywords)
        if isinstance(options, SessionOptions):
            base = options
        else:
            base = cls.from_config_proto(options, unmapped="keep")
        return base.replace(**keywords) if keywords else base

    @classmethod
    def from_config_proto(cls, proto: Any, *, unmapped: str = "error") -> "SessionOptions":
        """Reads a ConfigProto (object, serialized bytes or text format).

        Args:
          proto: a `tf.compat.v1.ConfigProto`, `bytes`, or `str` in text format.
          unmapped: what to do with set fields that have no keyword: "error"
            (raise, listing them) or "keep" (carry them in `passthrough`).

        Raises:
          UnmappedConfigError: unmapped="error" and such fields are set.
          OptionError: a mapped field holds a value we reject.
        """
        return cls(**proto_conversion.keywords_from_proto(proto, unmapped=unmapped))

    def to_config_proto(self):
        """Returns the equivalent `tf.compat.v1.ConfigProto`."""
        keywords = {spec.keyword: getattr(self, spec.keyword) for spec in OPTION_SPECS}
        return proto_conversion.proto_from_keywords(keywords, self.passthrough)

    def replace(self, **keywords: Any) -> "SessionOptions":
        """Returns a copy with the given keywords changed (validated)."""
        unknown = [k for k in keywords if k not in _FIELD_NAMES]
        if unknown:
            raise unknown_keyword_error(unknown[0])
        return dataclasses.replace(self, **keywords)

    def merged(self, defaults: "SessionOptions") -> "SessionOptions":
        """Returns these options with every unset keyword taken from `defaults`."""
        return self.replace(**{k: v for k, v in defaults.to_kwargs().items()
                               if getattr(self, k) is None})

    # -- reading ----------------------------------------------------------

    def to_kwargs(self) -> dict[str, Any]:
        """Returns the keywords that are set (not None), in table order."""
        return {f.name: getattr(self, f.name) for f in dataclasses.fields(self)
                if getattr(self, f.name) is not None}

    def is_set(self, keyword: str) -> bool:
        return getattr(self, keyword) is not None

    @property
    def gpu_options_key(self) -> tuple:
        """The options TensorFlow fixes for the whole process with the first GPU session."""
        return tuple(getattr(self, spec.keyword) for spec in OPTION_SPECS if spec.process_wide)

    def keyword_text(self) -> str:
        """The options as Python keyword text, e.g. "growth=True, cpus=2"."""
        return ", ".join(f"{key}={SPECS_BY_KEYWORD[key].show(value)!r}"
                         for key, value in self.to_kwargs().items() if key != "passthrough")


_FIELD_NAMES = frozenset([spec.keyword for spec in OPTION_SPECS] + ["passthrough"])

SessionOptions = dataclasses.make_dataclass(
    "SessionOptions",
    [(spec.keyword, Optional[Any], dataclasses.field(default=None)) for spec in OPTION_SPECS]
    + [("passthrough", Optional[bytes], dataclasses.field(default=None, repr=False))],
    bases=(_SessionOptionsMethods,), frozen=True, init=False,
    namespace={"__doc__": _docstring(), "__module__": __name__})
# help() and editors show the keywords, as if written out in __init__.
SessionOptions.__signature__ = inspect.Signature(
    [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=None)
     for name in [spec.keyword for spec in OPTION_SPECS] + ["passthrough"]])


def from_keywords(keywords: Mapping[str, Any]) -> SessionOptions:
    """SessionOptions from a mapping of keywords (unknown ones rejected)."""
    return SessionOptions(**dict(keywords))
