"""`tf.app.flags` / `tf.flags`, `tf.app.run` and `tf.logging` -> absl's flags, app and logging
(what TF1 wrapped). `tf.app.run()` without a main runs the module's `main`, as TF1 did."""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.tf2.translate import Translator, Unconvertible

_MODULES = {"app.flags": "flags", "flags": "flags", "logging": "logging"}


class FlagsToAbsl(cst.CSTTransformer):
    def __init__(self, translator: Translator, positions):
        super().__init__()
        self.t = translator
        self.positions = positions
        self.needed: set[str] = set()

    def _line(self, node) -> int:
        position = self.positions.get(node)
        return position.start.line if position else 0

    def leave_Attribute(self, original: cst.Attribute, updated):
        v1 = self.t.v1_name(original)
        if v1 is None:
            return updated
        for prefix, module in _MODULES.items():
            if v1 == prefix or v1.startswith(prefix + "."):
                self.needed.add(module)
                rest = v1[len(prefix):]
                return cst.parse_expression(module + rest)
        return updated

    def leave_Call(self, original: cst.Call, updated: cst.Call):
        if self.t.v1_name(original.func) != "app.run":
            return updated
        self.needed.add("app")
        args = list(updated.args)
        keywords = {arg.keyword.value: arg for arg in args if arg.keyword}
        positional = [arg for arg in args if arg.keyword is None]
        if any(arg.star for arg in args) or set(keywords) - {"main", "argv"}:
            raise Unconvertible(self._line(original), "tf.app.run with arguments besides "
                                                      "main and argv")
        main = positional[0].value if positional else (
            keywords["main"].value if "main" in keywords else cst.Name("main"))
        rest = [cst.Arg(arg.value, keyword=cst.Name("argv"), equal=arg.equal)
                for arg in ([positional[1]] if len(positional) > 1 else []) +
                ([keywords["argv"]] if "argv" in keywords else [])]
        return cst.Call(cst.parse_expression("app.run"), [cst.Arg(main), *rest])

    def leave_SimpleStatementLine(self, original, updated):
        # `flags = tf.app.flags` is `flags = flags` now: absl's import binds it
        if len(updated.body) == 1 and isinstance(updated.body[0], cst.Assign):
            assign = updated.body[0]
            if len(assign.targets) == 1 and isinstance(assign.targets[0].target, cst.Name) \
                    and isinstance(assign.value, cst.Name) and \
                    assign.targets[0].target.value == assign.value.value:
                return cst.RemovalSentinel.REMOVE
        return updated


def parse_before_early_reads(module: cst.Module) -> tuple[cst.Module, bool]:
    """TF1's FLAGS parsed the command line on the first read of a flag; absl's refuses a read
    before `app.run` parses it. A module-level read before then gets
    `FLAGS(sys.argv, known_only=True)` written before it (the flags `app.run` reads later
    are parsed again there). Returns the module and whether it needs `import sys`."""
    body = list(module.body)
    names: set[str] = set()
    for index, statement in enumerate(body):
        if isinstance(statement, (cst.FunctionDef, cst.ClassDef, cst.If)):
            continue  # read later (main) or under `if __name__ == "__main__":` after app.run
        if isinstance(statement, cst.SimpleStatementLine) and len(statement.body) == 1 and \
                isinstance(statement.body[0], cst.Assign):
            assign = statement.body[0]
            if cst.Module([]).code_for_node(assign.value) == "flags.FLAGS" and all(
                    isinstance(t.target, cst.Name) for t in assign.targets):
                names.update(t.target.value for t in assign.targets)
                continue
        if names and _reads_a_flag(statement, names):
            name = sorted(names)[0]
            parse = cst.parse_statement(f"{name}(sys.argv, known_only=True)\n").with_changes(
                leading_lines=[*statement.leading_lines, cst.EmptyLine(comment=cst.Comment(
                    "# TF1 parsed the flags on their first read; absl parses them here"))])
            body[index] = statement.with_changes(leading_lines=[])
            body.insert(index, parse)
            return module.with_changes(body=body), True
    return module, False


def _reads_a_flag(statement, names: set[str]) -> bool:
    found = []

    class Reader(cst.CSTVisitor):
        def visit_Attribute(self, node: cst.Attribute) -> None:
            if isinstance(node.value, cst.Name) and node.value.value in names:
                found.append(node)
    statement.visit(Reader())
    return bool(found)
