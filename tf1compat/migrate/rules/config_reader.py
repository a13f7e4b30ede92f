"""Reads a ConfigProto built in the source into option keywords, or says why it cannot.

Understood: `ConfigProto(...)` / `GPUOptions(...)` / `GraphOptions(...)` /
`OptimizerOptions(...)` constructor keywords (nested, or through a variable
holding a `GPUOptions`), `config.a.b = value`, `config.device_count['CPU'] = n`
and `config.gpu_options.experimental.virtual_devices.add(memory_limit_mb=[...])`.
A field the option table does not map, or a value that is not plainly
readable, stops the whole config: it is left as is and reported.
"""

from __future__ import annotations

import ast
import dataclasses
from typing import Optional

import libcst as cst

from tf1compat.shared.errors import OptionError
from tf1compat.shared.option_table import OPTION_SPECS
from tf1compat.shared.options import SessionOptions

# ConfigProto field path -> keyword, straight from the option table.
FIELD_KEYWORDS = {spec.tf1_field: spec.keyword for spec in OPTION_SPECS}
# Fields that hold a message where the keyword takes plain values.
_MESSAGE_FIELDS = {spec.tf1_field for spec in OPTION_SPECS if not spec.field.same_value}
_NESTED = {"gpu_options": "GPUOptions", "graph_options": "GraphOptions",
           "graph_options.optimizer_options": "OptimizerOptions",
           "gpu_options.experimental": "GPUOptions.Experimental"}
_JIT_LEVELS = {"ON_1": "on_1", "ON_2": "on_2", "OFF": "off", "DEFAULT": None,
               "1": "on_1", "2": "on_2", "-1": "off", "0": None}
CONFIG_CLASSES = {"ConfigProto": "", "GPUOptions": "gpu_options.",
                  "GraphOptions": "graph_options."}


class Unconvertible(Exception):
    """Why a config cannot be turned into keywords (the message is the reason)."""


@dataclasses.dataclass
class ReadOptions:
    """Keywords read from one config: keyword -> source text of the value."""

    values: dict[str, str] = dataclasses.field(default_factory=dict)
    virtual: list[str] = dataclasses.field(default_factory=list)
    literal: bool = True  # every value is a Python literal (checked with SessionOptions)

    def set(self, keyword: str, text: str) -> None:
        self.values[keyword] = text

    def keywords(self) -> dict[str, str]:
        values = dict(self.values)
        if self.virtual:
            values["virtual_gpus"] = "[" + ", ".join(self.virtual) + "]"
        order = [spec.keyword for spec in OPTION_SPECS]
        return {key: values[key] for key in order if key in values}

    def text(self) -> str:
        return ", ".join(f"{key}={value}" for key, value in self.keywords().items())

    def check(self) -> None:
        """Validates literal values with SessionOptions (so a bad value is reported, not written)."""
        try:
            parsed = {key: ast.literal_eval(value) for key, value in self.keywords().items()}
        except (ValueError, SyntaxError):
            self.literal = False
            return
        try:
            SessionOptions(**parsed)
        except OptionError as error:
            raise Unconvertible(str(error)) from None


class ConfigReader:
    """Collects option keywords from constructor calls and attribute assignments."""

    def __init__(self, module: cst.Module, names, resolve_variable):
        self.module = module
        self.names = names
        self.resolve_variable = resolve_variable  # Name node -> list of (path, value) or raise

    def source(self, node: cst.CSTNode) -> str:
        return self.module.code_for_node(node).strip()

    def value_text(self, node: cst.BaseExpression) -> str:
        if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString, cst.Name, cst.Attribute,
                             cst.UnaryOperation, cst.List, cst.Tuple, cst.Dict,
                             cst.ConcatenatedString)):
            if isinstance(node, (cst.List, cst.Tuple)):
                for element in node.elements:
                    self.value_text(element.value)
            return self.source(node)
        raise Unconvertible(f"the value {self.source(node)!r} is computed; only literals and "
                            "plain names are moved into keywords")

    def class_of(self, call: cst.Call) -> Optional[str]:
        name = self.names.v1_name(call.func)
        if name is None:
            return None
        return name

    def read_call(self, call: cst.Call, prefix: str, into: ReadOptions) -> None:
        """Reads the keywords of a ConfigProto / GPUOptions / ... constructor call."""
        for arg in call.args:
            if arg.keyword is None or arg.star:
                raise Unconvertible(f"{self.class_of(call)}(...) takes a positional or ** "
                                    "argument; only keywords are read")
            self.assign(prefix + arg.keyword.value, arg.value, into)

    def assign(self, path: str, value: cst.BaseExpression, into: ReadOptions) -> None:
        """Records `path = value` (path relative to the ConfigProto)."""
        if path in _NESTED:
            if isinstance(value, cst.Call) and self.class_of(value) in (_NESTED[path],
                                                                       "ConfigProto." + path):
                self.read_call(value, path + ".", into)
                return
            if path == "gpu_options" and isinstance(value, cst.Name):
                for sub_path, sub_value in self.resolve_variable(value):
                    self.assign(sub_path, sub_value, into)
                return
            raise Unconvertible(f"{path} is set from {self.source(value)!r}, which is not a "
                                f"{_NESTED[path]}(...) built here")
        if path == "device_count":
            if not isinstance(value, cst.Dict):
                raise Unconvertible(f"device_count is {self.source(value)!r}, not a dict literal")
            for element in value.elements:
                if not isinstance(element, cst.DictElement):
                    raise Unconvertible("device_count uses ** unpacking")
                key = self.device_key(element.key)
                self.assign(f"device_count[{key!r}]", element.value, into)
            return
        if path == "gpu_options.experimental.virtual_devices":
            if not isinstance(value, (cst.List, cst.Tuple)):
                raise Unconvertible("virtual_devices is not a list of VirtualDevices(...)")
            for element in value.elements:
                item = element.value
                if not (isinstance(item, cst.Call) and (self.class_of(item) or "").endswith(
                        "VirtualDevices")):
                    raise Unconvertible("virtual_devices holds something other than "
                                        "VirtualDevices(...)")
                self.add_virtual(item, into)
            return
        keyword = FIELD_KEYWORDS.get(path)
        if keyword is None:
            raise Unconvertible(f"ConfigProto field {path} has no keyword in the option table "
                                "(`tf1compat explain --table`)")
        if path in _MESSAGE_FIELDS:
            raise Unconvertible(f"{path} is set from {self.source(value)!r}, a message; its "
                                f"keyword {keyword} takes plain values (`tf1compat explain "
                                "--table`)")
        if keyword == "jit":
            level = self.jit_text(value)
            if level is not None:
                into.set("jit", level)
        else:
            into.set(keyword, self.value_text(value))

    def add_virtual(self, call: cst.Call, into: ReadOptions) -> None:
        """`...virtual_devices.add(memory_limit_mb=[...])` or `VirtualDevices(memory_limit_mb=...)`."""
        limits = [arg for arg in call.args if arg.keyword and arg.keyword.value == "memory_limit_mb"]
        if len(limits) != 1 or len(call.args) != 1:
            raise Unconvertible("virtual devices are read only from memory_limit_mb=[...] "
                                "(other fields have no keyword)")
        into.virtual.append(self.value_text(limits[0].value))

    def device_key(self, key: cst.BaseExpression) -> str:
        if isinstance(key, cst.SimpleString) and key.evaluated_value in ("GPU", "CPU"):
            return key.evaluated_value
        raise Unconvertible(f"device_count key {self.source(key)!r} is not 'GPU' or 'CPU'")

    def jit_text(self, value: cst.BaseExpression) -> Optional[str]:
        name = self.names.v1_name(value)
        level = None
        if name and name.startswith("OptimizerOptions."):
            level = name.split(".", 1)[1]
        elif isinstance(value, (cst.Integer, cst.UnaryOperation)):
            level = self.source(value).replace(" ", "")
        if level not in _JIT_LEVELS:
            raise Unconvertible(f"global_jit_level {self.source(value)!r} is not "
                                "OptimizerOptions.ON_1, ON_2 or OFF")
        word = _JIT_LEVELS[level]
        return repr(word) if word else None
