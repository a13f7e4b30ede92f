"""`SessionOptions`: one typed, frozen description of a TF1 session's options.

Both worlds read it: `tf1compat.session(...)` turns it into a ConfigProto and
`modern.configure(...)` into TF2 `tf.config` calls. Every value is checked
when the object is built, so a bad option fails where it was written, with an
error that names the option, the value received and what is accepted.

Building one does not import TensorFlow; converting to and from a ConfigProto
does (see `tf1compat.proto_conversion`).
"""

from __future__ import annotations

import dataclasses
import difflib
import enum
import math
import numbers
from typing import Any, Iterable, Mapping, Optional, Sequence, Union

from tf1compat.errors import OptionError
from tf1compat.option_table import SPECS_BY_KEYWORD, TF1_NAME_ALIASES


class JitLevel(str, enum.Enum):
    """ConfigProto's `OptimizerOptions.GlobalJitLevel`, minus DEFAULT (= not set)."""

    OFF = "off"
    ON_1 = "on_1"
    ON_2 = "on_2"


_JIT_WORDS = {
    "off": JitLevel.OFF,
    "on_1": JitLevel.ON_1,
    "on_2": JitLevel.ON_2,
    "on": JitLevel.ON_1,
    "autoclustering": JitLevel.ON_1,
}

VisibleGpus = Union[str, int, Sequence[int], None]
VirtualGpus = Optional[Sequence[Sequence[float]]]


def _accepted(keyword: str) -> str:
    return SPECS_BY_KEYWORD[keyword].accepted


def _check_bool(keyword: str, value: Any) -> Optional[bool]:
    if value is None or isinstance(value, bool):
        return value
    # numpy.bool_ is not a bool subclass but is what people pass from arrays.
    if type(value).__name__ == "bool_":
        return bool(value)
    raise OptionError(keyword, value, _accepted(keyword))


def _check_int(keyword: str, value: Any, minimum: int) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise OptionError(keyword, value, _accepted(keyword))
    if value < minimum:
        raise OptionError(keyword, value, _accepted(keyword))
    return int(value)


def _check_fraction(value: Any) -> Optional[float]:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise OptionError("memory_fraction", value, _accepted("memory_fraction"))
    fraction = float(value)
    if math.isnan(fraction) or not 0.0 < fraction <= 1.0:
        raise OptionError("memory_fraction", value, _accepted("memory_fraction"))
    return fraction


def _parse_gpu_index(raw: Any, whole: Any) -> int:
    if isinstance(raw, str):
        text = raw.strip()
        if not text.lstrip("-").isdigit():
            raise OptionError("visible_gpus", whole, _accepted("visible_gpus"),
                              f"{raw!r} is not a GPU index")
        raw = int(text)
    if isinstance(raw, bool) or not isinstance(raw, numbers.Integral):
        raise OptionError("visible_gpus", whole, _accepted("visible_gpus"),
                          f"{raw!r} is not a GPU index")
    if raw < 0:
        raise OptionError("visible_gpus", whole, _accepted("visible_gpus"),
                          f"{raw} is negative")
    return int(raw)


def _check_visible_gpus(value: VisibleGpus) -> Optional[tuple[int, ...]]:
    if value is None:
        return None
    if isinstance(value, str):
        if not value.strip():
            return None  # TF1's empty visible_device_list means "all GPUs".
        items: Iterable[Any] = value.split(",")
    elif isinstance(value, numbers.Integral) and not isinstance(value, bool):
        items = [value]
    elif isinstance(value, (list, tuple, range)):
        items = value
    else:
        raise OptionError("visible_gpus", value, _accepted("visible_gpus"))
    indices = tuple(_parse_gpu_index(item, value) for item in items)
    if not indices:
        raise OptionError("visible_gpus", value, _accepted("visible_gpus"),
                          "use gpus=0 to hide every GPU")
    duplicates = sorted({i for i in indices if indices.count(i) > 1})
    if duplicates:
        raise OptionError("visible_gpus", value, _accepted("visible_gpus"),
                          f"GPU index {duplicates[0]} appears more than once")
    return indices


def _check_memory_limit(limit: Any, whole: Any) -> Union[int, float]:
    if limit is None:
        raise OptionError("virtual_gpus", whole, _accepted("virtual_gpus"),
                          "every virtual GPU needs a memory limit in MiB")
    if isinstance(limit, bool) or not isinstance(limit, numbers.Real):
        raise OptionError("virtual_gpus", whole, _accepted("virtual_gpus"),
                          f"memory limit {limit!r} is not a number of MiB")
    if math.isnan(float(limit)) or limit <= 0:
        raise OptionError("virtual_gpus", whole, _accepted("virtual_gpus"),
                          f"memory limit {limit!r} is not > 0")
    return int(limit) if float(limit).is_integer() else float(limit)


def _check_virtual_gpus(value: VirtualGpus) -> Optional[tuple[tuple[Union[int, float], ...], ...]]:
    if value is None:
        return None
    if not isinstance(value, (list, tuple)) or not value:
        raise OptionError("virtual_gpus", value, _accepted("virtual_gpus"))
    per_gpu = []
    for limits in value:
        if isinstance(limits, numbers.Real) and not isinstance(limits, bool):
            raise OptionError("virtual_gpus", value, _accepted("virtual_gpus"),
                              f"wrap the limits of one GPU in a list: virtual_gpus=[{list(value)!r}]")
        if not isinstance(limits, (list, tuple)) or not limits:
            raise OptionError("virtual_gpus", value, _accepted("virtual_gpus"),
                              "every virtual GPU needs a memory limit in MiB")
        per_gpu.append(tuple(_check_memory_limit(limit, value) for limit in limits))
    return tuple(per_gpu)


def _check_jit(value: Any) -> Optional[JitLevel]:
    if value is None or isinstance(value, JitLevel):
        return value
    if isinstance(value, bool):
        return JitLevel.ON_1 if value else JitLevel.OFF
    if isinstance(value, str) and value.strip().lower() in _JIT_WORDS:
        return _JIT_WORDS[value.strip().lower()]
    raise OptionError("jit", value, _accepted("jit"))


def unknown_keyword_error(name: str) -> OptionError:
    """Builds the error for a keyword that is not an option, with a suggestion."""
    if name in TF1_NAME_ALIASES:
        hint = f"{name} is the ConfigProto field; the keyword is {TF1_NAME_ALIASES[name]}"
    else:
        close = difflib.get_close_matches(name, list(SPECS_BY_KEYWORD), n=1, cutoff=0.5)
        hint = f"did you mean {close[0]!r}?" if close else ""
    return OptionError("option name", name, "one of " + ", ".join(SPECS_BY_KEYWORD), hint)


@dataclasses.dataclass(frozen=True, init=False)
class SessionOptions:
    """The options of a TF1 session, valid by construction.

    `None` means "not set": each world then keeps its own default (for example
    soft placement is on in TF2 eager code and off in TF1 graph sessions).

    Args (all keyword-only; see `tf1compat explain --table`):
      log_placement: ConfigProto `log_device_placement`.
      soft_placement: ConfigProto `allow_soft_placement`.
      growth: `gpu_options.allow_growth`.
      memory_fraction: `gpu_options.per_process_gpu_memory_fraction`, in (0, 1].
      visible_gpus: `gpu_options.visible_device_list`, as indices or "0,1".
      gpus: `device_count['GPU']`; 0 hides every GPU.
      cpus: `device_count['CPU']`; more than 1 splits the CPU into logical devices.
      virtual_gpus: `gpu_options.experimental.virtual_devices`: per visible
        GPU, the memory limit in MiB of each virtual GPU made from it.
      intra_op_threads / inter_op_threads: the two thread-pool sizes.
      jit: `global_jit_level`: 'off', 'on_1' or 'on_2'.
      passthrough: a serialized ConfigProto holding fields that have no
        keyword; kept so they are not lost (see `from_config_proto`).

    Raises:
      OptionError: a value is out of range or of the wrong type, or a keyword
        is unknown (the message suggests the closest one).

    >>> SessionOptions(growth=True, visible_gpus="0,1").visible_gpus
    (0, 1)
    """

    log_placement: Optional[bool] = None
    soft_placement: Optional[bool] = None
    growth: Optional[bool] = None
    memory_fraction: Optional[float] = None
    visible_gpus: Optional[tuple[int, ...]] = None
    gpus: Optional[int] = None
    cpus: Optional[int] = None
    virtual_gpus: Optional[tuple[tuple[Union[int, float], ...], ...]] = None
    intra_op_threads: Optional[int] = None
    inter_op_threads: Optional[int] = None
    jit: Optional[JitLevel] = None
    passthrough: Optional[bytes] = dataclasses.field(default=None, repr=False)

    def __init__(
        self,
        *,
        log_placement: Optional[bool] = None,
        soft_placement: Optional[bool] = None,
        growth: Optional[bool] = None,
        memory_fraction: Optional[float] = None,
        visible_gpus: VisibleGpus = None,
        gpus: Optional[int] = None,
        cpus: Optional[int] = None,
        virtual_gpus: VirtualGpus = None,
        intra_op_threads: Optional[int] = None,
        inter_op_threads: Optional[int] = None,
        jit: Union[JitLevel, str, bool, None] = None,
        passthrough: Optional[bytes] = None,
        **unknown: Any,
    ):
        if unknown:
            raise unknown_keyword_error(sorted(unknown)[0])
        if passthrough is not None and not isinstance(passthrough, bytes):
            raise OptionError("passthrough", passthrough, "bytes of a serialized ConfigProto, or None")
        values = {
            "log_placement": _check_bool("log_placement", log_placement),
            "soft_placement": _check_bool("soft_placement", soft_placement),
            "growth": _check_bool("growth", growth),
            "memory_fraction": _check_fraction(memory_fraction),
            "visible_gpus": _check_visible_gpus(visible_gpus),
            "gpus": _check_int("gpus", gpus, 0),
            "cpus": _check_int("cpus", cpus, 1),
            "virtual_gpus": _check_virtual_gpus(virtual_gpus),
            "intra_op_threads": _check_int("intra_op_threads", intra_op_threads, 0),
            "inter_op_threads": _check_int("inter_op_threads", inter_op_threads, 0),
            "jit": _check_jit(jit),
            "passthrough": passthrough or None,
        }
        for name, value in values.items():
            object.__setattr__(self, name, value)

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
        from tf1compat import proto_conversion

        return proto_conversion.options_from_proto(proto, unmapped=unmapped)

    def to_config_proto(self):
        """Returns the equivalent `tf.compat.v1.ConfigProto`."""
        from tf1compat import proto_conversion

        return proto_conversion.options_to_proto(self)

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
        return (self.growth, self.memory_fraction, self.visible_gpus, self.virtual_gpus)

    def keyword_text(self) -> str:
        """The options as Python keyword text, e.g. "growth=True, cpus=2"."""
        parts = []
        for key, value in self.to_kwargs().items():
            if key == "passthrough":
                continue
            if isinstance(value, JitLevel):
                value = value.value
            parts.append(f"{key}={value!r}")
        return ", ".join(parts)


_FIELD_NAMES = frozenset(f.name for f in dataclasses.fields(SessionOptions))


def from_keywords(keywords: Mapping[str, Any]) -> SessionOptions:
    """SessionOptions from a mapping of keywords (unknown ones rejected)."""
    return SessionOptions(**dict(keywords))
