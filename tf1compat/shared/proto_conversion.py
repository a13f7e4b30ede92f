"""Conversion between option keywords and TensorFlow's `ConfigProto`.

ConfigProto -> keywords -> ConfigProto is exact for every field the option
table maps. Fields it does not map are either listed in an error or, on
request, carried through untouched as the `passthrough` bytes.

This module speaks in keywords (the option table's names) rather than in
`SessionOptions`, so that `tf1compat.shared.options` can depend on it and not the
other way round.
"""

from __future__ import annotations

from typing import Any, Mapping, Optional

from tf1compat.shared.errors import OptionError, UnmappedConfigError
from tf1compat.shared.option_spec import message_at
from tf1compat.shared.option_table import OPTION_SPECS


def _config_proto_class():
    from tf1compat.shared import tf_internals

    return tf_internals.resolve(tf_internals.CONFIG_PROTOS, "ConfigProto")


def parse_config_proto(proto: Any):
    """Returns a ConfigProto from a ConfigProto, serialized bytes, or text format.

    Raises:
      OptionError: the value is none of these, or does not parse.
    """
    config_proto = _config_proto_class()
    if isinstance(proto, config_proto):
        return proto
    if isinstance(proto, (bytes, bytearray)):
        from google.protobuf.message import DecodeError

        parsed = config_proto()
        try:
            parsed.ParseFromString(bytes(proto))
        except DecodeError as error:  # keep protobuf's reason
            raise OptionError("ConfigProto", _short(proto), "a serialized ConfigProto",
                              f"does not parse: {error}") from None
        return parsed
    if isinstance(proto, str):
        from google.protobuf import text_format

        parsed = config_proto()
        try:
            text_format.Parse(proto, parsed)
        except text_format.ParseError as error:
            raise OptionError("ConfigProto", _short(proto), "ConfigProto text format",
                              f"does not parse: {error}") from None
        return parsed
    raise OptionError("ConfigProto", _short(proto),
                      "a tf.compat.v1.ConfigProto, its serialized bytes, or its text format")


def _short(value: Any) -> Any:
    text = repr(value)
    return value if len(text) <= 80 else text[:77] + "..."


def keywords_from_proto(proto: Any, *, unmapped: str = "error") -> dict[str, Any]:
    """The option keywords a ConfigProto sets; see SessionOptions.from_config_proto.

    Every keyword of the table is present (None where the field is unset), plus
    "passthrough" (serialized unmapped fields) when unmapped="keep" finds some.
    """
    if unmapped not in ("error", "keep"):
        raise OptionError("unmapped", unmapped, "'error' or 'keep'")
    proto = parse_config_proto(proto)
    rest = _without_mapped_fields(proto)
    if rest.ByteSize() and unmapped == "error":
        raise UnmappedConfigError(set_field_paths(rest))
    keywords = {spec.keyword: spec.field.read(proto) for spec in OPTION_SPECS}
    if rest.ByteSize():
        keywords["passthrough"] = rest.SerializeToString(deterministic=True)
    return keywords


def _without_mapped_fields(proto):
    """A copy of `proto` with every field the option table maps cleared."""
    rest = type(proto)()
    rest.CopyFrom(proto)
    for spec in OPTION_SPECS:
        spec.field.clear(rest)
    for path in _mapped_parents():
        parent, leaf = message_at(rest, path)
        _clear_if_empty(parent, leaf)
    return rest


def _mapped_parents() -> list[str]:
    """The messages holding mapped fields ('gpu_options', ...), deepest first."""
    parents = {".".join(path.split(".")[:depth])
               for spec in OPTION_SPECS for path in spec.field.paths
               for depth in range(1, path.count(".") + 1)}
    return sorted(parents, key=lambda path: -path.count("."))


def _clear_if_empty(message, field: str) -> None:
    if message.HasField(field) and not getattr(message, field).ByteSize():
        message.ClearField(field)


def _is_repeated(field) -> bool:
    # protobuf 5.28 added `is_repeated` and later releases dropped `label`.
    if hasattr(field, "is_repeated"):
        return field.is_repeated
    return field.label == field.LABEL_REPEATED


def set_field_paths(message, prefix: str = "") -> list[str]:
    """Dotted paths of every set leaf field of `message`, e.g. 'gpu_options.allocator_type'."""
    paths: list[str] = []
    for field, value in message.ListFields():
        path = f"{prefix}{field.name}"
        if field.message_type is not None and field.message_type.GetOptions().map_entry:
            paths.extend(f"{path}[{key!r}]" for key in value)
        elif field.message_type is not None and _is_repeated(field):
            for index, item in enumerate(value):
                paths.extend(set_field_paths(item, f"{path}[{index}].") or [f"{path}[{index}]"])
        elif field.message_type is not None:
            paths.extend(set_field_paths(value, path + ".") or [path])
        else:
            paths.append(path)
    return paths


def proto_from_keywords(keywords: Mapping[str, Any], passthrough: Optional[bytes] = None):
    """Returns the ConfigProto that the option keywords describe.

    `passthrough` (serialized ConfigProto fields the table does not map) is
    laid down first; keywords that are None leave their field unset.
    """
    proto = _config_proto_class()()
    if passthrough:
        proto.ParseFromString(passthrough)
    for spec in OPTION_SPECS:
        value = keywords.get(spec.keyword)
        if value is not None:
            spec.field.write(proto, value)
    return proto


def proto_text(proto) -> str:
    """The ConfigProto in text format (what TF1 users write in .pbtxt files)."""
    from google.protobuf import text_format

    return text_format.MessageToString(proto)
