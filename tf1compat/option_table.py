"""The option table: each ConfigProto field, its keyword, and its TF2 call.

This is data, not code: `SessionOptions` takes its keywords from here, the
command line builds its flags from here, and `tf1compat explain --table`
prints the README's table from here, so the three can never disagree.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class OptionSpec:
    """One row of the option table.

    Attributes:
      keyword: the `SessionOptions` keyword (also `tf1compat.session(...)`'s).
      tf1_field: the ConfigProto field it reads and writes.
      tf2_call: the TF2 call that does the same thing.
      note: what a user should know when moving between the two.
      accepted: the values accepted, in words (used in error messages).
    """

    keyword: str
    tf1_field: str
    tf2_call: str
    note: str
    accepted: str


OPTION_SPECS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "log_placement",
        "log_device_placement",
        "tf.debugging.set_log_device_placement(True)",
        "both only print text; `tf1compat.placement` / `modern.placement` return it as data",
        "True or False",
    ),
    OptionSpec(
        "soft_placement",
        "allow_soft_placement",
        "tf.config.set_soft_device_placement(True)",
        "on by default in eager, off by default in TF1 graph sessions",
        "True or False",
    ),
    OptionSpec(
        "growth",
        "gpu_options.allow_growth",
        "tf.config.experimental.set_memory_growth(gpu, True) for each visible GPU",
        "must be equal on all GPUs; TF2 refuses it on a GPU with logical devices "
        "(then honoured through TF_FORCE_GPU_ALLOW_GROWTH); that variable overrides both worlds",
        "True or False",
    ),
    OptionSpec(
        "memory_fraction",
        "gpu_options.per_process_gpu_memory_fraction",
        "tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=fraction * total_mib)])",
        "no TF2 call takes a fraction: total memory comes from NVML or nvidia-smi",
        "a number greater than 0 and at most 1",
    ),
    OptionSpec(
        "visible_gpus",
        "gpu_options.visible_device_list",
        "tf.config.set_visible_devices([gpus[i] for i in visible_gpus], 'GPU')",
        'TF1 takes the string "0,1"; indices are physical GPU indices',
        "a sequence of distinct GPU indices >= 0, or a string such as '0,1'",
    ),
    OptionSpec(
        "gpus",
        "device_count['GPU']",
        "tf.config.set_visible_devices(gpus[:n], 'GPU')",
        "gpus=0 hides every GPU",
        "an integer >= 0",
    ),
    OptionSpec(
        "cpus",
        "device_count['CPU']",
        "tf.config.set_logical_device_configuration(cpu, "
        "[tf.config.LogicalDeviceConfiguration()] * n)",
        "how CPU-only machines test multi-device code",
        "an integer >= 1",
    ),
    OptionSpec(
        "virtual_gpus",
        "gpu_options.experimental.virtual_devices",
        "tf.config.set_logical_device_configuration(gpu, "
        "[tf.config.LogicalDeviceConfiguration(memory_limit=mib), ...])",
        "one list of MiB limits per visible GPU; a memory limit is required for each virtual GPU",
        "a sequence (one per visible GPU) of sequences of memory limits in MiB, each > 0",
    ),
    OptionSpec(
        "intra_op_threads",
        "intra_op_parallelism_threads",
        "tf.config.threading.set_intra_op_parallelism_threads(n)",
        "0 lets TensorFlow choose",
        "an integer >= 0",
    ),
    OptionSpec(
        "inter_op_threads",
        "inter_op_parallelism_threads",
        "tf.config.threading.set_inter_op_parallelism_threads(n)",
        "0 lets TensorFlow choose",
        "an integer >= 0",
    ),
    OptionSpec(
        "jit",
        "graph_options.optimizer_options.global_jit_level",
        'tf.config.optimizer.set_jit("autoclustering")',
        "ON_2 has no TF2 API (mapped to autoclustering)",
        "one of 'off', 'on_1', 'on_2' (True means 'on_1', False means 'off')",
    ),
)

SPECS_BY_KEYWORD: dict[str, OptionSpec] = {spec.keyword: spec for spec in OPTION_SPECS}

# ConfigProto field names people type as keywords, mapped to our keyword, so an
# error can say "the keyword for allow_growth is growth".
TF1_NAME_ALIASES: dict[str, str] = {
    "log_device_placement": "log_placement",
    "allow_soft_placement": "soft_placement",
    "allow_growth": "growth",
    "per_process_gpu_memory_fraction": "memory_fraction",
    "visible_device_list": "visible_gpus",
    "virtual_devices": "virtual_gpus",
    "intra_op_parallelism_threads": "intra_op_threads",
    "inter_op_parallelism_threads": "inter_op_threads",
    "global_jit_level": "jit",
    "device_count": "gpus / cpus",
}


def markdown_table() -> str:
    """Returns the option table as the Markdown the README embeds."""
    lines = [
        "| ConfigProto field | keyword | TF2 equivalent | what to know |",
        "|---|---|---|---|",
    ]
    for spec in OPTION_SPECS:
        lines.append(
            f"| `{spec.tf1_field}` | `{spec.keyword}` | `{spec.tf2_call}` | {spec.note} |"
        )
    return "\n".join(lines) + "\n"
