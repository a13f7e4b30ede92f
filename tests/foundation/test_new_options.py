"""rewrite_options, allocator_type and device_filters on a real TF runtime, both worlds.

Each scenario runs in its own process: TF2 fixes device options when its runtime starts.
"""

from isolated import run_json

GRAPPLER_IN_A_SESSION = """
import json
import tensorflow as tf
import tf1compat

def ops_after_grappler(**keywords):
    with tf1compat.session(**keywords) as sess:
        x = tf.compat.v1.placeholder(tf.float32, [2])
        total = tf.identity(tf.add_n([x, x, x]), name="total")
        back = tf.identity(tf.transpose(tf.transpose(tf.reshape(x, [1, 2]))), name="back")
        metadata = tf.compat.v1.RunMetadata()
        values = sess.run([total, back], {x: [1.0, 2.0]},
                          options=tf.compat.v1.RunOptions(output_partition_graphs=True),
                          run_metadata=metadata)
        ops = sorted(node.op for graph in metadata.partition_graphs for node in graph.node)
        return {"ops": ops, "total": values[0].tolist(), "back": values[1].tolist(),
                "config": str(sess._config.graph_options.rewrite_options)}

print(json.dumps({"default": ops_after_grappler(),
                  "off": ops_after_grappler(rewrite_options={"arithmetic_optimization": False})}))
"""


def test_rewrite_options_reach_grappler_in_a_tf1_session():
    facts = run_json(GRAPPLER_IN_A_SESSION)
    default, off = facts["default"], facts["off"]
    assert default["total"] == off["total"] == [3.0, 6.0]
    assert default["back"] == off["back"] == [[1.0, 2.0]]
    # Grappler's arithmetic optimizer folds add_n(x, x, x) and a double transpose ...
    assert "AddN" not in default["ops"] and not any("Transpose" in op for op in default["ops"])
    # ... and with it off, both stay
    assert "AddN" in off["ops"] and sum("Transpose" in op for op in off["ops"]) == 2
    assert "arithmetic_optimization: OFF" in off["config"]


CONFIGURE_NEW_OPTIONS = """
import json
import modern
import tensorflow as tf

report = modern.configure(rewrite_options={"constant_folding": False, "remapping": True},
                          allocator_type="BFC", device_filters=["/job:ps"], cpus=2)
facts = {"report": report.to_dict(),
         "grappler": tf.config.optimizer.get_experimental_options()}
tf.constant(1.0)  # the runtime starts
again = modern.configure(rewrite_options={"constant_folding": True}, cpus=2)
facts["again"] = again.to_dict()
facts["grappler_after"] = tf.config.optimizer.get_experimental_options()
print(json.dumps(facts))
"""


def test_configure_applies_and_reports_the_new_options():
    facts = run_json(CONFIGURE_NEW_OPTIONS, env={"CUDA_VISIBLE_DEVICES": "-1"})
    rows = {row["option"]: row for row in facts["report"]}
    assert rows["rewrite_options"]["status"] == "applied"
    assert rows["rewrite_options"]["value"] == {"constant_folding": False, "remapping": True}
    assert facts["grappler"]["constant_folding"] is False and facts["grappler"]["remapping"] is True
    assert rows["allocator_type"]["status"] == "not applicable"  # no GPU in this process
    assert rows["device_filters"]["status"] == "not applicable"
    assert "TF_CONFIG is unset" in rows["device_filters"]["detail"]
    # Grappler's options still change once the runtime runs; the CPU split is already in effect
    again = {row["option"]: row for row in facts["again"]}
    assert again["rewrite_options"]["status"] == "applied"
    assert facts["grappler_after"]["constant_folding"] is True
    assert "already in effect" in again["cpus"]["detail"]


def test_device_filters_and_allocator_reach_a_tf1_session():
    facts = run_json("""
import json
import tensorflow as tf
import tf1compat

with tf1compat.session(device_filters="/job:ps,/job:worker/task:0", allocator_type="BFC") as sess:
    value = int(sess.run(tf.constant(2) * 3))  # a local session ignores device filters
    print(json.dumps({"filters": list(sess._config.device_filters), "value": value,
                      "allocator": sess._config.gpu_options.allocator_type}))
""")
    assert facts == {"filters": ["/job:ps", "/job:worker/task:0"], "value": 6,
                     "allocator": "BFC"}
