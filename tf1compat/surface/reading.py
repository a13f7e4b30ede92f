"""What one resolved name is, as data: its kind, its signature, its value.

The same reader describes a name on both sides, TensorFlow 1.15 (Python 3.7, by
`dump.py`) and TensorFlow 2.21 (by the probe), so what they write can be held
against each other. It imports nothing of tf1compat and keeps to Python 3.7's
syntax.

- kind: module, class, function (anything else callable), constant (None, bool,
  int, float, str, bytes, a DType, an enum member, or a tuple/list/set/dict of
  those), object (any other instance; its type's name is kept);
- signature: `inspect.signature`, which follows the `__wrapped__` chain that
  TensorFlow's decorators (`tf_decorator.make_decorator`) leave and honours the
  `__signature__` some set; `inspect.getfullargspec` when it cannot; enums are
  not read (their signature is the enum machinery's). TensorFlow's `kwarg_only`
  decorator (its `wrapper` in tf_export.py, on every raw op) refuses positional
  arguments whatever signature it declares: behind it the parameters are keyword-only;
- a default or a constant's value as a JSON-able form (`value_form`).
"""

from __future__ import absolute_import, division, print_function

import enum
import inspect
import math
import types

# A parameter is [name, kind] or [name, kind, default form], kind one of:
POSITIONAL_ONLY = "positional"
POSITIONAL_OR_KEYWORD = "either"
VAR_POSITIONAL = "*"
KEYWORD_ONLY = "keyword"
VAR_KEYWORD = "**"
_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: POSITIONAL_ONLY,
    inspect.Parameter.POSITIONAL_OR_KEYWORD: POSITIONAL_OR_KEYWORD,
    inspect.Parameter.VAR_POSITIONAL: VAR_POSITIONAL,
    inspect.Parameter.KEYWORD_ONLY: KEYWORD_ONLY,
    inspect.Parameter.VAR_KEYWORD: VAR_KEYWORD,
}
# Forms that make a value a constant (the others name an object by its type).
_OBJECT_FORMS = ("object", "function", "class", "module")
_DEPTH = 4  # containers nested deeper are named by type, not spelled out


def _qualname(value):
    return getattr(value, "__qualname__", None) or getattr(value, "__name__", None) or \
        type(value).__name__


def _is_dtype(value):
    kind = type(value)
    return kind.__name__ == "DType" and "dtypes" in (kind.__module__ or "")


def value_form(value, depth=0):
    """A JSON-able form of `value` that is equal on both sides when the values are.

    Numbers, strings, booleans and None are themselves (a float that JSON lacks is
    {"float": "nan"}); containers keep their type; a DType is {"dtype": name}; an
    enum member {"enum": "Class.MEMBER"}; a function, class or module its name; any
    other object {"object": its type's name}.
    """
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, enum.Enum):
        return {"enum": "%s.%s" % (type(value).__name__, value.name)}
    if isinstance(value, int):
        return int(value)
    if isinstance(value, float):
        if math.isnan(value) or math.isinf(value):
            return {"float": repr(value)}
        return float(value)
    if isinstance(value, bytes):
        return {"bytes": value.decode("latin-1")}
    if _is_dtype(value):
        return {"dtype": value.name}
    if isinstance(value, types.ModuleType):
        return {"module": getattr(value, "__name__", "?")}
    if inspect.isclass(value):
        return {"class": _qualname(value)}
    if callable(value):
        return {"function": _qualname(value)}
    if depth < _DEPTH and type(value) in (tuple, list):
        return {type(value).__name__: [value_form(item, depth + 1) for item in value]}
    if depth < _DEPTH and type(value) in (set, frozenset):
        forms = [value_form(item, depth + 1) for item in value]
        return {"set": sorted(forms, key=repr)}
    if depth < _DEPTH and type(value) is dict:
        pairs = [[value_form(key, depth + 1), value_form(item, depth + 1)]
                 for key, item in value.items()]
        return {"dict": sorted(pairs, key=repr)}
    module = type(value).__module__ or ""
    if module == "numpy" and hasattr(value, "item") and getattr(value, "shape", None) == ():
        return {"numpy": [type(value).__name__, value_form(value.item(), depth + 1)]}
    return {"object": type(value).__name__}


def is_constant_form(form):
    """Whether a value form stands for a constant (not an object named by its type)."""
    if isinstance(form, dict):
        (key, inner), = form.items()
        if key in _OBJECT_FORMS:
            return False
        if key in ("tuple", "list", "set"):
            return all(is_constant_form(item) for item in inner)
        if key == "dict":
            return all(is_constant_form(k) and is_constant_form(v) for k, v in inner)
        if key == "numpy":
            return is_constant_form(inner[1])
    return True


def kind_of(value):
    """module, class, function, constant or object."""
    if isinstance(value, types.ModuleType):
        return "module"
    if inspect.isclass(value):
        return "class"
    if callable(value):
        return "function"
    return "constant" if is_constant_form(value_form(value)) else "object"


def _parameter(name, kind, default=inspect.Parameter.empty):
    if default is inspect.Parameter.empty:
        return [name, kind]
    return [name, kind, value_form(default)]


def _from_argspec(spec):
    """Parameters from an `inspect.FullArgSpec` (for what `signature` cannot read)."""
    defaults = list(spec.defaults or ())
    first_default = len(spec.args) - len(defaults)
    parameters = []
    for index, name in enumerate(spec.args):
        if index >= first_default:
            parameters.append(_parameter(name, POSITIONAL_OR_KEYWORD,
                                         defaults[index - first_default]))
        else:
            parameters.append(_parameter(name, POSITIONAL_OR_KEYWORD))
    if spec.varargs:
        parameters.append(_parameter(spec.varargs, VAR_POSITIONAL))
    kwonly_defaults = spec.kwonlydefaults or {}
    for name in spec.kwonlyargs:
        parameters.append(_parameter(name, KEYWORD_ONLY,
                                     kwonly_defaults.get(name, inspect.Parameter.empty)))
    if spec.varkw:
        parameters.append(_parameter(spec.varkw, VAR_KEYWORD))
    return parameters


def _keyword_only_wrapper(value):
    """Whether `value`, or a function it wraps, is TensorFlow's `kwarg_only` wrapper."""
    seen = 0
    while value is not None and seen < 20:
        code = getattr(value, "__code__", None)
        if code is not None and code.co_name == "wrapper" and \
                code.co_filename.replace("\\", "/").endswith("/util/tf_export.py"):
            return True
        value = getattr(value, "__wrapped__", None)
        seen += 1
    return False


def _keyword_only(parameters):
    return [[p[0], KEYWORD_ONLY] + p[2:] if p[1] == POSITIONAL_OR_KEYWORD else p
            for p in parameters]


def signature_of(value):
    """(parameters, None), or (None, why they cannot be read)."""
    parameters, why = _read_signature(value)
    if parameters is not None and _keyword_only_wrapper(value):
        parameters = _keyword_only(parameters)
    return parameters, why


def _read_signature(value):
    """(parameters, None), or (None, why they cannot be read)."""
    if inspect.isclass(value) and issubclass(value, enum.Enum):
        return None, "an enum: its signature is the enum machinery's"
    try:
        signature = inspect.signature(value)
    except (TypeError, ValueError) as error:
        try:
            spec = inspect.getfullargspec(value)
        except (TypeError, ValueError):
            return None, "%s: %s" % (type(error).__name__, error)
        parameters = _from_argspec(spec)
        if inspect.isclass(value) and parameters and parameters[0][0] == "self":
            parameters = parameters[1:]
        return parameters, None
    except Exception as error:  # noqa: BLE001 - any failure to read is "not readable", said why
        return None, "%s: %s" % (type(error).__name__, error)
    if inspect.isclass(value) and _passes_everything_on(signature):
        signature = _init_signature(value) or signature
    return [_parameter(parameter.name, _KINDS[parameter.kind], parameter.default)
            for parameter in signature.parameters.values()], None


_VARIADIC_KINDS = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def _passes_everything_on(signature):
    """Whether a signature is only (*args, **kwargs)."""
    return bool(signature.parameters) and all(
        parameter.kind in _VARIADIC_KINDS for parameter in signature.parameters.values())


def _init_signature(cls):
    """The parameters a class's own `__init__` names (less `self`), for a class whose call
    Python reads as (*args, **kwargs) because a `__new__` or a metaclass's `__call__` in
    between passes everything on to it (Keras's `Layer.__new__`, TensorFlow's resource
    metaclass); None where `__init__` names none either."""
    init = getattr(cls, "__init__", None)
    if init is None or init is object.__init__:
        return None
    try:
        signature = inspect.signature(init)
    except (TypeError, ValueError):
        return None
    parameters = list(signature.parameters.values())[1:]  # self
    if not parameters or all(parameter.kind in _VARIADIC_KINDS for parameter in parameters):
        return None
    return signature.replace(parameters=parameters)


def describe(value):
    """The entry one name gets: kind, and its signature, value or type."""
    kind = kind_of(value)
    entry = {"kind": kind}
    if kind in ("class", "function"):
        parameters, why = signature_of(value)
        if parameters is None:
            entry["unreadable"] = why
        else:
            entry["parameters"] = parameters
    elif kind == "constant":
        entry["value"] = value_form(value)
    elif kind == "object":
        entry["type"] = type(value).__name__
    return entry


def absent(error):
    """The entry of a name that does not resolve: what resolving it raised."""
    message = str(error).strip().splitlines()
    text = message[0] if message else ""
    return {"kind": "absent", "error": "%s: %s" % (type(error).__name__, text[:300])}
