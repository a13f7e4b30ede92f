"""`--device-map` opens a script's GPU code paths; its NCHW convolutions and pools run on the
CPU even where oneDNN is off (TensorFlow's own CPU kernels refuse NCHW), with the numbers of
the same model in the CPU's layout."""

from pathlib import Path

import pytest

from isolated import run_cli
from tf1compat.compare.printed_numbers import compare
from tf1compat.runner import nchw_on_cpu

SCRIPT = "scripts/channels_first.py"


def _run(tmp_path, *args, onednn):
    script = Path(__file__).resolve().parent / SCRIPT
    result = run_cli("run", *args, str(script), cwd=tmp_path,
                     env={"TF_ENABLE_ONEDNN_OPTS": onednn})
    assert result.returncode == 0, result.stderr[-3000:]
    return result


@pytest.mark.parametrize("onednn", ["0", "1"])
def test_nchw_ops_train_on_the_cpu_with_the_nhwc_models_numbers(tmp_path, onednn):
    mapped = _run(tmp_path, "--device-map", "gpu:*=cpu:*", onednn=onednn)
    assert "layout NCHW" in mapped.stdout
    reference = _run(tmp_path, onednn=onednn)  # no GPU seen: the CPU's layout
    assert "layout NHWC" in reference.stdout
    comparison = compare(reference.stdout.replace("NHWC", "NCHW"), mapped.stdout,
                         rtol=1e-4, atol=1e-6)
    assert comparison.ok, comparison.report()


def test_per_dimension_arguments_are_given_in_nhwc_order():
    assert nchw_on_cpu._permuted([1, 1, 2, 3]) == [1, 2, 3, 1]
    assert nchw_on_cpu._permuted([0, 0, 0, 0, 1, 2, 3, 4]) == [0, 0, 1, 2, 3, 4, 0, 0]
    assert nchw_on_cpu._permuted([]) == []


def test_the_name_the_script_gave_is_the_nchw_result():
    from isolated import run_python

    result = run_python("""
        import tensorflow as tf
        from tensorflow.python.ops import gen_nn_ops
        from tf1compat.runner import nchw_on_cpu
        tf.compat.v1.disable_v2_behavior()
        pool = nchw_on_cpu.as_nhwc(gen_nn_ops.max_pool, *nchw_on_cpu.WRAPPED["max_pool"])
        x = tf.compat.v1.placeholder(tf.float32, [2, 3, 8, 8])
        y = pool(x, [1, 1, 2, 2], [1, 1, 2, 2], "VALID", data_format="NCHW", name="pool5")
        graph = tf.compat.v1.get_default_graph()
        print(y.name, graph.get_tensor_by_name("pool5:0").shape.as_list())
        """, env={"TF_ENABLE_ONEDNN_OPTS": "0"})
    assert result.stdout.split() == ["pool5:0", "[2,", "3,", "4,", "4]"], result.stdout
