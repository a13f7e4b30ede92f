"""Device remapping: `gpu:*=cpu:*` sends every `/gpu:N` request to `/cpu:N`.

A script written for 2 or 4 GPUs can then run, towers and all, on a CPU-only
machine split into that many logical CPUs: the way to test multi-GPU code
without GPUs. `DeviceMap` is pure data (parse, map a device string); the
runner installs it as a graph hook for a whole process (see
`tf1compat.runner.tf_patches`).

Rules are `SRC=DST` pairs separated by commas or given one per flag:

- `gpu:*=cpu:*` -- GPU i becomes CPU i, for every i;
- `gpu:1=cpu:0` -- GPU 1 becomes CPU 0 (other GPUs are left alone);
- `gpu:*=cpu:0` -- every GPU becomes CPU 0.

An explicit pair wins over a wildcard, whatever the order.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Iterable, Optional

from tf1compat.shared.errors import OptionError

_SIDE = re.compile(r"^\s*/?(?:device:)?(?P<type>[A-Za-z_]+)\s*:\s*(?P<index>\*|\d+)\s*$")
_ACCEPTED = ("rules such as 'gpu:*=cpu:*' or 'gpu:1=cpu:0', separated by commas "
             "(a '*' on the right needs a '*' on the left)")


@dataclasses.dataclass(frozen=True)
class DeviceRule:
    """One `SRC=DST` rule; an index of None stands for '*'."""

    source_type: str
    source_index: Optional[int]
    target_type: str
    target_index: Optional[int]

    def matches(self, device_type: str, index: Optional[int]) -> bool:
        if device_type.upper() != self.source_type:
            return False
        return self.source_index is None or self.source_index == index

    def __str__(self) -> str:
        def side(kind: str, index: Optional[int]) -> str:
            return f"{kind.lower()}:{'*' if index is None else index}"
        return f"{side(self.source_type, self.source_index)}={side(self.target_type, self.target_index)}"


def _parse_side(text: str, whole: str) -> tuple[str, Optional[int]]:
    match = _SIDE.match(text)
    if not match:
        raise OptionError("device_map", whole, _ACCEPTED, f"{text.strip()!r} is not TYPE:INDEX")
    index = match.group("index")
    return match.group("type").upper(), None if index == "*" else int(index)


def parse_rule(text: str) -> DeviceRule:
    """'gpu:*=cpu:*' -> DeviceRule('GPU', None, 'CPU', None).

    >>> str(parse_rule(' GPU:1 = cpu:0 '))
    'gpu:1=cpu:0'
    """
    if text.count("=") != 1:
        raise OptionError("device_map", text, _ACCEPTED)
    left, right = text.split("=")
    source_type, source_index = _parse_side(left, text)
    target_type, target_index = _parse_side(right, text)
    if target_index is None and source_index is not None:
        raise OptionError("device_map", text, _ACCEPTED,
                          "'*' on the right means 'the same index', so the left needs one too")
    return DeviceRule(source_type, source_index, target_type, target_index)


class DeviceMap:
    """An ordered set of device rules; explicit rules win over wildcards.

    >>> m = DeviceMap.parse(['gpu:*=cpu:*', 'gpu:3=cpu:0'])
    >>> m.map('/gpu:1'), m.map('/device:GPU:3'), m.map('/cpu:0')
    ('/device:CPU:1', '/device:CPU:0', '/cpu:0')
    """

    def __init__(self, rules: Iterable[DeviceRule] = ()):
        rules = list(rules)
        # Explicit indices first: 'gpu:1=cpu:0' beats 'gpu:*=cpu:*'.
        self.rules: tuple[DeviceRule, ...] = tuple(
            sorted(rules, key=lambda rule: rule.source_index is None))

    @classmethod
    def parse(cls, texts: Iterable[str]) -> "DeviceMap":
        rules = []
        for text in texts:
            rules.extend(parse_rule(part) for part in text.split(",") if part.strip())
        return cls(rules)

    def __bool__(self) -> bool:
        return bool(self.rules)

    def __str__(self) -> str:
        return ",".join(str(rule) for rule in self.rules)

    def rule_for(self, device_type: str, index: Optional[int]) -> Optional[DeviceRule]:
        for rule in self.rules:
            if rule.matches(device_type, index):
                return rule
        return None

    def map(self, device: str) -> str:
        """The device string after the rules; unchanged when no rule matches."""
        if not device or not self.rules:
            return device
        import tensorflow as tf

        try:
            spec = tf.DeviceSpec.from_string(device)
        except ValueError:
            return device
        if spec.device_type is None:
            return device
        rule = self.rule_for(spec.device_type, spec.device_index)
        if rule is None:
            return device
        index = spec.device_index if rule.target_index is None else rule.target_index
        return spec.replace(device_type=rule.target_type, device_index=index).to_string()

    def explicit_targets(self, device_type: str) -> list[int]:
        """Indices of `device_type` named on the right of explicit rules."""
        return [rule.target_index for rule in self.rules
                if rule.target_type == device_type.upper() and rule.target_index is not None]

    def provided(self, device_type: str, count: int) -> list[tuple[int, str]]:
        """The devices of `device_type` the rules stand for, each with its target ('CPU:1').

        An explicit rule gives its own index; a wildcard gives indices 0..count-1, one per
        logical device the sessions get (an explicit rule keeps its target for its index).

        >>> DeviceMap.parse(['gpu:*=cpu:*']).provided('gpu', 2)
        [(0, 'CPU:0'), (1, 'CPU:1')]
        >>> DeviceMap.parse(['gpu:3=cpu:0']).provided('GPU', 2)
        [(3, 'CPU:0')]
        """
        kind = device_type.upper()
        rules = [rule for rule in self.rules if rule.source_type == kind]
        indices = {rule.source_index for rule in rules if rule.source_index is not None}
        if any(rule.source_index is None for rule in rules):
            indices |= set(range(count))
        provided = []
        for index in sorted(indices):
            rule = self.rule_for(kind, index)
            target = index if rule.target_index is None else rule.target_index
            provided.append((index, f"{rule.target_type}:{target}"))
        return provided

    def to_list(self) -> list[str]:
        return [str(rule) for rule in self.rules]
