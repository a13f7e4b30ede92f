"""The call-level check of migrated names: the TF1 call forms written, and each migrated call
held against what it calls (here against plain Python functions, without TensorFlow)."""

import ast

from tf1compat.surface import call_forms, calls, reference

# TF 1.15's tf.nn.dropout, as the committed data writes parameters.
DROPOUT = [["x", "either"], ["keep_prob", "either", None], ["noise_shape", "either", None],
           ["seed", "either", None], ["name", "either", None], ["rate", "either", None]]


def tf2_dropout(x, rate=None, noise_shape=None, seed=None, name=None):
    return x


def _call(text):
    return ast.parse(text).body[0].value


def test_forms_are_positional_up_to_name_and_each_optional_alone_by_keyword():
    found = calls.forms(DROPOUT)
    assert found[0] == ([0, 1, 2, 3, 4], [])
    assert found[1:] == [([0], [1]), ([0], [2]), ([0], [3]), ([0], [4]), ([0], [5])]
    assert calls.statements(7, "tf.nn.dropout", DROPOUT)[0] == \
        "call_7_0 = tf.nn.dropout(p_0, p_1, p_2, p_3, p_4)"


def test_a_positional_argument_landing_on_another_parameter_is_the_problem():
    namespace = {"dropout": tf2_dropout}
    misread = _call("dropout(p_0, p_2, p_3, p_4, rate=1 - p_1)")
    problem = calls.problem(misread, {0, 1, 2, 3, 4}, DROPOUT, namespace)
    assert problem is not None and "refused by what it calls" in problem
    shifted = _call("dropout(p_0, p_2, seed=p_3, name=p_4)")
    assert "TF 1.15's `noise_shape` by position reaches `rate`" in \
        calls.problem(shifted, {0, 2, 3, 4}, DROPOUT, namespace)


def test_a_rewritten_or_renamed_argument_counts_as_passed_and_a_lost_one_does_not():
    namespace = {"dropout": tf2_dropout}
    good = _call("dropout(p_0, rate=1 - p_1, noise_shape=p_2, seed=p_3, name=p_4)")
    assert calls.problem(good, {0, 1, 2, 3, 4}, DROPOUT, namespace) is None
    lost = _call("dropout(p_0, noise_shape=p_2)")
    assert "`keep_prob` is no longer passed" in calls.problem(lost, {0, 1, 2}, DROPOUT,
                                                              namespace)


def test_a_call_to_something_absent_says_why():
    problem = calls.problem(_call("missing(p_0)"), {0}, DROPOUT, {})
    assert "NameError" in problem


# TF 1.15's tf.nn.sparse_softmax_cross_entropy_with_logits: `_sentinel` first, all optional.
SPARSE_XENT = [["_sentinel", "either", None], ["labels", "either", None],
               ["logits", "either", None], ["name", "either", None]]


def test_a_sentinel_function_gets_its_tensors_by_keyword_in_one_form():
    texts = [calls.call_text("f", SPARSE_XENT, form) for form in calls.forms(SPARSE_XENT)]
    assert texts == ["f(labels=p_1, logits=p_2, name=p_3)", "f(labels=p_1)", "f(logits=p_2)",
                     "f(name=p_3)"]
    assert call_forms.may_be_refused(SPARSE_XENT) and not call_forms.may_be_refused(DROPOUT)


def test_forms_tf115_refuses_are_not_written():
    written = calls.statements(3, "tf.nn.f", SPARSE_XENT, refused=[1, 2, 3])
    assert written == ["call_3_0 = tf.nn.f(labels=p_1, logits=p_2, name=p_3)"]


def test_the_data_records_the_forms_tf115_refuses_and_only_those():
    """Read from the committed dump: TF 1.15 refuses count_nonzero without a tensor to count
    and the cross-entropies without both tensors, and takes the forms that pass them."""
    data = reference.load().names
    takes = {"tf.count_nonzero": lambda passed: bool(passed & {"input_tensor", "input"}),
             "tf.nn.sparse_softmax_cross_entropy_with_logits":
                 lambda passed: {"labels", "logits"} <= passed}
    for name, taken in takes.items():
        parameters = data[name]["parameters"]
        refused = {int(number) for number in data[name]["refused_forms"]}
        for number, form in enumerate(calls.forms(parameters)):
            passed = {parameters[i][0] for i in (*form[0], *form[1])}
            assert (number in refused) != taken(passed), (name, number, passed)


# TF 1.15's tf.sparse_split and tf.sparse_concat, as the data writes them.
SPARSE_SPLIT = [["keyword_required", "either", {"object": "KeywordRequired"}],
                ["sp_input", "either", None], ["num_split", "either", None],
                ["axis", "either", None], ["name", "either", None], ["split_dim", "either", None]]
SPARSE_CONCAT = [["axis", "either"], ["sp_inputs", "either"], ["name", "either", None],
                 ["expand_nonconcat_dim", "either", False], ["concat_dim", "either", None],
                 ["expand_nonconcat_dims", "either", None]]


def test_forms_tf115_signature_refuses_are_not_written():
    """`KeywordRequired` makes TF 1.15 refuse any argument by position; `concat_dim` is the
    deprecated alias of `axis` (tf_upgrade_v2 renames it so), and passing both is refused."""
    every = calls.forms(SPARSE_SPLIT)
    kept = calls.written("tf.sparse_split", SPARSE_SPLIT)
    assert [every[number] for number in kept] == [([], [i]) for i in range(1, 6)]
    every = calls.forms(SPARSE_CONCAT)
    kept = calls.written("tf.sparse_concat", SPARSE_CONCAT)
    assert ([0, 1], [4]) in every and ([0, 1], [4]) not in [every[n] for n in kept]
    assert ([0, 1], [5]) in [every[n] for n in kept]  # expand_nonconcat_dims: no alias there
    assert len(calls.statements(3, "tf.sparse_concat", SPARSE_CONCAT)) == len(kept)


def test_a_name_imported_from_a_module_is_called_through_its_import():
    lines = calls.statements(4, "tensorflow.python.ops.nn_ops:top_k",
                             [["input", "either"], ["k", "either", 1], ["name", "either", None]])
    assert lines[0] == "from tensorflow.python.ops.nn_ops import top_k as callee_4"
    assert lines[1] == "call_4_0 = callee_4(p_0, p_1, p_2)"
    assert calls.callable_name("tensorflow.python.ops.nn_ops:top_k")
    assert not calls.callable_name("tensorflow.python.ops.nn_ops")


def test_a_call_whose_result_migrate_converts_is_held_by_the_call_inside():
    def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002 - TF 2's names
        return input

    parameters = [["input", "either", None], ["sep", "either", None]]
    wrapped = _call("split(p_0, sep=p_1).to_sparse()")
    assert calls.problem(wrapped, {0, 1}, parameters, {"split": split}) is None
    lost = _call("split(p_0).to_sparse()")
    assert "`sep` is no longer passed" in calls.problem(lost, {0, 1}, parameters,
                                                        {"split": split})
