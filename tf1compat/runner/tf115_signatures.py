"""TF 1.15's parameters for every served `tf.` function and class whose signature TF 2.21 changed.

TF 2.21 (and legacy Keras beside it) moved parameters TF1 code passes by position
(`Conv2D`'s `groups` before `activation`, `tensor_scatter_*`'s `indices` renamed),
renamed some in place (`load_variable(checkpoint_dir)` became `ckpt_dir_or_file`) and
changed defaults. A TF1 call of such a name under `run` would give its arguments to other
parameters, or fail. So each name a script reads under `tf.` is held against TF 1.15's
own signature, as committed in `tf1compat/surface/data/tf115.json`; where they differ, the
script gets a stand-in with TF 1.15's parameters, in TF 1.15's order, under TF 1.15's
names and with TF 1.15's defaults, followed by the parameters TF 2.21 added (keyword
only). The stand-in binds the call to those parameters and passes each argument by
keyword (by position where TF 2.21 takes it only so) to TF 2.21's own function or class,
so what runs is TF 2.21's.

- A function gets a function. A class gets a subclass of the same name whose `__init__`
  maps the arguments; its metaclass makes `isinstance`/`issubclass` against the stand-in
  true of the original class's instances and subclasses too, so library code that made
  an instance itself is still one.
- A TF 1.15 parameter goes to the TF 2.21 parameter of its name; else to the one in its
  position when that one is new in TF 2.21 (renamed in place); else through TF 2.21's
  `**kwargs`. Where none of those exists, or TF 2.21 requires a parameter TF 1.15 does not
  have, the name is served as it is and the probe reports it.
- A TF 1.15 default that differs from TF 2.21's is passed when the call leaves the
  parameter out, if it can be rebuilt from its recorded form (a constant, a dtype, a
  member of the enum TF 2.21's default belongs to); otherwise TF 2.21's default stays and
  shows in the signature. A TF 1.15 value TF 2.21 refuses, default or passed, becomes what
  TF 1.15 itself fell back to (`FALLBACKS`: tfdbg's curses UI is its readline UI).
"""

from __future__ import annotations

import enum
import functools
import threading
import inspect
import json
from typing import Any, Callable

from tf1compat.surface import compare, reading, reference

_KIND = {
    reading.POSITIONAL_ONLY: inspect.Parameter.POSITIONAL_ONLY,
    reading.POSITIONAL_OR_KEYWORD: inspect.Parameter.POSITIONAL_OR_KEYWORD,
    reading.VAR_POSITIONAL: inspect.Parameter.VAR_POSITIONAL,
    reading.KEYWORD_ONLY: inspect.Parameter.KEYWORD_ONLY,
    reading.VAR_KEYWORD: inspect.Parameter.VAR_KEYWORD,
}
_VARIADIC = (reading.VAR_POSITIONAL, reading.VAR_KEYWORD)


# TF 1.15 values TF 2.21 refuses, passed as what TF 1.15 itself fell back to: (parameter,
# value) -> (TF 2.21's value, why). TF 1.15's default stays in the signature.
FALLBACKS: dict[tuple[str, str], tuple[str, str]] = {
    ("ui_type", "curses"): ("readline", "tfdbg fell back to its readline UI where the curses "
                                        "one could not load; TF 2.21 has only readline"),
}


class _Unbuildable(Exception):
    """A default's recorded form names an object that cannot be rebuilt from it."""


@functools.lru_cache(maxsize=1)
def tf115_parameters() -> dict[str, list]:
    """The data's name (`tf.<path>`, `tensorflow.python.ops.array_ops:shape`) -> TF 1.15's
    parameters, for the callables whose signature was read."""
    return {name: entry["parameters"] for name, entry in reference.load().names.items()
            if "parameters" in entry}


def value_of(form: Any, like: Any = inspect.Parameter.empty) -> Any:
    """The value a recorded form stands for (`like`: TF 2.21's default, whose enum a
    recorded enum member is looked up in)."""
    if form is None or isinstance(form, (bool, int, float, str)):
        return form
    (key, inner), = form.items()
    if key == "float":
        return float(inner)
    if key == "bytes":
        return inner.encode("latin-1")
    if key in ("tuple", "list"):
        items = [value_of(item) for item in inner]
        return tuple(items) if key == "tuple" else items
    if key == "dtype":
        import tensorflow as tf

        return tf.as_dtype(inner)
    if key == "enum":
        class_name, _, member = inner.rpartition(".")
        home = type(like) if isinstance(like, enum.Enum) and \
            type(like).__name__ == class_name else _named(class_name)
        if isinstance(home, type) and issubclass(home, enum.Enum) and \
                member in home.__members__:
            return home[member]
    if key in ("class", "function"):
        found = _named(inner)
        if found is not None:
            return found
    raise _Unbuildable(form)


# Where a default's class or enum is looked up by the name TF 1.15 gave it.
_HOMES = ("", "data", "data.experimental", "distribute", "distribute.experimental", "nn",
          "train", "keras.initializers")


def _named(name: str) -> Any:
    """The TF 2.21 object of that `__name__` in one of `_HOMES` (TF 1.15's `TFRecordDatasetV1`
    is `tf.compat.v1.data.TFRecordDataset`), or None."""
    import tensorflow as tf

    spellings = [name] + [name[:-2] for suffix in ("V1", "V2") if name.endswith(suffix)]
    for home_path in _HOMES:
        home: Any = tf.compat.v1
        try:
            for part in filter(None, home_path.split(".")):
                home = getattr(home, part)
        except (AttributeError, ImportError):
            continue
        for spelling in spellings:
            found = getattr(home, spelling, None)
            if getattr(found, "__name__", None) == name:
                return found
    return None


class _Plan:
    """How a call bound to TF 1.15's parameters becomes TF 2.21's call."""

    def __init__(self, theirs: list[list], ours: list[list], original: inspect.Signature):
        self.targets: dict[str, str] = {}  # TF 1.15's name -> the name TF 2.21 takes it by
        self.forced: dict[str, Any] = {}  # TF 1.15's defaults TF 2.21 does not share
        ours_named = {p[0]: p for p in ours if p[1] not in _VARIADIC}
        our_positional = [p for p in ours if p[1] in (reading.POSITIONAL_ONLY,
                                                      reading.POSITIONAL_OR_KEYWORD)]
        their_names = {p[0] for p in theirs}
        our_kinds = {p[1] for p in ours}
        self.positional_only = [p[0] for p in our_positional if p[1] == reading.POSITIONAL_ONLY]
        parameters: list[inspect.Parameter] = []
        position = 0
        for parameter in theirs:
            name, kind = parameter[0], parameter[1]
            if kind == reading.VAR_POSITIONAL:
                raise _Unbuildable("*args")  # TF 1.15's positional tail: kept as TF 2.21's
            if kind == reading.VAR_KEYWORD:
                if reading.VAR_KEYWORD not in our_kinds:
                    raise _Unbuildable("**kwargs")
                parameters.append(inspect.Parameter(name, inspect.Parameter.VAR_KEYWORD))
                continue
            target = self._target(name, kind, position, ours_named, our_positional,
                                  their_names, reading.VAR_KEYWORD in our_kinds)
            if kind in (reading.POSITIONAL_ONLY, reading.POSITIONAL_OR_KEYWORD):
                position += 1
            self.targets[name] = target
            default = inspect.Parameter.empty
            if len(parameter) >= 3:
                default = self._default(name, parameter[2], target, original)
            parameters.append(inspect.Parameter(name, _KIND[kind], default=default))
        # What TF 2.21 added, after TF 1.15's parameters and taken by keyword only.
        taken = set(self.targets.values())
        added = [inspect.Parameter(p.name, inspect.Parameter.KEYWORD_ONLY, default=p.default)
                 for p in original.parameters.values()
                 if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) and p.name not in taken
                 and p.name not in their_names]
        if any(p.default is p.empty for p in added):
            raise _Unbuildable("a parameter TF 2.21 requires that TF 1.15 does not have")
        for p in added:
            self.targets[p.name] = p.name
        tail = [p for p in parameters if p.kind == p.VAR_KEYWORD]
        parameters = [p for p in parameters if p.kind != p.VAR_KEYWORD] + added + tail
        self.signature = inspect.Signature(parameters)

    @staticmethod
    def _target(name, kind, position, ours_named, our_positional, their_names, has_kwargs):
        if name in ours_named:
            return name
        if kind != reading.KEYWORD_ONLY and position < len(our_positional):
            in_place = our_positional[position][0]
            if in_place not in their_names:  # renamed in place
                return in_place
        if has_kwargs:
            return name
        raise _Unbuildable(name)

    def _default(self, name: str, form: Any, target: str, original: inspect.Signature) -> Any:
        ours = original.parameters.get(target)
        theirs_default = inspect.Parameter.empty if ours is None else ours.default
        if theirs_default is not inspect.Parameter.empty and \
                compare.same_form(form, reading.value_form(theirs_default)):
            return theirs_default  # the same default: TF 2.21's own object
        try:
            value = value_of(form, theirs_default)
        except _Unbuildable:
            if theirs_default is inspect.Parameter.empty:
                raise
            return theirs_default  # kept, and the signature says so
        self.forced[name] = value
        return value

    def call(self, target: Callable, args: tuple, kwargs: dict, prefix: tuple = ()) -> Any:
        bound = self.signature.bind(*args, **kwargs)
        arguments = dict(bound.arguments)
        for name, value in self.forced.items():
            arguments.setdefault(name, value)
        passed: dict[str, Any] = {}
        for name, value in arguments.items():
            kind = self.signature.parameters[name].kind
            if kind == inspect.Parameter.VAR_KEYWORD:
                passed.update(value)
            else:
                if isinstance(value, str) and (name, value) in FALLBACKS:
                    value = FALLBACKS[name, value][0]
                passed[self.targets[name]] = value
        positional = []
        for name in self.positional_only:
            if name not in passed:
                break
            positional.append(passed.pop(name))
        return target(*prefix, *positional, **passed)


def _function(value: Callable, plan: _Plan) -> Callable:
    @functools.wraps(value, assigned=("__module__", "__name__", "__qualname__", "__doc__"),
                     updated=())
    def tf115_parameters(*args, **kwargs):
        return plan.call(value, args, kwargs)

    tf115_parameters.__signature__ = plan.signature
    tf115_parameters._tf1compat_tf115_of = value  # what it stands for
    return tf115_parameters


def _class(value: type, plan: _Plan) -> type:
    original_meta = type(value)

    stand_in: list[type] = []  # the class made below; a script's subclasses of it are others

    def instancecheck(cls, instance):
        if stand_in and cls is stand_in[0]:
            return isinstance(instance, value)
        return original_meta.__instancecheck__(cls, instance)

    # ABCMeta's check of `value` asks each of its subclasses in turn, the stand-in among
    # them: asked again from inside that check, the stand-in answers for itself alone, or
    # the two would ask each other without end.
    asking_value = threading.local()

    def subclasscheck(cls, subclass):
        if stand_in and cls is stand_in[0] and not getattr(asking_value, "now", False):
            asking_value.now = True
            try:
                return issubclass(subclass, value)
            finally:
                asking_value.now = False
        return original_meta.__subclasscheck__(cls, subclass)

    def signature(cls):
        if stand_in and cls is stand_in[0]:
            return plan.signature
        raise AttributeError("__signature__")  # a subclass's own, read from its __init__

    # The metaclass's `__signature__` (a data descriptor) shadows any the bases define.
    meta = type(f"TF115{original_meta.__name__}", (original_meta,), {
        "__instancecheck__": instancecheck, "__subclasscheck__": subclasscheck,
        "__signature__": property(signature)})

    def __init__(self, *args, **kwargs):
        # the next `__init__` along the instance's own MRO: a class that swaps its bases in
        # `__new__` (tf_keras's TensorBoard becomes the v1 callback in graph mode) gets the
        # `__init__` of the class it became, not the one the stand-in was made from
        plan.call(super(stand_in[0], self).__init__, args, kwargs)

    namespace = {"__init__": __init__, "__module__": value.__module__,
                 "__qualname__": value.__qualname__, "__doc__": value.__doc__,
                 "_tf1compat_tf115_of": value}
    stand_in.append(meta(value.__name__, (value,), namespace))
    return stand_in[0]


# (id(value), TF 1.15's parameters) -> (value, what a script gets): one stand-in per object
# and signature, whichever path reads it (`tf.keras.layers.Conv2D is
# tf.keras.layers.Convolution2D` stays true, as under TF 1.15), but `tf.train.load_variable`
# and `tf.contrib.framework.load_variable`, one function on TF 2.21, had two signatures.
_adapted: dict[tuple[int, str], tuple[Any, Any]] = {}
# name -> (value, what a script gets): every `tf.X` a script reads comes here, so a name
# already answered costs one lookup, not a new key of its parameters.
_by_name: dict[str, tuple[Any, Any]] = {}


def adapted(path: str, value: Any) -> Any:
    """What a script reading `tf.<path>` gets: `value`, or its stand-in with TF 1.15's
    parameters where its own differ from them."""
    return adapted_as(f"tf.{path}", value)


def adapted_as(name: str, value: Any) -> Any:
    """`adapted` for a name as the data spells it (`tensorflow.python.ops.array_ops:shape`,
    what `from tensorflow.python.ops.array_ops import shape` imports)."""
    known = _by_name.get(name)
    if known is not None and known[0] is value:
        return known[1]
    theirs = tf115_parameters().get(name)
    if theirs is None or not callable(value) or _skipped(value):
        result = value
    else:
        key = (id(value), json.dumps(theirs))
        shared = _adapted.get(key)
        if shared is not None and shared[0] is value:
            result = shared[1]
        else:
            result = _stand_in(value, theirs)
            _adapted[key] = (value, result)
    _by_name[name] = (value, result)
    return result


def _skipped(value: Any) -> bool:
    # enums and exceptions: their signatures are the machinery's, and code matches them by
    # identity (`except tf.errors.NotFoundError`)
    return inspect.isclass(value) and issubclass(value, (enum.Enum, BaseException))


def _stand_in(value: Any, theirs: list[list]) -> Any:
    ours, _ = reading.signature_of(value)
    if ours is None or compare.signature_difference(theirs, ours) is None:
        return value
    if ours and all(p[1] in _VARIADIC for p in ours):
        # (*args, **kwargs) on TF 2.21 takes TF 1.15's keywords already; a stand-in would only
        # put itself between a script's subclasses (of tf.keras.layers.Layer) and the base
        return value
    try:
        original = inspect.signature(value)
        plan = _Plan(theirs, ours, original)
    except (_Unbuildable, TypeError, ValueError):
        return value
    if inspect.isclass(value):
        try:
            return _class(value, plan)
        except TypeError:  # a class that cannot be subclassed (final, or a C type)
            return value
    return _function(value, plan)
