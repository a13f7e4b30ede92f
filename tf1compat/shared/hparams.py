"""`HParams`, TF1's `tf.contrib.training.HParams` (tf1compat.contrib.training) and the same class
for TF2 code (`modern.HParams`): typed hyperparameters parsed from 'name=value,...' strings.

The contract of TF 1.x, which scripts drive from one command-line flag:

- `HParams(learning_rate=0.1, layers=[64, 32])` fixes each name's type from
  its value (a list's from its first element; an empty list is refused) and
  makes it an attribute; a name that is already an attribute is refused.
- `parse('learning_rate=0.2,layers=[8,8],flag=true')` converts each value to
  the name's type (bools accept true/True/false/False or an integer), refuses
  unknown names, repeats and malformed text, and returns the object.
- `set_hparam` / `override_from_dict` / `parse_json` check types the same way:
  no float into an int, no number into a string, no bool from a number.
- `values()`, `to_json()`, `get(key, default)`, `in`, `str()` ('a=1,b=2') and
  `repr()` ("HParams([('a', 1), ('b', 2)])").

`to_proto` / `from_proto` need contrib's HParamDef protocol buffer, which TF
2.21 does not ship; they raise an error that says to use `to_json` instead.
"""

from __future__ import annotations

import json
import numbers
import re
from typing import Any

from tf1compat.shared.errors import Tf1CompatError

__all__ = ["HParams", "parse_values"]

# name, optional [index], '=', then one value or a bracketed list, then ',' or the end.
_ASSIGNMENT = re.compile(r"""
  (?P<name>[a-zA-Z][\w.]*)
  (\[\s*(?P<index>\d+)\s*\])?
  \s*=\s*
  ((?P<val>[^,\[]*) | \[(?P<vals>[^\]]*)\])
  ($|,\s*)""", re.VERBOSE)


def _cannot_parse(name, kind, value, text):
    raise ValueError(f"Could not parse hparam '{name}' of type '{kind.__name__}' with value "
                     f"'{value}' in {text}")


def _assigned_twice(name, text):
    return ValueError(f"Multiple assignments to variable '{name}' in {text}")


def _parser(name, kind, text):
    if kind is not bool:
        return kind

    def parse_bool(value):
        if value in ("true", "True"):
            return True
        if value in ("false", "False"):
            return False
        try:
            return bool(int(value))
        except ValueError:
            _cannot_parse(name, kind, value, text)

    return parse_bool


def parse_values(values: str, type_map: dict, ignore_unknown: bool = False) -> dict:
    """'a=1,b=[1,2],c[0]=3' -> {'a': 1, 'b': [1, 2], 'c': {0: 3}}, each converted by type_map.

    Raises:
      ValueError: malformed text, an unknown name (unless ignore_unknown), a value its
        type cannot parse, a list given to an index, or a name assigned twice.
    """
    results: dict = {}
    position = 0
    while position < len(values):
        match = _ASSIGNMENT.match(values, position)
        if not match:
            raise ValueError(f"Malformed hyperparameter value: {values[position:]}")
        position = match.end()
        name, index = match.group("name"), match.group("index")
        if name not in type_map:
            if ignore_unknown:
                continue
            raise ValueError(f"Unknown hyperparameter type for {name}")
        kind = type_map[name]
        parse = _parser(name, kind, values)
        if match.group("val") is not None:
            raw = match.group("val")
            try:
                value = parse(raw)
            except ValueError:
                _cannot_parse(name, kind, raw, values)
            if not index:
                if name in results:
                    raise _assigned_twice(name, values)
                results[name] = value
            else:
                slots = results.setdefault(name, {})
                if not isinstance(slots, dict):
                    raise _assigned_twice(name, values)
                if int(index) in slots:
                    raise _assigned_twice(f"{name}[{int(index)}]", values)
                slots[int(index)] = value
        elif match.group("vals") is not None:
            if index is not None:
                raise ValueError("Assignment of a list to a list index.")
            if name in results:
                raise _assigned_twice(name, values)
            elements = [e for e in re.split("[ ,]", match.group("vals")) if e]
            try:
                results[name] = [parse(e) for e in elements]
            except ValueError:
                _cannot_parse(name, kind, match.group("vals"), values)
        else:
            _cannot_parse(name, kind, "", values)
    return results


def _cast(name: str, kind: type, value: Any) -> Any:
    """`value` as `kind`, refusing the conversions TF 1.x refused (see the module docstring)."""
    if type(value) is kind:  # noqa: E721 - bool is an int subclass: the exact type is meant
        return value
    if issubclass(kind, type(None)):
        return value
    refused = ValueError(f"Could not cast hparam '{name}' of type '{kind}' from value {value!r}")
    if issubclass(kind, (str, bytes)) and not isinstance(value, (str, bytes)):
        raise refused
    if issubclass(kind, bool) != isinstance(value, bool):
        raise refused
    if issubclass(kind, numbers.Integral) and not isinstance(value, numbers.Integral):
        raise refused
    if issubclass(kind, numbers.Number) and not isinstance(value, numbers.Number):
        raise refused
    return kind(value)


class HParams:
    """Named, typed hyperparameters (see the module docstring for the contract)."""

    def __init__(self, hparam_def=None, model_structure=None, **kwargs):
        self._hparam_types: dict[str, tuple[type, bool]] = {}
        self._model_structure = model_structure
        if hparam_def is not None:
            raise Tf1CompatError("HParams(hparam_def=...) needs contrib's HParamDef protocol "
                                 "buffer, which TF 2.21 does not ship; build HParams from "
                                 "keyword arguments, or from_json-style with parse_json()")
        for name, value in kwargs.items():
            self.add_hparam(name, value)

    def add_hparam(self, name: str, value: Any) -> None:
        if getattr(self, name, None) is not None:
            raise ValueError(f"Hyperparameter name is reserved: {name}")
        if isinstance(value, (list, tuple)):
            if not value:
                raise ValueError(f"Multi-valued hyperparameters cannot be empty: {name}")
            self._hparam_types[name] = (type(value[0]), True)
        else:
            self._hparam_types[name] = (type(value), False)
        setattr(self, name, value)

    def set_hparam(self, name: str, value: Any) -> None:
        kind, is_list = self._hparam_types[name]  # KeyError for an unknown name, as TF 1.x
        if isinstance(value, list):
            if not is_list:
                raise ValueError(f"Must not pass a list for single-valued parameter: {name}")
            setattr(self, name, [_cast(name, kind, v) for v in value])
        else:
            if is_list:
                raise ValueError(f"Must pass a list for multi-valued parameter: {name}.")
            setattr(self, name, _cast(name, kind, value))

    def del_hparam(self, name: str) -> None:
        if hasattr(self, name):
            delattr(self, name)
            del self._hparam_types[name]

    def parse(self, values: str) -> "HParams":
        types = {name: kind for name, (kind, _) in self._hparam_types.items()}
        return self.override_from_dict(parse_values(values, types))

    def override_from_dict(self, values_dict: dict) -> "HParams":
        for name, value in values_dict.items():
            self.set_hparam(name, value)
        return self

    def set_from_map(self, values_map: dict) -> "HParams":
        """Deprecated in TF 1.x: override_from_dict."""
        return self.override_from_dict(values_map)

    def set_model_structure(self, model_structure) -> None:
        self._model_structure = model_structure

    def get_model_structure(self):
        return self._model_structure

    def to_json(self, indent=None, separators=None, sort_keys=False) -> str:
        return json.dumps(self.values(), indent=indent, separators=separators,
                          sort_keys=sort_keys)

    def parse_json(self, values_json: str) -> "HParams":
        return self.override_from_dict(json.loads(values_json))

    def values(self) -> dict:
        return {name: getattr(self, name) for name in self._hparam_types}

    def get(self, key: str, default=None):
        """The value of `key`, or `default` (ValueError if its type does not fit the key's)."""
        if key not in self._hparam_types:
            return default
        if default is not None:
            kind, is_list = self._hparam_types[key]
            described = f"list<{kind}>" if is_list else str(kind)
            refused = f"Hparam '{key}' of type '{described}' is incompatible with default={default}"
            if is_list != isinstance(default, list):
                raise ValueError(refused)
            try:
                for value in (default if is_list else [default]):
                    _cast(key, kind, value)
            except ValueError as error:
                raise ValueError(f"{refused}. {error}") from None
        return getattr(self, key)

    def __contains__(self, key) -> bool:
        return key in self._hparam_types

    def __str__(self) -> str:
        return ",".join(f"{key}={value}" for key, value in self.values().items())

    def __repr__(self) -> str:
        return f"{type(self).__name__}({sorted(self.values().items())})"

    def to_proto(self, export_scope=None):
        raise Tf1CompatError("HParams.to_proto needs contrib's HParamDef protocol buffer, which "
                             "TF 2.21 does not ship; use to_json() and parse_json()")

    @staticmethod
    def from_proto(hparam_def, import_scope=None):
        raise Tf1CompatError("HParams.from_proto needs contrib's HParamDef protocol buffer, "
                             "which TF 2.21 does not ship; use to_json() and parse_json()")
