"""TF1 optimizers chosen at run time: a table of optimizer classes or lambdas, one of which a
script calls with the learning rate (a hyper-parameter picks it) -> the same table of Keras
makers, each making the Keras optimizer with TF1's hyper-parameters.

    optimizers = {"sgd": tf.train.GradientDescentOptimizer,        {"sgd": tf.keras.optimizers.SGD,
                  "adam": tf.train.AdamOptimizer,            ->     "adam": lambda learning_rate=0.001: tf.keras.optimizers.Adam(
                  "momentum": lambda rate:                                  learning_rate=learning_rate, epsilon=1e-08),
                      tf.train.MomentumOptimizer(rate, 0.9)}        "momentum": lambda rate: tf.keras.optimizers.SGD(
    train = optimizers[name](0.1).minimize(loss)                            learning_rate=rate, momentum=0.9)}
"""

from __future__ import annotations

from typing import Callable, Optional

import libcst as cst

from tf1compat.migrate.tf2 import api
from tf1compat.migrate.tf2.translate import Translator, Unconvertible

_EQUAL = cst.AssignEqual(cst.SimpleWhitespace(""), cst.SimpleWhitespace(""))


def maker_table(translator: Translator, value, line: int) -> Optional[cst.Dict]:
    """The Keras form of a dict literal whose every value makes a TF1 optimizer; None for
    any other value (a dict of anything else included)."""
    if not isinstance(value, cst.Dict) or not value.elements or not all(
            isinstance(element, cst.DictElement) for element in value.elements):
        return None
    makers = [_maker(translator, element.value, line) for element in value.elements]
    if any(maker is None for maker in makers):
        return None
    return value.with_changes(elements=[
        element.with_changes(key=translator.expression(element.key, line), value=maker)
        for element, maker in zip(value.elements, makers)])


def _maker(translator: Translator, value, line: int) -> Optional[cst.BaseExpression]:
    """`tf.train.XOptimizer` (not called) or `lambda ...: tf.train.XOptimizer(...)` -> the
    Keras maker; None for other values. A lambda's parameters stand for whatever the call
    passes, which `maker_call` checks is constant."""
    if isinstance(value, cst.Lambda):
        body = value.body
        if not (isinstance(body, cst.Call) and _is_optimizer(translator, body.func)):
            return None
        parameters = frozenset(param.name.value for param in value.params.params)
        return value.with_changes(body=translator.optimizer(body, line, constant=lambda _: True,
                                                            parameters=parameters))
    if not _is_optimizer(translator, value):
        return None
    v1 = translator.v1_name(value)
    if v1 == "train.MomentumOptimizer":
        raise Unconvertible(line, "tf.train.MomentumOptimizer named, not called, in a table "
                                  "of optimizers (its momentum is a required argument)")
    rate = cst.Name("learning_rate")
    call = translator.optimizer(cst.Call(value, [cst.Arg(rate)]), line,
                                constant=lambda _: True, parameters=frozenset({rate.value}))
    if len(call.args) == 1:  # the learning rate alone: Keras' first parameter as TF1's
        return call.func
    default = api.OPTIMIZERS[v1][3].get("learning_rate")
    param = cst.Param(rate, default=cst.parse_expression(default), equal=_EQUAL) \
        if default else cst.Param(rate)
    return cst.Lambda(cst.Parameters([param]), call)


def _is_optimizer(translator: Translator, func) -> bool:
    v1 = translator.v1_name(func)
    if v1 in api.OPTIMIZERS_KEPT:
        translator.optimizer(cst.Call(func), 0)  # raises, saying why
    return v1 in api.OPTIMIZERS


def maker_call(translator: Translator, value, is_table: Callable[[str], bool],
               constant: Callable[[cst.BaseExpression], bool], line: int
               ) -> Optional[cst.Call]:
    """`table[key](rate)` (or `maker(rate)`) of a table `maker_table` converted, its
    arguments in TF2; None when `value` is no such call. Raises Unconvertible for a learning
    rate that is not constant (TF1's momentum scales by the rate of each step) or other
    arguments (a class named in the table takes the learning rate only)."""
    if not isinstance(value, cst.Call):
        return None
    func = value.func
    owner = func.value if isinstance(func, cst.Subscript) else func
    if not (isinstance(owner, cst.Name) and is_table(owner.value)):
        return None
    if len(value.args) > 1 or any(arg.star or (arg.keyword and arg.keyword.value !=
                                                "learning_rate") for arg in value.args):
        raise Unconvertible(line, "an optimizer from a table called with more than its "
                                  "learning rate")
    if not all(constant(arg.value) for arg in value.args):
        raise Unconvertible(line, "an optimizer from a table with a learning rate that is "
                                  "not a constant")
    return value.with_changes(func=translator.expression(func, line), args=[
        arg.with_changes(value=translator.expression(arg.value, line)) for arg in value.args])
