"""Conversion between `SessionOptions` and TensorFlow's `ConfigProto`.

ConfigProto -> SessionOptions -> ConfigProto is exact for every field the
option table maps. Fields it does not map are either listed in an error or,
on request, carried through untouched in `SessionOptions.passthrough`.
"""

from __future__ import annotations

from typing import Any

from tf1compat.errors import OptionError, UnmappedConfigError
from tf1compat.options import JitLevel, SessionOptions

_JIT_TO_PROTO = {JitLevel.OFF: -1, JitLevel.ON_1: 1, JitLevel.ON_2: 2}
_JIT_FROM_PROTO = {value: level for level, value in _JIT_TO_PROTO.items()}


def _config_pb2():
    from tensorflow.core.protobuf import config_pb2

    return config_pb2


def parse_config_proto(proto: Any):
    """Returns a ConfigProto from a ConfigProto, serialized bytes, or text format.

    Raises:
      OptionError: the value is none of these, or does not parse.
    """
    config_pb2 = _config_pb2()
    if isinstance(proto, config_pb2.ConfigProto):
        return proto
    if isinstance(proto, (bytes, bytearray)):
        parsed = config_pb2.ConfigProto()
        try:
            parsed.ParseFromString(bytes(proto))
        except Exception as error:  # protobuf's DecodeError; keep its reason
            raise OptionError("ConfigProto", _short(proto), "a serialized ConfigProto",
                              f"does not parse: {error}") from None
        return parsed
    if isinstance(proto, str):
        from google.protobuf import text_format

        parsed = config_pb2.ConfigProto()
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


def options_from_proto(proto: Any, *, unmapped: str = "error") -> SessionOptions:
    """Reads the mapped fields of a ConfigProto; see SessionOptions.from_config_proto."""
    if unmapped not in ("error", "keep"):
        raise OptionError("unmapped", unmapped, "'error' or 'keep'")
    proto = parse_config_proto(proto)
    gpu = proto.gpu_options
    device_count = dict(proto.device_count)
    virtual = tuple(tuple(v.memory_limit_mb) for v in gpu.experimental.virtual_devices)
    jit_level = proto.graph_options.optimizer_options.global_jit_level
    keywords = dict(
        log_placement=proto.log_device_placement or None,
        soft_placement=proto.allow_soft_placement or None,
        growth=gpu.allow_growth or None,
        memory_fraction=gpu.per_process_gpu_memory_fraction or None,
        visible_gpus=gpu.visible_device_list or None,
        gpus=device_count.get("GPU"),
        cpus=device_count.get("CPU"),
        virtual_gpus=virtual or None,
        intra_op_threads=proto.intra_op_parallelism_threads or None,
        inter_op_threads=proto.inter_op_parallelism_threads or None,
        jit=_JIT_FROM_PROTO.get(jit_level),
    )
    rest = _without_mapped_fields(proto)
    if rest.ByteSize():
        if unmapped == "error":
            raise UnmappedConfigError(set_field_paths(rest))
        keywords["passthrough"] = rest.SerializeToString(deterministic=True)
    if jit_level not in (0, *_JIT_FROM_PROTO):
        raise OptionError("jit", jit_level, "global_jit_level DEFAULT, OFF, ON_1 or ON_2")
    return SessionOptions(**keywords)


def _without_mapped_fields(proto):
    """A copy of `proto` with every field the option table maps cleared."""
    rest = type(proto)()
    rest.CopyFrom(proto)
    rest.ClearField("log_device_placement")
    rest.ClearField("allow_soft_placement")
    rest.ClearField("intra_op_parallelism_threads")
    rest.ClearField("inter_op_parallelism_threads")
    for device_type in ("GPU", "CPU"):
        rest.device_count.pop(device_type, None)
    gpu = rest.gpu_options
    gpu.ClearField("allow_growth")
    gpu.ClearField("per_process_gpu_memory_fraction")
    gpu.ClearField("visible_device_list")
    for virtual in gpu.experimental.virtual_devices:
        virtual.ClearField("memory_limit_mb")
    if not any(v.ByteSize() for v in gpu.experimental.virtual_devices):
        gpu.experimental.ClearField("virtual_devices")
    _clear_if_empty(gpu, "experimental")
    _clear_if_empty(rest, "gpu_options")
    rest.graph_options.optimizer_options.ClearField("global_jit_level")
    _clear_if_empty(rest.graph_options, "optimizer_options")
    _clear_if_empty(rest, "graph_options")
    return rest


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


def options_to_proto(options: SessionOptions):
    """Returns the ConfigProto that `options` describes (passthrough fields included)."""
    config_pb2 = _config_pb2()
    proto = config_pb2.ConfigProto()
    if options.passthrough:
        proto.ParseFromString(options.passthrough)
    if options.log_placement is not None:
        proto.log_device_placement = options.log_placement
    if options.soft_placement is not None:
        proto.allow_soft_placement = options.soft_placement
    if options.growth is not None:
        proto.gpu_options.allow_growth = options.growth
    if options.memory_fraction is not None:
        proto.gpu_options.per_process_gpu_memory_fraction = options.memory_fraction
    if options.visible_gpus is not None:
        proto.gpu_options.visible_device_list = ",".join(map(str, options.visible_gpus))
    if options.gpus is not None:
        proto.device_count["GPU"] = options.gpus
    if options.cpus is not None:
        proto.device_count["CPU"] = options.cpus
    if options.virtual_gpus is not None:
        devices = proto.gpu_options.experimental.virtual_devices
        for index, limits in enumerate(options.virtual_gpus):
            entry = devices[index] if index < len(devices) else devices.add()
            entry.ClearField("memory_limit_mb")
            entry.memory_limit_mb.extend(limits)
    if options.intra_op_threads is not None:
        proto.intra_op_parallelism_threads = options.intra_op_threads
    if options.inter_op_threads is not None:
        proto.inter_op_parallelism_threads = options.inter_op_threads
    if options.jit is not None:
        proto.graph_options.optimizer_options.global_jit_level = _JIT_TO_PROTO[options.jit]
    return proto


def proto_text(proto) -> str:
    """The ConfigProto in text format (what TF1 users write in .pbtxt files)."""
    from google.protobuf import text_format

    return text_format.MessageToString(proto)
