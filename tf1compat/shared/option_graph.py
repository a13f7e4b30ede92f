"""The graph optimizer options, each declared once: XLA's JIT level and Grappler's optimizers."""

from __future__ import annotations

import dataclasses
import enum
from typing import Any, Mapping

from tf1compat.shared.errors import OptionError
from tf1compat.shared.option_spec import Flag, OptionSpec, Portable, Reject, Scalar, Status, Step
from tf1compat.shared.lazy_tf import tensorflow as _tf


# -- jit ---------------------------------------------------------------------


class JitLevel(str, enum.Enum):
    """ConfigProto's `OptimizerOptions.GlobalJitLevel`, minus DEFAULT (= not set)."""

    OFF = "off"
    ON_1 = "on_1"
    ON_2 = "on_2"


_JIT_WORDS = {"off": JitLevel.OFF, "on_1": JitLevel.ON_1, "on_2": JitLevel.ON_2,
              "on": JitLevel.ON_1, "autoclustering": JitLevel.ON_1}
_JIT_TO_PROTO = {JitLevel.OFF: -1, JitLevel.ON_1: 1, JitLevel.ON_2: 2}
_JIT_FROM_PROTO = {value: level for level, value in _JIT_TO_PROTO.items()}


def _check_jit(value: Any, reject: Reject) -> JitLevel:
    if isinstance(value, JitLevel):
        return value
    if isinstance(value, bool):
        return JitLevel.ON_1 if value else JitLevel.OFF
    if isinstance(value, str) and value.strip().lower() in _JIT_WORDS:
        return _JIT_WORDS[value.strip().lower()]
    reject()


def _jit_from_proto(raw: int) -> JitLevel:
    if raw not in _JIT_FROM_PROTO:
        raise OptionError("jit", raw, "global_jit_level DEFAULT, OFF, ON_1 or ON_2")
    return _JIT_FROM_PROTO[raw]


def _jit_value(level: JitLevel) -> Any:
    return False if level is JitLevel.OFF else "autoclustering"


def _plan_jit(planner) -> None:
    level = planner.options.jit
    value = _jit_value(level)
    step = Step("set_jit", (value,), f"tf.config.optimizer.set_jit({value!r})",
                lambda wanted: _tf().config.optimizer.set_jit(wanted), fixed_at_start=False)
    if level is JitLevel.ON_2:
        return planner.add("jit", Status.APPROXIMATED, [step],
                           "ON_2 has no TF2 API; autoclustering is TF2's only global JIT level")
    planner.add("jit", Status.APPLIED, [step])


def _portable_jit(level: JitLevel, options) -> Portable:
    return Portable((f"tf.config.optimizer.set_jit({_jit_value(level)!r})",))


# -- rewrite_options -------------------------------------------------------------

# RewriterConfig toggles that tf.config.optimizer.set_experimental_options takes
# (True = ON, False = OFF), and its two plain booleans.
TOGGLES = ("layout_optimizer", "constant_folding", "shape_optimization", "remapping",
           "arithmetic_optimization", "dependency_optimization", "loop_optimization",
           "function_optimization", "debug_stripper", "scoped_allocator_optimization",
           "pin_to_host_optimization", "implementation_selector", "auto_mixed_precision",
           "use_plugin_optimizers", "auto_mixed_precision_onednn_bfloat16",
           "auto_mixed_precision_mkl")
BOOLEANS = ("disable_model_pruning", "disable_meta_optimizer")
_ON, _OFF = 1, 2  # RewriterConfig.Toggle
_WORDS = {"on": True, "true": True, "off": False, "false": False}


def _pairs(value: Any, reject: Reject) -> list[tuple[Any, Any]]:
    if isinstance(value, str):  # "constant_folding=off,layout_optimizer=on" (the flag)
        pairs = []
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, equals, word = part.partition("=")
            if not equals or word.strip().lower() not in _WORDS:
                reject(f"{part!r} is not NAME=on or NAME=off")
            pairs.append((name.strip(), _WORDS[word.strip().lower()]))
        return pairs
    if isinstance(value, Mapping):
        return list(value.items())
    try:
        return [tuple(pair) for pair in value]
    except TypeError:
        reject()


def _check_rewrite(value: Any, reject: Reject) -> tuple[tuple[str, bool], ...]:
    pairs = _pairs(value, reject)
    if not pairs:
        reject("name at least one optimizer")
    checked = {}
    for pair in pairs:
        if len(pair) != 2:
            reject()
        name, on = pair
        if name not in TOGGLES + BOOLEANS:
            reject(f"{name!r} is not a Grappler optimizer TF2 can switch; those are "
                   + ", ".join(TOGGLES + BOOLEANS))
        if not isinstance(on, bool):
            reject(f"{name}={on!r} is not True or False")
        checked[name] = on
    return tuple(sorted(checked.items()))


@dataclasses.dataclass(frozen=True)
class RewriteToggles:
    """The on/off fields of graph_options.rewrite_options; its other fields pass through."""

    path: str = "graph_options.rewrite_options"
    same_value = False  # a message in the proto, plain values as a keyword

    @property
    def paths(self) -> tuple[str, ...]:
        return (self.path,)

    def read(self, proto):
        rewrite = proto.graph_options.rewrite_options
        found = {name: getattr(rewrite, name) == _ON for name in TOGGLES
                 if getattr(rewrite, name) in (_ON, _OFF)}
        found.update({name: True for name in BOOLEANS if getattr(rewrite, name)})
        return tuple(sorted(found.items())) or None

    def write(self, proto, value) -> None:
        rewrite = proto.graph_options.rewrite_options
        for name, on in value:
            setattr(rewrite, name, on if name in BOOLEANS else (_ON if on else _OFF))

    def clear(self, proto) -> None:
        rewrite = proto.graph_options.rewrite_options
        for name in TOGGLES:
            if getattr(rewrite, name) in (_ON, _OFF):  # AGGRESSIVE and the like pass through
                rewrite.ClearField(name)
        for name in BOOLEANS:
            rewrite.ClearField(name)
        if proto.graph_options.HasField("rewrite_options") and not rewrite.ByteSize():
            proto.graph_options.ClearField("rewrite_options")


def _set_rewrite(pairs: tuple) -> None:
    _tf().config.optimizer.set_experimental_options(dict(pairs))


def _rewrite_in_effect(pairs: tuple) -> bool:
    now = _tf().config.optimizer.get_experimental_options()
    return all(now.get(name) == on for name, on in pairs)


def _rewrite_code(pairs: tuple) -> str:
    return f"tf.config.optimizer.set_experimental_options({dict(pairs)!r})"


def _plan_rewrite(planner) -> None:
    pairs = planner.options.rewrite_options
    planner.add("rewrite_options", Status.APPLIED, [Step(
        "set_optimizer_options", (pairs,), _rewrite_code(pairs), _set_rewrite,
        _rewrite_in_effect, fixed_at_start=False)],
        "Grappler rewrites tf.function graphs with these, as it does a TF1 session's graph")


def _portable_rewrite(pairs: tuple, options) -> Portable:
    return Portable((_rewrite_code(pairs),))


SPECS = (
    OptionSpec(
        "jit", Scalar("graph_options.optimizer_options.global_jit_level", _jit_from_proto,
                      lambda level: _JIT_TO_PROTO[level]),
        _check_jit, "one of 'off', 'on_1', 'on_2' (True means 'on_1', False means 'off')",
        'tf.config.optimizer.set_jit("autoclustering")',
        "ON_2 has no TF2 API (mapped to autoclustering)",
        Flag(), _plan_jit, _portable_jit,
        table_order=11, plan_order=100, tf1_names=("global_jit_level",),
        show=lambda level: level.value),
    OptionSpec(
        "rewrite_options", RewriteToggles(), _check_rewrite,
        "a mapping of Grappler optimizer names (constant_folding, layout_optimizer, ...) to "
        "True or False, or 'NAME=on,NAME=off'",
        "tf.config.optimizer.set_experimental_options({'constant_folding': False, ...})",
        "on/off per optimizer; other RewriterConfig fields (AGGRESSIVE, optimizer lists) "
        "pass through to TF1 sessions and are reported unsupported",
        Flag(metavar="NAME=on|off,..."), _plan_rewrite, _portable_rewrite,
        table_order=12, plan_order=110,
        show=dict),
)
