"""ConfigProto sessions -> `tf1compat.session(...)` keywords, or one `modern.configure(...)`.

`--target tf1compat` (the script stays a graph program):

    config = tf.compat.v1.ConfigProto()            with tf1compat.session(growth=True,
    config.gpu_options.allow_growth = True   ->        graph=tf.compat.v1.get_default_graph()) as sess:
    with tf.compat.v1.Session(config=config) as sess:

A session that is not a `with` block keeps its class and gets
`config=tf1compat.config_proto(growth=True)`.

`--target modern`: TF2 device options are process-wide, so the options go to
one `modern.configure(...)` call at program start and the sessions take
TensorFlow's global config (`tf.compat.v1.Session()`); this needs every
config of the file to be literal and to agree.

A config that is used for anything but sessions, changed after a session
took it, or that sets a field without a keyword, is left as is and reported.
"""

from __future__ import annotations

import dataclasses
from typing import Optional

import libcst as cst
import libcst.matchers as m
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule, without_statements
from tf1compat.migrate.rules.config_reader import (ConfigReader, ReadOptions, Unconvertible)

SESSION_CLASSES = {"Session": 2, "InteractiveSession": 2, "train.MonitoredTrainingSession": None,
                   "estimator.RunConfig": None}
# The keyword that takes the ConfigProto, where it is not `config`.
CONFIG_KEYWORDS = {"estimator.RunConfig": "session_config"}


@dataclasses.dataclass
class Conversion:
    """One config and the sessions that take it."""

    line: int
    sessions: list[cst.Call]
    options: ReadOptions
    statements: set = dataclasses.field(default_factory=set)
    described: str = "ConfigProto"


def _config_arg(call: cst.Call, position: Optional[int],
                keyword: str = "config") -> Optional[cst.Arg]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    if position is not None and len(positional) > position:
        return positional[position]
    return None


def _named_arg(call: cst.Call, keyword: str, position: int) -> Optional[cst.BaseExpression]:
    for arg in call.args:
        if arg.keyword is not None and arg.keyword.value == keyword:
            return arg.value
    positional = [arg for arg in call.args if arg.keyword is None and not arg.star]
    return positional[position].value if len(positional) > position else None


class SessionOptionsRule(Rule):
    NAME = "session-options"
    DESCRIPTION = "ConfigProto sessions -> tf1compat.session(...) or modern.configure(...)"
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider, ParentNodeProvider)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.source_module = node
        self.remove: set = set()
        self.call_edits: dict[int, cst.BaseExpression] = {}
        self.configure_text: Optional[str] = None
        self._pending_gpu_statements: set = set()
        if self.names.alias is not None:
            self._plan(node)

    # -- analysis ---------------------------------------------------------

    def _plan(self, module: cst.Module) -> None:
        conversions: dict[int, Conversion] = {}
        for call in m.findall(module, m.Call()):
            kind = self.names.v1_name(call.func)
            if kind not in SESSION_CLASSES:
                continue
            arg = _config_arg(call, SESSION_CLASSES[kind], CONFIG_KEYWORDS.get(kind, "config"))
            if arg is not None and kind in CONFIG_KEYWORDS and self.target == "modern":
                self.add(call, Kind.NOT_CONVERTED, f"{kind}({CONFIG_KEYWORDS[kind]}=...) keeps "
                         "its ConfigProto for --target modern: an Estimator is a TF1 program")
                continue
            if arg is None or m.matches(arg.value, m.Name("None") | m.Call(
                    func=m.Attribute(value=m.Name("tf1compat"), attr=m.Name("config_proto")))):
                continue  # no config, or one migrated already
            try:
                key, conversion = self._read_config(arg.value, call)
            except Unconvertible as why:
                self.add(call, Kind.NOT_CONVERTED, f"{kind}(config=...) keeps its ConfigProto: {why}")
                continue
            if key in conversions:
                conversions[key].sessions.append(call)
            else:
                conversions[key] = conversion
        chosen = list(conversions.values())
        if self.target == "modern":
            self._plan_modern(chosen)
        else:
            for conversion in chosen:
                self._plan_tf1compat(conversion)

    def _read_config(self, value: cst.BaseExpression, session: cst.Call):
        reader = ConfigReader(self.source_module, self.names, self._gpu_options_variable)
        options = ReadOptions()
        self._pending_gpu_statements = set()  # what a GPUOptions variable adds to this config
        if isinstance(value, cst.Call) and self.names.v1_name(value.func) == "ConfigProto":
            reader.read_call(value, "", options)
            options.check()
            return id(value), Conversion(self.line(value), [session], options)
        if not isinstance(value, cst.Name):
            raise Unconvertible(f"the config is {reader.source(value)!r}; only a ConfigProto "
                                "built in this file is read")
        definition, statement, mutations = self._variable(value, session_use=True)
        call = definition.value
        if self.names.v1_name(call.func) != "ConfigProto":
            raise Unconvertible(f"{value.value} is not a ConfigProto(...)")
        statements = {statement}
        reader.read_call(call, "", options)
        for path, mutation_value, mutation_statement in mutations:
            if path == "gpu_options.experimental.virtual_devices.add":
                reader.add_virtual(mutation_value, options)
            else:
                reader.assign(path, mutation_value, options)
            statements.add(mutation_statement)
        statements |= self._pending_gpu_statements
        self._pending_gpu_statements = set()
        options.check()
        described = "ConfigProto" + (f" and {len(mutations)} attribute assignment(s)"
                                     if mutations else "")
        conversion = Conversion(self.line(statement), [session], options, statements, described)
        return id(statement), conversion

    def _gpu_options_variable(self, name: cst.Name):
        """(path, value) pairs of a `gpu_options = GPUOptions(...)` variable used in a ConfigProto."""
        definition, statement, mutations = self._variable(name, session_use=False)
        if self.names.v1_name(definition.value.func) != "GPUOptions":
            raise Unconvertible(f"gpu_options={name.value} is not a GPUOptions(...)")
        pairs = []
        for arg in definition.value.args:
            if arg.keyword is None:
                raise Unconvertible("GPUOptions(...) takes a positional argument")
            pairs.append((f"gpu_options.{arg.keyword.value}", arg.value))
        pairs += [(f"gpu_options.{path}", value) for path, value, _ in mutations]
        self._pending_gpu_statements = {statement, *(s for _, _, s in mutations)}
        return pairs

    def _variable(self, name: cst.Name, session_use: bool):
        """The `NAME = Call(...)` statement, and its attribute assignments, or Unconvertible."""
        scope = self.get_metadata(ScopeProvider, name, None)
        if scope is None:
            raise Unconvertible(f"{name.value} cannot be resolved")
        referents = {assignment for access in scope.accesses[name] for assignment in
                     access.referents}
        if len(referents) != 1:
            raise Unconvertible(f"{name.value} is assigned {len(referents)} times")
        assignment = next(iter(referents))
        target = getattr(assignment, "node", None)
        assign = self.get_metadata(ParentNodeProvider, target, None)
        assign = self.get_metadata(ParentNodeProvider, assign, None) if isinstance(
            assign, cst.AssignTarget) else None
        if not (isinstance(assign, cst.Assign) and len(assign.targets) == 1
                and isinstance(assign.value, cst.Call)):
            raise Unconvertible(f"{name.value} is not assigned a constructor call")
        statement = self.get_metadata(ParentNodeProvider, assign)
        if not isinstance(statement, cst.SimpleStatementLine) or len(statement.body) != 1:
            raise Unconvertible(f"{name.value} is assigned on a line with other statements")
        block = self.get_metadata(ParentNodeProvider, statement)
        mutations, uses = [], []
        for access in assignment.references:
            mutation = self._mutation(access.node, block)
            if mutation is not None:
                mutations.append(mutation)
            elif self._is_config_use(access.node, session_use):
                uses.append(self.line(access.node))
            else:
                raise Unconvertible(
                    f"{name.value} is also used at line {self.line(access.node)}; only a config "
                    "that goes straight into sessions is rewritten")
        if not uses:
            raise Unconvertible(f"{name.value} is never given to a session")
        late = [self.line(s) for _, _, s in mutations if self.line(s) > min(uses)]
        if late:
            raise Unconvertible(f"{name.value} is changed at line {late[0]}, after a session "
                                "took it")
        return assign, statement, mutations

    def _mutation(self, node: cst.Name, block):
        """(path, value, statement) when `node` roots `node.a.b = v`, `node.x['K'] = v` or `.add(...)`."""
        parts, top = [], node
        while True:
            parent = self.get_metadata(ParentNodeProvider, top)
            if isinstance(parent, cst.Attribute) and parent.value is top:
                parts.append("." + parent.attr.value)
            elif isinstance(parent, cst.Subscript) and parent.value is top and len(parent.slice) == 1 \
                    and isinstance(parent.slice[0].slice, cst.Index) \
                    and isinstance(parent.slice[0].slice.value, cst.SimpleString):
                parts.append(f"[{parent.slice[0].slice.value.evaluated_value!r}]")
            else:
                break
            top = parent
        if not parts:
            return None
        path = "".join(parts).lstrip(".")
        parent = self.get_metadata(ParentNodeProvider, top)
        if isinstance(parent, cst.AssignTarget):
            assign = self.get_metadata(ParentNodeProvider, parent)
            statement = self.get_metadata(ParentNodeProvider, assign)
            if len(assign.targets) == 1 and self._own_line(statement, block):
                return path, assign.value, statement
        if path.endswith("virtual_devices.add") and isinstance(parent, cst.Call) \
                and parent.func is top:
            expression = self.get_metadata(ParentNodeProvider, parent)
            statement = self.get_metadata(ParentNodeProvider, expression)
            if isinstance(expression, cst.Expr) and self._own_line(statement, block):
                return path, parent, statement
        return None

    def _own_line(self, statement, block) -> bool:
        return isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 \
            and self.get_metadata(ParentNodeProvider, statement) is block

    def _is_config_use(self, node: cst.Name, session_use: bool) -> bool:
        arg = self.get_metadata(ParentNodeProvider, node)
        call = self.get_metadata(ParentNodeProvider, arg) if isinstance(arg, cst.Arg) else None
        if not isinstance(call, cst.Call):
            return False
        kind = self.names.v1_name(call.func)
        if session_use:
            return kind in SESSION_CLASSES and _config_arg(
                call, SESSION_CLASSES[kind], CONFIG_KEYWORDS.get(kind, "config")) is arg
        return kind == "ConfigProto" and arg.keyword is not None \
            and arg.keyword.value == "gpu_options"

    # -- planning the edits -----------------------------------------------

    def _plan_tf1compat(self, conversion: Conversion) -> None:
        keywords = conversion.options.text()
        alias = self.names.alias
        for session in conversion.sessions:
            kind = self.names.v1_name(session.func)
            parent = self.get_metadata(ParentNodeProvider, session)
            if kind == "Session" and isinstance(parent, cst.WithItem):
                graph = _named_arg(session, "graph", 1)
                target = _named_arg(session, "target", 0)
                parts = [keywords] if keywords else []
                parts.append("graph=" + (self.source_module.code_for_node(graph) if graph is not None
                                         else f"{alias}.compat.v1.get_default_graph()"))
                if target is not None:
                    parts.append("target=" + self.source_module.code_for_node(target))
                text = f"tf1compat.session({', '.join(parts)})"
                self.call_edits[id(session)] = cst.parse_expression(text)
                shown = f"with tf1compat.session({keywords or ''}) at line {self.line(session)}"
            else:
                keyword = CONFIG_KEYWORDS.get(kind, "config")
                config = _config_arg(session, SESSION_CLASSES[kind], keyword)
                new_value = cst.parse_expression(f"tf1compat.config_proto({keywords})")
                self.call_edits[id(session)] = session.with_changes(args=[
                    arg.with_changes(value=new_value, keyword=cst.Name(keyword),
                                     equal=arg.equal if arg.keyword else cst.AssignEqual(
                                         cst.SimpleWhitespace(""), cst.SimpleWhitespace("")))
                    if arg is config else arg for arg in session.args])
                shown = (f"{kind}({keyword}=tf1compat.config_proto({keywords})) at line "
                         f"{self.line(session)}")
            self.add(conversion.line, Kind.CHANGED,
                     f"{conversion.described} -> {shown}: the same ConfigProto, as typed "
                     "options checked when built")
        self.remove |= conversion.statements
        AddImportsVisitor.add_needed_import(self.context, "tf1compat")

    def _plan_modern(self, conversions: list[Conversion]) -> None:
        if not conversions:
            return
        texts = {conversion.options.text() for conversion in conversions}
        literal = all(conversion.options.literal for conversion in conversions)
        interactive = any(self.names.v1_name(session.func) == "InteractiveSession"
                          for conversion in conversions for session in conversion.sessions)
        if len(texts) > 1 or not literal or interactive:
            why = ("the sessions ask for different options, and TF2 device options are "
                   "process-wide" if len(texts) > 1 else
                   "a value is read at run time, and modern.configure runs at program start"
                   if not literal else
                   "InteractiveSession() without a config ignores TensorFlow's global config")
            for conversion in conversions:
                self.add(conversion.line, Kind.NOT_CONVERTED,
                         f"{conversion.described} left as is for --target modern: {why}")
            return
        self.configure_text = f"modern.configure({texts.pop()})"
        for conversion in conversions:
            for session in conversion.sessions:
                kind = self.names.v1_name(session.func)
                config = _config_arg(session, SESSION_CLASSES[kind])
                args = [arg for arg in session.args if arg is not config]
                if args:
                    args[-1] = args[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                self.call_edits[id(session)] = session.with_changes(args=args)
            self.remove |= conversion.statements
            self.add(conversion.line, Kind.CHANGED,
                     f"{conversion.described} -> {self.configure_text} at program start; "
                     "the sessions take TensorFlow's global config (TF2 device options are "
                     "process-wide)")
        AddImportsVisitor.add_needed_import(self.context, "modern")

    # -- editing ----------------------------------------------------------

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        return self.call_edits.get(id(original_node), updated_node)

    def leave_IndentedBlock(self, original_node, updated_node):
        if not self.remove:
            return updated_node
        body = without_statements(original_node.body, updated_node.body, self.remove)
        return updated_node.with_changes(body=body or [cst.SimpleStatementLine([cst.Pass()])])

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        body = without_statements(original_node.body, updated_node.body, self.remove)
        if self.configure_text:
            index = program_start(body, self.names.alias)
            body.insert(index, cst.parse_statement(self.configure_text + "\n"))
        return updated_node.with_changes(body=body)


def program_start(body, alias: Optional[str]) -> int:
    """Index just after the top-level block of imports that holds `import tensorflow`."""
    index = 0
    seen_tensorflow = False
    for position, statement in enumerate(body):
        imports = isinstance(statement, cst.SimpleStatementLine) and all(
            isinstance(small, (cst.Import, cst.ImportFrom)) for small in statement.body)
        docstring = position == 0 and m.matches(
            statement, m.SimpleStatementLine(body=[m.Expr(m.SimpleString())]))
        if imports or docstring:
            index = position + 1
            seen_tensorflow = seen_tensorflow or "tensorflow" in cst.Module([statement]).code
            continue
        if seen_tensorflow:
            break
        if not imports and not seen_tensorflow:
            break
    return index
