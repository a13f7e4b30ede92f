"""SessionOptions: construction, validation and the ConfigProto round trip."""

import math

import pytest
import tensorflow as tf
from google.protobuf import text_format

from tf1compat import OptionError, SessionOptions, UnmappedConfigError
from tf1compat.shared.option_table import OPTION_SPECS
from tf1compat.shared.options import JitLevel


def _proto(**fields):
    proto = tf.compat.v1.ConfigProto()
    for path, value in fields.items():
        target = proto
        *parents, leaf = path.split("__")
        for parent in parents:
            target = getattr(target, parent)
        setattr(target, leaf, value)
    return proto


def _virtual_proto():
    proto = tf.compat.v1.ConfigProto()
    first = proto.gpu_options.experimental.virtual_devices.add()
    first.memory_limit_mb.extend([1024, 2048.5])
    second = proto.gpu_options.experimental.virtual_devices.add()
    second.memory_limit_mb.extend([512])
    return proto


def _rewrite_proto():
    proto = tf.compat.v1.ConfigProto()
    rewrite = proto.graph_options.rewrite_options
    rewrite.constant_folding = rewrite.OFF
    rewrite.layout_optimizer = rewrite.ON
    rewrite.disable_meta_optimizer = True
    return proto


def _filters_proto(*filters):
    proto = tf.compat.v1.ConfigProto()
    proto.device_filters.extend(filters)
    return proto


def _device_count_proto(**counts):
    proto = tf.compat.v1.ConfigProto()
    for device_type, count in counts.items():
        proto.device_count[device_type] = count
    return proto


# One ConfigProto per option of the table, with the keyword value it must read as.
ROUND_TRIP_CASES = {
    "log_placement": (_proto(log_device_placement=True), True),
    "soft_placement": (_proto(allow_soft_placement=True), True),
    "growth": (_proto(gpu_options__allow_growth=True), True),
    "memory_fraction": (_proto(gpu_options__per_process_gpu_memory_fraction=0.35), 0.35),
    "visible_gpus": (_proto(gpu_options__visible_device_list="1,0,3"), (1, 0, 3)),
    "gpus": (_device_count_proto(GPU=0), 0),
    "cpus": (_device_count_proto(CPU=4), 4),
    "virtual_gpus": (_virtual_proto(), ((1024, 2048.5), (512,))),
    "intra_op_threads": (_proto(intra_op_parallelism_threads=3), 3),
    "inter_op_threads": (_proto(inter_op_parallelism_threads=5), 5),
    "jit": (_proto(graph_options__optimizer_options__global_jit_level=2), JitLevel.ON_2),
    "rewrite_options": (_rewrite_proto(), (("constant_folding", False),
                                           ("disable_meta_optimizer", True),
                                           ("layout_optimizer", True))),
    "allocator_type": (_proto(gpu_options__allocator_type="BFC"), "BFC"),
    "device_filters": (_filters_proto("/job:ps", "/job:worker/task:1"),
                       ("/job:ps", "/job:worker/task:1")),
}


def test_every_option_of_the_table_has_a_round_trip_case():
    assert set(ROUND_TRIP_CASES) == {spec.keyword for spec in OPTION_SPECS}


@pytest.mark.parametrize("keyword", sorted(ROUND_TRIP_CASES))
def test_config_proto_round_trip_is_exact(keyword):
    proto, expected = ROUND_TRIP_CASES[keyword]
    options = SessionOptions.from_config_proto(proto)
    assert getattr(options, keyword) == expected
    assert options.to_kwargs() == {keyword: expected}
    assert options.to_config_proto() == proto
    assert options.to_config_proto().SerializeToString(deterministic=True) == \
        proto.SerializeToString(deterministic=True)


@pytest.mark.parametrize("keyword", sorted(ROUND_TRIP_CASES))
def test_round_trip_through_serialized_and_text_format(keyword):
    proto, expected = ROUND_TRIP_CASES[keyword]
    from_bytes = SessionOptions.from_config_proto(proto.SerializeToString())
    from_text = SessionOptions.from_config_proto(text_format.MessageToString(proto))
    assert from_bytes == from_text == SessionOptions.from_config_proto(proto)
    assert getattr(from_text, keyword) == expected


def test_all_options_together_round_trip():
    proto = _virtual_proto()
    proto.log_device_placement = True
    proto.allow_soft_placement = True
    proto.gpu_options.allow_growth = True
    proto.gpu_options.per_process_gpu_memory_fraction = 0.5
    proto.gpu_options.visible_device_list = "0,1"
    proto.device_count["GPU"] = 2
    proto.device_count["CPU"] = 3
    proto.intra_op_parallelism_threads = 2
    proto.inter_op_parallelism_threads = 1
    proto.graph_options.optimizer_options.global_jit_level = -1
    options = SessionOptions.from_config_proto(proto)
    assert options.to_config_proto() == proto
    assert options.jit is JitLevel.OFF
    assert SessionOptions(**options.to_kwargs()) == options


def test_keywords_to_proto_and_back():
    options = SessionOptions(growth=True, memory_fraction=0.25, visible_gpus=[1], cpus=2,
                             virtual_gpus=[[256, 256]], jit="on_1", intra_op_threads=0)
    proto = options.to_config_proto()
    assert proto.gpu_options.allow_growth is True
    assert math.isclose(proto.gpu_options.per_process_gpu_memory_fraction, 0.25)
    assert proto.gpu_options.visible_device_list == "1"
    assert proto.device_count["CPU"] == 2
    assert list(proto.gpu_options.experimental.virtual_devices[0].memory_limit_mb) == [256, 256]
    assert proto.graph_options.optimizer_options.global_jit_level == 1
    back = SessionOptions.from_config_proto(proto)
    # proto3 cannot tell 0 from unset: intra_op_threads=0 reads back as "not set".
    assert back == options.replace(intra_op_threads=None)


def test_unmapped_fields_are_listed_not_dropped():
    proto = _proto(gpu_options__allow_growth=True, operation_timeout_in_ms=500)
    proto.gpu_options.polling_active_delay_usecs = 10
    proto.isolate_session_state = True
    with pytest.raises(UnmappedConfigError) as caught:
        SessionOptions.from_config_proto(proto)
    assert set(caught.value.fields) == {"operation_timeout_in_ms",
                                        "gpu_options.polling_active_delay_usecs",
                                        "isolate_session_state"}
    assert "gpu_options.polling_active_delay_usecs" in str(caught.value)


def test_rewrite_settings_beyond_on_and_off_pass_through():
    proto = _rewrite_proto()
    proto.graph_options.rewrite_options.arithmetic_optimization = \
        proto.graph_options.rewrite_options.AGGRESSIVE
    with pytest.raises(UnmappedConfigError, match="rewrite_options.arithmetic_optimization"):
        SessionOptions.from_config_proto(proto)
    options = SessionOptions.from_config_proto(proto, unmapped="keep")
    assert dict(options.rewrite_options) == {"constant_folding": False,
                                             "disable_meta_optimizer": True,
                                             "layout_optimizer": True}
    assert options.passthrough
    assert options.to_config_proto() == proto


def test_new_options_from_keywords_reach_the_config_proto():
    options = SessionOptions(rewrite_options={"constant_folding": False, "remapping": True},
                             allocator_type="bfc", device_filters="/job:ps, /job:worker/task:0")
    proto = options.to_config_proto()
    rewrite = proto.graph_options.rewrite_options
    assert (rewrite.constant_folding, rewrite.remapping) == (rewrite.OFF, rewrite.ON)
    assert proto.gpu_options.allocator_type == "BFC"
    assert list(proto.device_filters) == ["/job:ps", "/job:worker/task:0"]
    assert SessionOptions(rewrite_options="constant_folding=off,remapping=on") == \
        SessionOptions(rewrite_options=[("remapping", True), ("constant_folding", False)])
    assert "rewrite_options={'constant_folding': False, 'remapping': True}" in \
        options.keyword_text()
    assert hash(options) == hash(SessionOptions.from_config_proto(proto))


def test_unmapped_fields_kept_on_request_round_trip():
    proto = _virtual_proto()
    proto.gpu_options.experimental.virtual_devices[0].priority.extend([0, -1])
    proto.gpu_options.allocator_type = "BFC"
    proto.device_count["XLA_CPU"] = 1
    proto.device_count["CPU"] = 2
    options = SessionOptions.from_config_proto(proto, unmapped="keep")
    assert options.cpus == 2
    assert options.passthrough
    assert options.to_config_proto() == proto


def test_coerce_merges_proto_and_keywords():
    options = SessionOptions.coerce(_proto(log_device_placement=True), cpus=2)
    assert options.log_placement is True and options.cpus == 2


def test_unknown_keyword_suggests_the_closest_name():
    with pytest.raises(OptionError) as caught:
        SessionOptions(grwoth=True)
    assert "grwoth" in str(caught.value) and "'growth'" in str(caught.value)


def test_device_count_as_keyword_names_both_keywords():
    with pytest.raises(OptionError, match="the keyword is gpus / cpus"):
        SessionOptions(device_count={"CPU": 2})


def test_tf1_field_name_as_keyword_names_our_keyword():
    with pytest.raises(OptionError, match="allow_growth is the ConfigProto field; the keyword is growth"):
        SessionOptions(allow_growth=True)


BAD_INPUTS = [
    ("memory_fraction", 0),
    ("memory_fraction", 0.0),
    ("memory_fraction", -0.5),
    ("memory_fraction", 1.5),
    ("memory_fraction", float("nan")),
    ("memory_fraction", "half"),
    ("memory_fraction", True),
    ("intra_op_threads", -1),
    ("intra_op_threads", 2.5),
    ("intra_op_threads", "4"),
    ("inter_op_threads", -3),
    ("inter_op_threads", True),
    ("gpus", -1),
    ("gpus", 1.0),
    ("cpus", 0),
    ("cpus", -2),
    ("cpus", "2"),
    ("visible_gpus", [0, 0]),
    ("visible_gpus", "1,1"),
    ("visible_gpus", [-1]),
    ("visible_gpus", "0,-2"),
    ("visible_gpus", "0,x"),
    ("visible_gpus", []),
    ("visible_gpus", [0.5]),
    ("visible_gpus", {0: 1}),
    ("virtual_gpus", [[]]),
    ("virtual_gpus", [[None]]),
    ("virtual_gpus", [[1024, None]]),
    ("virtual_gpus", [[0]]),
    ("virtual_gpus", [[-512]]),
    ("virtual_gpus", [1024, 1024]),
    ("virtual_gpus", []),
    ("virtual_gpus", "1024"),
    ("log_placement", "yes"),
    ("soft_placement", 1),
    ("growth", "true"),
    ("jit", "fast"),
    ("jit", 3),
    ("rewrite_options", {"no_such_optimizer": True}),
    ("rewrite_options", {"constant_folding": "off"}),
    ("rewrite_options", "constant_folding=maybe"),
    ("rewrite_options", {}),
    ("rewrite_options", 5),
    ("allocator_type", "cuda_malloc_async"),
    ("allocator_type", 1),
    ("device_filters", []),
    ("device_filters", ["ps"]),
    ("device_filters", [3]),
    ("device_filters", 7),
]


@pytest.mark.parametrize("keyword,value", BAD_INPUTS, ids=[f"{k}={v!r}" for k, v in BAD_INPUTS])
def test_bad_value_is_rejected_naming_option_and_value(keyword, value):
    with pytest.raises(OptionError) as caught:
        SessionOptions(**{keyword: value})
    message = str(caught.value)
    assert caught.value.option == keyword
    assert keyword in message
    assert f"{keyword}={value!r}" in message
    assert "accepted:" in message


def test_bad_config_proto_inputs():
    with pytest.raises(OptionError, match="ConfigProto text format"):
        SessionOptions.from_config_proto("gpu_options { allow_growth: maybe }")
    with pytest.raises(OptionError, match="serialized ConfigProto"):
        SessionOptions.from_config_proto(b"\xff\xff\xff")
    with pytest.raises(OptionError, match="tf.compat.v1.ConfigProto"):
        SessionOptions.from_config_proto(42)
    with pytest.raises(OptionError, match="unmapped"):
        SessionOptions.from_config_proto(_proto(), unmapped="drop")


def test_options_are_frozen_and_hashable_values():
    options = SessionOptions(visible_gpus="0,1", virtual_gpus=[[1, 2]])
    with pytest.raises(AttributeError):
        options.growth = True  # type: ignore[misc]
    assert options.visible_gpus == (0, 1)
    assert options.virtual_gpus == ((1, 2),)
    assert hash(options) == hash(SessionOptions(visible_gpus=(0, 1), virtual_gpus=((1, 2),)))


def test_replace_validates_and_rejects_unknown():
    options = SessionOptions(cpus=2)
    assert options.replace(cpus=3).cpus == 3
    with pytest.raises(OptionError):
        options.replace(cpus=0)
    with pytest.raises(OptionError, match="'cpus'"):
        options.replace(cpu=3)


def test_merged_takes_only_unset_keywords():
    script = SessionOptions(growth=False, cpus=2)
    command_line = SessionOptions(growth=True, log_placement=True)
    merged = script.merged(command_line)
    assert merged.growth is False and merged.log_placement is True and merged.cpus == 2


def test_jit_spellings():
    assert SessionOptions(jit=True).jit is JitLevel.ON_1
    assert SessionOptions(jit=False).jit is JitLevel.OFF
    assert SessionOptions(jit="AutoClustering").jit is JitLevel.ON_1
    assert SessionOptions(jit="ON_2").jit is JitLevel.ON_2
