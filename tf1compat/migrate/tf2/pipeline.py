"""`migrate --to tf2` for one file: session options -> `modern.configure` (the tf1compat
rule, target modern), a CSV queue chain -> modern's tf.data pipeline (queue_data), flags ->
absl, each graph+session block -> TF2 (program), every
other TF1 name -> its TF2 name. Anything unconvertible -> the file gets the `--to
tf1compat` output and a NOT_CONVERTED finding naming the construct, line and reason."""

from __future__ import annotations

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor, ImportItem
from libcst.metadata import MetadataWrapper, PositionProvider

from tf1compat.migrate.findings import Finding, Kind
from tf1compat.migrate.rules.base import tensorflow_alias
from tf1compat.migrate.rules.session_options import SessionOptionsRule
from tf1compat.migrate.tf2.eager import EagerToTf2, enables_eager
from tf1compat.migrate.tf2.flags import FlagsToAbsl, parse_before_early_reads
from tf1compat.migrate.tf2.keras3 import keras2_to_keras3
from tf1compat.migrate.tf2.program import convert_block, has_session
from tf1compat.migrate.tf2.queue_data import queue_chain_to_data
from tf1compat.migrate.tf2.shared_variables import variable_makers
from tf1compat.migrate.tf2.translate import (Translator, Unconvertible, names_read,
                                               original_line)

RULE = "tf2"
_LEFTOVERS = ("compat.v1", "tf1compat")


def not_converted(error: Unconvertible, fallback_target: str) -> Finding:
    """The finding for a file left to the `--to tf1compat` pipeline."""
    return Finding(error.line, Kind.NOT_CONVERTED, RULE,
                   f"not converted to TF2 ({error.reason}); the file got the "
                   f"--to {fallback_target} output")


def to_tf2(code: str) -> tuple[str, list[Finding]]:
    """The TF2 text and the findings. Raises Unconvertible (line of `code`)."""
    context = CodemodContext()
    rule = SessionOptionsRule(context, target="modern")
    configured = rule.transform_module(cst.parse_module(code)).code
    findings = [f for f in rule.findings]
    try:
        configured = queue_chain_to_data(configured)
        text = _convert(configured)
    except Unconvertible as error:
        raise Unconvertible(original_line(code, configured, error.line), error.reason) from None
    try:
        on_keras3 = keras2_to_keras3(text)  # standalone Keras 2 -> Keras 3, TF 2.21's Keras
    except Unconvertible as error:
        raise Unconvertible(original_line(code, text, error.line), error.reason) from None
    if on_keras3 != text:
        findings.append(Finding(1, Kind.CHANGED, RULE, "standalone Keras 2 -> Keras 3: layer "
                                "and utility modules -> keras.layers / keras.utils, lr= -> "
                                "learning_rate=, ModelCheckpoint(period=1) -> its default"))
    converted_tf, text = text, on_keras3
    compile(text, "<migrated>", "exec")
    for leftover in _LEFTOVERS:
        if leftover in text:
            line = next(n for n, t in enumerate(text.splitlines(), 1) if leftover in t)
            raise Unconvertible(original_line(code, text, line),
                                f"{leftover} is still used")
    if converted_tf != code:
        findings.append(Finding(1, Kind.CHANGED, RULE, "TF1 graph and session code -> TF2 "
                                "(eager variables and Keras layers, one function per "
                                "Session.run shape, tf.function where it is fed or trains)"))
    return text, findings


def _convert(code: str) -> str:
    wrapper = MetadataWrapper(cst.parse_module(code))
    module = wrapper.module
    positions = wrapper.resolve(PositionProvider)
    alias = tensorflow_alias(module)
    if alias is None:
        return code
    translator = Translator(alias)
    flags = FlagsToAbsl(translator, positions)
    prepared = _prepared(module, translator, positions)
    if prepared != code:  # converted as that text, its lines mapped back to this one's
        try:
            return _convert(prepared)
        except Unconvertible as error:
            raise Unconvertible(original_line(code, prepared, error.line),
                                error.reason) from None
    _check_imports(module, positions)
    taken = set(names_read(module))
    module, makers = variable_makers(module, translator, positions)
    if has_session(translator, module.body):
        body = convert_block(module.body, translator, positions, taken, nested=False,
                             makers=makers)
    else:
        body = list(module.body)
    body = _inner_blocks(body, translator, positions, taken, makers, in_function=False)
    for maker in makers.values():
        if maker.made_at < 0:
            raise Unconvertible(maker.variables[0][2], f"{maker.name}() makes variables with "
                                "tf.get_variable and no graph block with a session calls it")
    converted = module.with_changes(body=body)
    converted = converted.visit(flags)
    text = converted.code
    # every TF name left is a TF2 one (raises on a TF1 name without a rule)
    reread = MetadataWrapper(cst.parse_module(text))
    lines = reread.resolve(PositionProvider)
    for statement in reread.module.body:
        translator.expression(statement, lines[statement].start.line if statement in lines
                              else 0)
    final = reread.module.visit(_TranslateAll(translator, lines))
    imports = [ImportItem("absl", name) for name in sorted(flags.needed)]
    if "flags" in flags.needed:
        final, needs_sys = parse_before_early_reads(final)
        if needs_sys:
            imports.append(ImportItem("sys"))
    if _calls_name(final, "tf1_checkpoint"):
        imports.append(ImportItem("modern", "tf1_checkpoint"))
    if _calls_name(final, "modern"):  # a TF1 name `modern` serves (api.MODERN)
        imports.append(ImportItem("modern"))
    if imports:
        final = AddImportsVisitor(CodemodContext(), imports).transform_module(final)
    return final.code


class _TranslateAll(cst.CSTTransformer):
    def __init__(self, translator: Translator, lines):
        super().__init__()
        self.t = translator
        self.lines = lines

    def leave_SimpleStatementLine(self, original, updated):
        position = self.lines.get(original)
        return self.t.expression(updated, position.start.line if position else 0)

    def leave_With(self, original, updated):
        position = self.lines.get(original)
        items = [item.with_changes(item=self.t.expression(item.item, position.start.line
                                                          if position else 0))
                 for item in updated.items]
        return updated.with_changes(items=items)


def _inner_blocks(statements, translator: Translator, positions, taken: set[str], makers,
                  in_function: bool) -> list:
    """The statements with each function's graph block, and each `with tf.device(...):`
    block's (TF2 keeps the device scope), in TF2, however deep."""
    out = []
    for statement in statements:
        function = isinstance(statement, cst.FunctionDef)
        if function or (isinstance(statement, cst.With) and _on_devices(translator, statement)):
            inner = statement.body.body
            inside = in_function or function
            if has_session(translator, inner):
                inner = convert_block(inner, translator, positions, taken, nested=True,
                                      makers=makers, in_function=inside)
            else:
                inner = _inner_blocks(inner, translator, positions, taken, makers, inside)
            statement = statement.with_changes(body=statement.body.with_changes(body=inner))
        out.append(statement)
    return out


def _on_devices(translator: Translator, statement: cst.With) -> bool:
    return all(isinstance(item.item, cst.Call) and item.asname is None and
               translator.v1_name(item.item.func) == "device" for item in statement.items)


def _prepared(module: cst.Module, translator: Translator, positions) -> str:
    """The module with the tutorials' MNIST reader import, TF1's eager API and the file's
    one `with tf.Graph().as_default():` in TF2 form (whole-file rewrites the block conversion
    then takes as they are)."""
    module.visit(_GraphsCounted(translator, positions))  # first: its errors name their lines
    if enables_eager(translator, module):  # first: its errors need the original's lines
        eager = EagerToTf2(translator, positions)
        module = module.visit(eager)
        left = [name for name in names_read(module) if name in eager.aliases]
        if left:
            raise Unconvertible(0, f"tf.contrib.eager (as {left[0]}) used other than in "
                                   "the calls --to tf2 rewrites")
    return module.visit(_MnistReader()).visit(_OneGraph(translator)).code


class _OneGraph(cst.CSTTransformer):
    """`with tf.Graph().as_default()[, tf.device(...)]:` -> its body (under
    `with tf.device(...):`, kept, when it had one): TF2 has no default graph, and the file's
    only graph was its whole program (_GraphsCounted refuses a file with two, whose variables
    may share TF1 names)."""

    def __init__(self, translator: Translator):
        super().__init__()
        self.t = translator

    def leave_With(self, original: cst.With, updated: cst.With):
        if not any(_new_graph(self.t, item.item) for item in original.items):
            return updated
        rest = [item for item in updated.items if not _new_graph(self.t, item.item)]
        if not rest:
            return cst.FlattenSentinel(updated.body.body)
        rest[-1] = rest[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
        return updated.with_changes(items=rest)


class _GraphsCounted(cst.CSTVisitor):
    """Refuses a second `with tf.Graph().as_default():`, or one bound to a name, with its line."""

    def __init__(self, translator: Translator, positions):
        super().__init__()
        self.t = translator
        self.positions = positions
        self.graphs = 0

    def visit_With(self, node: cst.With) -> None:
        graphs = [item for item in node.items if _new_graph(self.t, item.item)]
        if not graphs:
            return
        self.graphs += 1
        if self.graphs > 1 or graphs[0].asname is not None:
            raise Unconvertible(self.positions[node].start.line,
                                "a second tf.Graph(), or one bound to a name (TF2 has one "
                                "program, no graphs)")


def _new_graph(translator: Translator, item) -> bool:
    """`tf.Graph().as_default()`."""
    return isinstance(item, cst.Call) and isinstance(item.func, cst.Attribute) and \
        item.func.attr.value == "as_default" and isinstance(item.func.value, cst.Call) and \
        translator.v1_name(item.func.value.func) == "Graph" and not item.func.value.args


class _MnistReader(cst.CSTTransformer):
    """`from tensorflow.examples.tutorials.mnist import input_data [as X]` -> modern's copy
    of that reader (`from modern import mnist_reader as input_data`), which reads the same
    local files and shuffles from the same seed (tf.random.set_seed, TF1's graph seed)."""

    def leave_ImportFrom(self, original: cst.ImportFrom, updated: cst.ImportFrom):
        name = cst.Module([]).code_for_node(original.module) if original.module else ""
        if name != "tensorflow.examples.tutorials.mnist" or isinstance(original.names,
                                                                       cst.ImportStar):
            return updated
        if [alias.name.value for alias in original.names] != ["input_data"]:
            return updated
        alias = original.names[0]
        bound = alias.asname.name.value if alias.asname else "input_data"
        return cst.ImportFrom(module=cst.Name("modern"), names=[cst.ImportAlias(
            cst.Name("mnist_reader"), asname=cst.AsName(cst.Name(bound)))])


def _calls_name(module: cst.Module, name: str) -> bool:
    """Whether the module reads the plain name `name` (a module the rules call)."""
    return name in names_read(module)


def _check_imports(module: cst.Module, positions) -> None:
    """TensorFlow's own submodules (tensorflow.examples, tensorflow.contrib...) and
    tf1compat have no place in a TF2 script."""
    class Imports(cst.CSTVisitor):
        def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
            name = cst.Module([]).code_for_node(node.module) if node.module else ""
            if name.split(".")[0] in ("tensorflow", "tf1compat"):
                raise Unconvertible(positions[node].start.line,
                                    f"from {name} import ...: no TF2 module of that name")
    module.visit(Imports())
