"""The session-options rule, as before/after strings (LibCST's CodemodTest)."""

from libcst.codemod import CodemodTest

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.session_options import SessionOptionsRule


class Tf1compatTarget(CodemodTest):
    TRANSFORM = SessionOptionsRule

    def findings(self, before, **kwargs):
        from libcst.codemod import CodemodContext
        import libcst as cst

        rule = SessionOptionsRule(CodemodContext(), **kwargs)
        rule.transform_module(cst.parse_module(before))
        return rule.findings

    def test_attribute_assignments_become_session_keywords(self):
        before = """
import tensorflow as tf

# memory settings
config = tf.compat.v1.ConfigProto()
config.gpu_options.allow_growth = True
config.device_count['CPU'] = 2
config.graph_options.optimizer_options.global_jit_level = tf.compat.v1.OptimizerOptions.ON_1
# the session
with tf.compat.v1.Session(config=config) as sess:
    sess.run(x)
"""
        after = """
import tensorflow as tf
import tf1compat

# memory settings
# the session
with tf1compat.session(growth=True, cpus=2, jit='on_1', graph=tf.compat.v1.get_default_graph()) as sess:
    sess.run(x)
"""
        self.assertCodemod(before, after)

    def test_constructor_keywords_and_gpu_options_variable(self):
        before = """
import tensorflow as tf
gpu_options = tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=0.5, visible_device_list="0,1")
config = tf.compat.v1.ConfigProto(allow_soft_placement=True, gpu_options=gpu_options,
                                  device_count={'GPU': 2, 'CPU': 1})
sess = tf.compat.v1.Session(config=config)
"""
        after = """
import tensorflow as tf
import tf1compat

sess = tf.compat.v1.Session(config=tf1compat.config_proto(soft_placement=True, memory_fraction=0.5, visible_gpus="0,1", gpus=2, cpus=1))
"""
        self.assertCodemod(before, after)

    def test_inline_config_with_graph_and_virtual_devices(self):
        before = """
import tensorflow as tf
with tf.compat.v1.Session(graph=g, config=tf.compat.v1.ConfigProto(gpu_options=tf.compat.v1.GPUOptions(
        experimental=tf.compat.v1.GPUOptions.Experimental(virtual_devices=[
            tf.compat.v1.GPUOptions.Experimental.VirtualDevices(memory_limit_mb=[512, 512])])))) as s:
    pass
"""
        after = """
import tensorflow as tf
import tf1compat

with tf1compat.session(virtual_gpus=[[512, 512]], graph=g) as s:
    pass
"""
        self.assertCodemod(before, after)

    def test_interactive_session_keeps_its_class(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto(log_device_placement=True)
config.gpu_options.experimental.virtual_devices.add(memory_limit_mb=[100])
sess = tf.compat.v1.InteractiveSession(config=config)
"""
        after = """
import tensorflow as tf
import tf1compat

sess = tf.compat.v1.InteractiveSession(config=tf1compat.config_proto(log_placement=True, virtual_gpus=[[100]]))
"""
        self.assertCodemod(before, after)

    def test_a_field_without_keyword_is_left_and_reported(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto()
config.gpu_options.polling_active_delay_usecs = 10
with tf.compat.v1.Session(config=config) as sess:
    pass
"""
        self.assertCodemod(before, before)
        [finding] = self.findings(before)
        assert finding.kind is Kind.NOT_CONVERTED and finding.line == 5
        assert "gpu_options.polling_active_delay_usecs has no keyword" in finding.message

    def test_allocator_type_and_device_filters_become_keywords(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto(device_filters=["/job:ps", "/job:worker/task:0"])
config.gpu_options.allocator_type = 'BFC'
with tf.compat.v1.Session(config=config) as sess:
    pass
"""
        after = """
import tensorflow as tf
import tf1compat

with tf1compat.session(allocator_type='BFC', device_filters=["/job:ps", "/job:worker/task:0"], graph=tf.compat.v1.get_default_graph()) as sess:
    pass
"""
        self.assertCodemod(before, after)

    def test_a_built_rewriter_config_is_left_and_reported(self):
        before = """
import tensorflow as tf
from tensorflow.core.protobuf import rewriter_config_pb2
rewrite = rewriter_config_pb2.RewriterConfig(constant_folding=rewriter_config_pb2.RewriterConfig.OFF)
config = tf.compat.v1.ConfigProto(graph_options=tf.compat.v1.GraphOptions(rewrite_options=rewrite))
with tf.compat.v1.Session(config=config) as sess:
    pass
"""
        self.assertCodemod(before, before)
        [finding] = self.findings(before)
        assert finding.kind is Kind.NOT_CONVERTED
        assert "rewrite" in finding.message

    def test_a_config_used_elsewhere_is_left_and_reported(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto(allow_soft_placement=True)
print(config)
sess = tf.compat.v1.Session(config=config)
"""
        self.assertCodemod(before, before)
        [finding] = self.findings(before)
        assert "also used at line 4" in finding.message

    def test_a_change_after_the_session_took_it_is_reported(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto()
sess = tf.compat.v1.Session(config=config)
config.allow_soft_placement = True
"""
        self.assertCodemod(before, before)
        assert "changed at line 5, after a session took it" in self.findings(before)[0].message

    def test_a_value_the_options_reject_is_reported_not_written(self):
        before = """
import tensorflow as tf
sess = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(
    gpu_options=tf.compat.v1.GPUOptions(per_process_gpu_memory_fraction=1.5)))
"""
        self.assertCodemod(before, before)
        assert "memory_fraction=1.5" in self.findings(before)[0].message

    def test_computed_values_are_not_moved(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=len(cores))
sess = tf.compat.v1.Session(config=config)
"""
        self.assertCodemod(before, before)
        assert "is computed" in self.findings(before)[0].message

    def test_names_are_moved_for_tf1compat(self):
        before = """
import tensorflow as tf
config = tf.compat.v1.ConfigProto(intra_op_parallelism_threads=FLAGS.threads)
sess = tf.compat.v1.Session(config=config)
"""
        after = """
import tensorflow as tf
import tf1compat

sess = tf.compat.v1.Session(config=tf1compat.config_proto(intra_op_threads=FLAGS.threads))
"""
        self.assertCodemod(before, after)

    def test_migrated_code_and_sessions_without_config_are_left_alone(self):
        before = """
import tensorflow as tf
import tf1compat
a = tf.compat.v1.Session()
b = tf.compat.v1.Session(config=tf1compat.config_proto(growth=True))
"""
        self.assertCodemod(before, before)
        assert self.findings(before) == []

    def test_a_failed_config_keeps_its_gpu_options_variable(self):
        before = """
import tensorflow as tf
gpu = tf.compat.v1.GPUOptions(allow_growth=True)
a = tf.compat.v1.ConfigProto(gpu_options=gpu, operation_timeout_in_ms=5)
first = tf.compat.v1.Session(config=a)
second = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(allow_soft_placement=True))
"""
        after = """
import tensorflow as tf
import tf1compat

gpu = tf.compat.v1.GPUOptions(allow_growth=True)
a = tf.compat.v1.ConfigProto(gpu_options=gpu, operation_timeout_in_ms=5)
first = tf.compat.v1.Session(config=a)
second = tf.compat.v1.Session(config=tf1compat.config_proto(soft_placement=True))
"""
        self.assertCodemod(before, after)


class ModernTarget(CodemodTest):
    TRANSFORM = SessionOptionsRule

    def test_one_configure_call_at_program_start(self):
        before = '''"""Doc."""
import numpy as np
import tensorflow as tf

x = 1
config = tf.compat.v1.ConfigProto(device_count={'CPU': 2})
config.allow_soft_placement = True
with tf.compat.v1.Session(config=config) as sess:
    pass
other = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(device_count={'CPU': 2},
                                                             allow_soft_placement=True))
'''
        after = '''"""Doc."""
import numpy as np
import tensorflow as tf
import modern

modern.configure(soft_placement=True, cpus=2)

x = 1
with tf.compat.v1.Session() as sess:
    pass
other = tf.compat.v1.Session()
'''
        self.assertCodemod(before, after, target="modern")

    def test_sessions_that_disagree_are_left_as_is(self):
        before = """
import tensorflow as tf
a = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(device_count={'CPU': 2}))
b = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(device_count={'CPU': 4}))
"""
        self.assertCodemod(before, before, target="modern")

    def test_run_time_values_stay_for_modern(self):
        before = """
import tensorflow as tf
a = tf.compat.v1.Session(config=tf.compat.v1.ConfigProto(inter_op_parallelism_threads=n))
"""
        self.assertCodemod(before, before, target="modern")

    def test_interactive_sessions_keep_their_config(self):
        before = """
import tensorflow as tf
s = tf.compat.v1.InteractiveSession(config=tf.compat.v1.ConfigProto(device_count={'CPU': 2}))
"""
        self.assertCodemod(before, before, target="modern")
