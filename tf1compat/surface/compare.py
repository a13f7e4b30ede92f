"""One name, TensorFlow 1.15's entry against one served here: same, or how it differs.

The rules, as stubtest's for a stub against its runtime, with TF 1.15 the reference:
- missing: the name does not resolve here (the error says why);
- other kind: module / class / function / constant / object differ (an object's type
  name too); a class where TF 1.15 had a function is held to the function's parameters
  (`called_alike`), as every use TF1 code could make of a function is a call;
- signature differs: a callable must take each of TF 1.15's parameters the way TF 1.15
  does: a positional one at the same position under the same name, a keyword one by
  name, with the same default; its `*args` / `**kwargs` if it had them; and require
  nothing TF 1.15 did not (a parameter here without a default that TF 1.15 lacks);
- not readable: TF 1.15's signature was read and this one cannot be, or it is only
  `(*args, **kwargs)`, which says nothing of the parameters;
- constant differs: the value forms (`reading.value_form`) are not equal.
A name whose TF 1.15 signature could not be read, or is only `(*args, **kwargs)` (the
wrappers of tf.keras.applications), is compared by kind only.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Any, Optional

from tf1compat.surface.reading import (KEYWORD_ONLY, POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD,
                                       VAR_KEYWORD, VAR_POSITIONAL)

SAME = "same"
MISSING = "missing"
KIND = "other kind"
SIGNATURE = "signature differs"
UNREADABLE = "not readable"
CONSTANT = "constant differs"
STATUSES = (SAME, MISSING, KIND, SIGNATURE, UNREADABLE, CONSTANT)
_POSITIONAL = (POSITIONAL_ONLY, POSITIONAL_OR_KEYWORD)
_VARIADIC = (VAR_POSITIONAL, VAR_KEYWORD)
_ARTICLE = {"module": "a module", "class": "a class", "function": "a function",
            "constant": "a constant", "object": "an object"}


@dataclasses.dataclass(frozen=True)
class Verdict:
    status: str
    detail: str = ""


# Enums TF 2.21 renamed, keeping TF 1.15's name as an alias of the same class
# (`tf.distribute.experimental.CollectiveCommunication is ...CommunicationImplementation`):
# a member of one is the member of the other. tests/surface checks each pair on TF 2.21.
ENUM_RENAMES = {"CollectiveCommunication": "CommunicationImplementation"}


def _enum_alias(form: Any) -> Any:
    if isinstance(form, dict) and set(form) == {"enum"}:
        owner, _, member = form["enum"].partition(".")
        if owner in ENUM_RENAMES:
            return {"enum": f"{ENUM_RENAMES[owner]}.{member}"}
    return form


def _canonical(form: Any) -> Any:
    if isinstance(form, bool) or form is None or isinstance(form, str):
        return [type(form).__name__, form]
    if isinstance(form, (int, float)):
        return ["number", float(form)]
    if isinstance(form, list):
        return [_canonical(item) for item in form]
    return {key: _canonical(value) for key, value in form.items()}


def same_form(a: Any, b: Any) -> bool:
    """Equal value forms: a number equals a number of the same value (0 and 0.0), but
    True is not 1 and a tuple is not a list."""
    return _canonical(_enum_alias(a)) == _canonical(_enum_alias(b))


def form_text(form: Any) -> str:
    """A value form as Python would show the value (`tf.float32`, `<Zeros>`, `'auto'`)."""
    if isinstance(form, dict):
        (key, inner), = form.items()
        if key == "dtype":
            return f"tf.{inner}"
        if key in ("enum", "float"):
            return str(inner)
        if key == "object":
            return f"<{inner} object>"
        if key in ("function", "class", "module"):
            return f"<{key} {inner}>"
        if key in ("tuple", "list", "set"):
            text = ", ".join(form_text(item) for item in inner)
            if key == "tuple" and len(inner) == 1:
                text += ","
            return {"tuple": "(%s)", "list": "[%s]", "set": "{%s}"}[key] % text
        return json.dumps(form)
    return repr(form)


def _text(form: Any) -> str:
    text = form_text(form)
    return text if len(text) <= 80 else text[:77] + "..."


def _what(entry: dict[str, Any]) -> str:
    kind = entry["kind"]
    if kind == "object":
        return f"an instance of {entry.get('type', '?')}"
    return _ARTICLE.get(kind, kind)


def compare(tf115: dict[str, Any], here: dict[str, Any]) -> Verdict:
    """How `here` (an entry read on TF 2.21) stands against TF 1.15's entry."""
    if here["kind"] == "absent":
        return Verdict(MISSING, here.get("error", ""))
    if called_alike(tf115, here) and "parameters" in here:
        difference = signature_difference(tf115["parameters"], here["parameters"])
        if difference is None:
            return Verdict(SAME, "a class here, taking TF 1.15's calls of the function")
        return Verdict(UNREADABLE if difference.startswith("(*") else SIGNATURE,
                       f"a function under TF 1.15, a class here: {difference}")
    if tf115["kind"] != here["kind"] or (
            tf115["kind"] == "object" and tf115.get("type") != here.get("type")):
        return Verdict(KIND, f"{_what(tf115)} under TF 1.15, {_what(here)} here")
    if tf115["kind"] == "constant":
        if not same_form(tf115["value"], here["value"]):
            return Verdict(CONSTANT, f"{_text(tf115['value'])} under TF 1.15, "
                                     f"{_text(here['value'])} here")
        return Verdict(SAME)
    if "parameters" not in tf115 or _only_variadic(tf115["parameters"]):
        return Verdict(SAME)  # TF 1.15's own signature says nothing: the kind is all
    if "parameters" not in here:
        return Verdict(UNREADABLE, here.get("unreadable", ""))
    difference = signature_difference(tf115["parameters"], here["parameters"])
    if difference is None:
        return Verdict(SAME)
    return Verdict(UNREADABLE if difference.startswith("(*") else SIGNATURE, difference)


def called_alike(tf115: dict[str, Any], here: dict[str, Any]) -> bool:
    """Whether TF 1.15's function is a class here (`tf.keras.initializers.he_normal` ->
    `HeNormal`, `tf.data.experimental.TensorStructure` -> `tf.TensorSpec`): TF1 code could
    only call the function or pass it on to be called, and a class takes both, so such a
    name is held to its parameters (and, after migrate, to its calls) as a function is."""
    return tf115["kind"] == "function" and here["kind"] == "class" and \
        bool(tf115.get("parameters"))


def _only_variadic(parameters: list[list]) -> bool:
    return bool(parameters) and all(p[1] in _VARIADIC for p in parameters)


def _default_difference(name: str, theirs: list, ours: list) -> Optional[str]:
    if len(theirs) < 3:
        return None  # required under TF 1.15: any default here only accepts more calls
    if len(ours) < 3:
        return f"`{name}`: default {_text(theirs[2])} under TF 1.15, required here"
    if not same_form(theirs[2], ours[2]):
        return f"`{name}`: default {_text(theirs[2])} under TF 1.15, {_text(ours[2])} here"
    return None


def signature_difference(theirs: list[list], ours: list[list]) -> Optional[str]:
    """The first way `ours` does not take a call TF 1.15's parameters take, or None."""
    kinds = {parameter[1] for parameter in ours}
    if _only_variadic(ours) and not _only_variadic(theirs) and theirs:
        return "(*args, **kwargs) here: its parameters cannot be read"
    positional = [p for p in ours if p[1] in _POSITIONAL]
    by_name = {p[0]: p for p in ours if p[1] not in _VARIADIC}
    has_args, has_kwargs = VAR_POSITIONAL in kinds, VAR_KEYWORD in kinds
    their_positional = [p for p in theirs if p[1] in _POSITIONAL]
    for index, parameter in enumerate(their_positional):
        name = parameter[0]
        if index < len(positional):
            match = positional[index]
            if parameter[1] == POSITIONAL_OR_KEYWORD and match[0] != name:
                if name in by_name:
                    where = by_name[name]
                    place = f"position {positional.index(where)}" \
                        if where in positional else "keyword-only"
                    return f"`{name}`: position {index} under TF 1.15, {place} here"
                return f"`{name}` (position {index}) missing; position {index} is " \
                       f"`{match[0]}` here"
            if parameter[1] == POSITIONAL_OR_KEYWORD and match[1] == POSITIONAL_ONLY:
                return f"`{name}`: positional only here, not by keyword"
        elif has_args and (has_kwargs or parameter[1] == POSITIONAL_ONLY):
            return f"`{name}` (position {index}) only through *args/**kwargs here"
        elif name in by_name:
            return f"`{name}`: position {index} under TF 1.15, keyword-only here"
        else:
            return f"`{name}` (position {index}) missing"
        difference = _default_difference(name, parameter, match)
        if difference:
            return difference
    for parameter in theirs:
        if parameter[1] != KEYWORD_ONLY:
            continue
        match = by_name.get(parameter[0])
        if match is None:
            if has_kwargs:
                return f"`{parameter[0]}` (keyword-only) only through **kwargs here"
            return f"`{parameter[0]}` (keyword-only) missing"
        if match[1] == POSITIONAL_ONLY:
            return f"`{parameter[0]}`: positional only here, not by keyword"
        difference = _default_difference(parameter[0], parameter, match)
        if difference:
            return difference
    their_kinds = {parameter[1] for parameter in theirs}
    if VAR_POSITIONAL in their_kinds and not has_args:
        return "takes *args under TF 1.15, not here"
    if VAR_KEYWORD in their_kinds and not has_kwargs:
        return "takes **kwargs under TF 1.15, not here"
    their_names = {parameter[0] for parameter in theirs}
    for parameter in ours:
        if parameter[1] not in _VARIADIC and len(parameter) < 3 \
                and parameter[0] not in their_names:
            return f"`{parameter[0]}` required here, not a parameter under TF 1.15"
    return None
