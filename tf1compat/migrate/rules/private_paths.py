"""Names from TensorFlow's own `tensorflow.python.*` modules -> their public TF1 names.

`from tensorflow.python.framework import graph_util` then
`graph_util.convert_variables_to_constants(...)` fails on TF 2.21 (the
function moved out of that module); its public TF1 name,
`tf.compat.v1.graph_util.convert_variables_to_constants`, works. Each use of
a name imported from such a module (through the module, `graph_util.X`, or
imported itself, `from ...graph_util import X`) is rewritten to its public
TF1 name when TF 2.21 has one, from the same table `run` serves them by
(tf1compat.runner.private_paths.homes); a `tensorflow.python.keras` name's public name is
a `tf.keras` one, written as tf_keras's TF1 API as the tf_keras rule writes `tf.keras`.
A call of such a name gets its arguments written for the function it now calls
(`tf115_positions.call_plan`). A module TF 2.21 lacks altogether becomes
`tf1compat.tf1_module(...)`, TF 1.15's module as `run` serves it. A name with no public TF1 name stays and
is reported: as a note when TF 2.21's module still has it, as not converted
when it does not. The imports left unused go at the very end
(`private_imports`), so the other rules' lines still point at the script as
written.

A name imported itself whose uses are not all rewritten (none are written, as a module
that re-exports it; or the name is rebound somewhere) and which TF 2.21's module lacks
or has as another object (`from ...control_flow_ops import cond`: TF 2.21 has none;
`from ...ops import convert_to_tensor`: TF 2.21's is the v2 function) is bound to its
public TF1 name in the import's place (`cond = tf.compat.v1.cond`), on the same line:
left as an import it would fail there, or bind what TF 1.15 did not.

Runs after tf_upgrade_v2 (which leaves these imports alone), before the
legacy-layers rule, which takes `tf.compat.v1.nn.rnn_cell.*` on to tf_keras.
"""

from __future__ import annotations

from typing import Any, Optional

import libcst as cst
from libcst.codemod.visitors import AddImportsVisitor
from libcst.metadata import ParentNodeProvider, PositionProvider, ScopeProvider

from tf1compat.contrib import absent_modules
from tf1compat.contrib.entries import Served
from tf1compat.keras2 import dropped
from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule
from tf1compat.migrate.rules.contrib import dotted
from tf1compat.migrate.rules.tf115_positions import call_plan, rewrite_reported, tf115_parameters
from tf1compat.migrate.rules.tf_keras import V1_KERAS

_PACKAGE = "tensorflow.python"
# Public names served by legacy Keras after migrate (the legacy-layers rule): not imported here.
_LEGACY = ("nn.rnn_cell.", "layers.")
_LEGACY_HOME = object()
_KERAS = "keras."
# context.scratch key: (the `from` module or '', the bound name) of each import whose every use
# was rewritten; the private-imports rule removes them once no rule reads them any more.
EMPTIED = "tf1compat.runner.private_paths_emptied"


def public_walk(v1_name: str) -> Any:
    """TF 2.21's `tf.compat.v1.<v1_name>` (legacy-Keras homes taken as there: tf_keras serves
    them after migrate, wherever the script runs); a `keras.` name is tf_keras's TF1 API's,
    which migrate writes for TF1's `tf.keras` (the tf_keras rule)."""
    if v1_name.startswith(_LEGACY):
        return _LEGACY_HOME
    served = dropped.served_name(v1_name)
    if served is not None:  # a TF 1.15 tf.keras name tf_keras dropped: tf1compat's Keras 2
        return dropped.load(served)
    if v1_name.startswith(_KERAS):
        import importlib

        value: Any = importlib.import_module(V1_KERAS)  # ImportError: tf_keras not installed
        parts = v1_name[len(_KERAS):].split(".")
    else:
        import tensorflow as tf

        value, parts = tf.compat.v1, v1_name.split(".")
    for part in parts:
        value = getattr(value, part)
    return value


def public_code(alias: Optional[str], v1_name: str) -> str:
    """The code of TF1's public name after migrate: `tf.compat.v1.<name>`, or tf_keras's TF1 API
    for a `keras.` one (TF 2.21's `tf.compat.v1.keras` is Keras 3 under plain Python)."""
    if v1_name.startswith(_KERAS):
        return f"{V1_KERAS}.{v1_name[len(_KERAS):]}"
    return f"{alias or 'tensorflow'}.compat.v1.{v1_name}"


def module_path(dotted_name: str) -> Optional[str]:
    """The module `import tensorflow.python.a.b as x` binds: read part by part as attributes,
    as Python does (TF 1.15's `tensorflow.python.ops` attribute is `framework.ops`)."""
    from tf1compat.runner.private_paths.homes import submodule

    parts = dotted_name.split(".")
    if ".".join(parts[:2]) != _PACKAGE:
        return None
    module = _PACKAGE
    for part in parts[2:]:
        module = submodule(module, part)
        if module is None:
            return None
    return module


class PrivatePathsRule(Rule):
    NAME = "private-paths"
    DESCRIPTION = ("names from tensorflow.python.* modules -> their public TF1 names "
                   "(tf.compat.v1.graph_util.convert_variables_to_constants)")
    TRIGGERS = (_PACKAGE, "tensorflow.tools")
    METADATA_DEPENDENCIES = (PositionProvider, ScopeProvider, ParentNodeProvider)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.replacements: dict[cst.CSTNode, str] = {}
        self.rebound: dict[cst.CSTNode, dict[str, str]] = {}  # import -> {bound: public code}
        self.reported: set[str] = set()
        self.callees: dict[cst.CSTNode, tuple[str, str, Any]] = {}  # use -> (module, name, home)
        self.tf = self.names.alias
        for imp in imports(node):
            if self._estimator_import(imp):
                continue
            for bound, target in bindings(imp):
                self._rewrite_uses(imp, bound, target)

    def _estimator_import(self, imp) -> bool:
        """`from tensorflow.python.estimator.model_fn import ModeKeys`: TF 1.15's module there
        was tensorflow-estimator's, which TF 2.21 lacks; each name becomes
        `tf1compat.tf1_module("tensorflow.python.estimator.model_fn").ModeKeys`, as `run`
        serves it (tf1compat.estimator's own classes where it has them). The same for the
        modules tf1compat serves whole (`from tensorflow.python.distribute import
        all_reduce`)."""
        from tf1compat.estimator.tf115_modules import is_estimator_module
        from tf1compat.runner.private_modules import contrib_module

        from tf1compat.runner.private_paths import moved

        def served_whole(name: str) -> bool:  # also a module TF 2 moved whole (`training_ops`)
            return is_estimator_module(name) or contrib_module(name) is not None or \
                moved.moved_to(name) is not None or moved.is_moved_package(name) or \
                name in absent_modules.MODULES  # a tool TF 2.21 does not ship: its stand-in

        if isinstance(imp, cst.ImportFrom):
            module = from_module(imp)
            if isinstance(imp.names, cst.ImportStar) or not module:
                return False
            if served_whole(module):
                codes = {bound_name(alias): f"tf1compat.tf1_module({module!r}).{alias.name.value}"
                         for alias in imp.names}
            elif all(served_whole(f"{module}.{alias.name.value}") for alias in imp.names):
                codes = {bound_name(alias): f"tf1compat.tf1_module("
                                            f"{module + '.' + alias.name.value!r})"
                         for alias in imp.names}
            else:
                return False
        else:
            names = [dotted(alias.name) or "" for alias in imp.names]
            if not all(served_whole(name) for name in names) or \
                    not all(alias.asname for alias in imp.names):
                return False
            codes = {bound_name(alias): f"tf1compat.tf1_module({name!r})"
                     for alias, name in zip(imp.names, names)}
        AddImportsVisitor.add_needed_import(self.context, "tf1compat")
        self.rebound.setdefault(imp, {}).update(codes)
        why = ("TF 1.15's tensorflow.python.estimator was tensorflow-estimator, which TF 2.21 "
               "does not have there" if "tensorflow.python.estimator" in str(codes) else
               "TF 1.15's module is not in TF 2.21")
        self._report(f"estimator:{id(imp)}", imp, Kind.CHANGED, why + ": " + ", ".join(
                         f"{bound} = {code}" for bound, code in codes.items())
                     + " (tf1compat serves it, as `run` does)")
        return True

    # -- uses ---------------------------------------------------------------------------

    def _rewrite_uses(self, imp, bound: str, target: tuple[str, ...]) -> None:
        """Rewrites every use of `bound`; notes the binding as removable when all were."""
        scope = self.get_metadata(ScopeProvider, imp, None)
        if scope is None:
            return
        assignments = [a for a in scope.assignments[bound] if getattr(a, "node", None) is imp]
        if not assignments:
            return
        accesses = [access for a in assignments for access in a.references]
        rewritten = 0
        for access in accesses:
            if len(access.referents) != 1 or not isinstance(access.node, cst.Name):
                continue  # the name is rebound somewhere too: which one is read is not clear
            if len(target) == 2:  # a name imported itself: `from ...graph_util import X`
                code = self._public_code(*target, access.node)
                where = access.node
            else:
                where, code = self._module_use(target[0], access.node)
            if code is not None:
                self.replacements[where] = code
                rewritten += 1
        if accesses and rewritten == len(accesses):  # the import goes, after the other rules
            emptied = self.context.scratch.setdefault(EMPTIED, [])
            emptied.append((from_module(imp), bound))
        elif len(target) == 2 and self._import_misreads(*target):
            code = self._public_code(*target, imp)
            if code is not None:
                self.rebound.setdefault(imp, {})[bound] = code
        elif len(target) == 1 and self._module_gone(target[0]):
            self.rebound.setdefault(imp, {})[bound] = self._tf1_module_code(target[0], imp)

    @staticmethod
    def _import_misreads(module: str, name: str) -> bool:
        """Whether `from <module> import <name>` fails on TF 2.21 or binds another object."""
        from tf1compat.runner.private_paths.homes import find

        try:
            return find(module, name, public_walk).status is Served.MAPPED
        except (AttributeError, ImportError):  # TF 2.21's module fails to give it (a lazy
            return False  # import of what is not installed): left as written, as before

    def _module_gone(self, module: str) -> bool:
        """Whether TF 1.15 had `module` and TF 2.21 has none (`tensorflow.python.eager.profiler`):
        imported as written it fails; `tf1compat.tf1_module` serves it as `run` does."""
        from tf1compat.runner.private_paths import homes, table

        return table.is_module(module) and homes.import_quietly(module) is None

    def _tf1_module_code(self, module: str, node: cst.CSTNode) -> str:
        AddImportsVisitor.add_needed_import(self.context, "tf1compat")
        self._report(f"module:{module}", node, Kind.CHANGED,
                     f"{module} -> tf1compat.tf1_module({module!r}): TF 2.21 has no such "
                     "module; this is TF 1.15's, as `tf1compat run` serves it (the names TF "
                     "2.21 has nowhere fail where they are used, saying what to do instead)")
        return f"tf1compat.tf1_module({module!r})"

    def _module_use(self, module: str, name_node: cst.Name):
        """(the node to replace, its code) for `<module binding>.a.b...`, or (None, None)."""
        from tf1compat.runner.private_paths.homes import submodule

        node: cst.CSTNode = name_node
        while True:
            parent = self.get_metadata(ParentNodeProvider, node, None)
            if not isinstance(parent, cst.Attribute) or parent.value is not node:
                return None, None  # the module itself is used (passed, compared): keep it
            attr = parent.attr.value
            inner = submodule(module, attr)
            if inner is None:
                return parent, self._public_code(module, attr, parent)
            module, node = inner, parent

    def _public_code(self, module: str, name: str, node: cst.CSTNode) -> Optional[str]:
        """`tf.compat.v1.<public name>` for TF1's `<module>.<name>`, or None (reported)."""
        from tf1compat.runner.private_paths.homes import find

        home = find(module, name, public_walk)
        key = f"{module}.{name}"
        served = dropped.served_home(f"{module}:{name}") or \
            (dropped.served_name(home.public) if home.public else None)
        if served is not None:  # a TF 1.15 tf.keras name tf_keras dropped: tf1compat serves it
            AddImportsVisitor.add_needed_import(self.context, dropped.module_of(served))
            self._report(key, node, Kind.CHANGED, f"{key} -> {dropped.dotted(served)} "
                                                  f"({dropped.WHY})")
            return dropped.dotted(served)
        if home.status is Served.NATIVE or home.public is not None:
            self.callees[node] = (module, name, home)
        if home.public is not None:
            code = public_code(self.tf, home.public)
            if code.startswith(V1_KERAS):
                AddImportsVisitor.add_needed_import(self.context, V1_KERAS)
                shown = code
            else:
                if self.tf is None:
                    AddImportsVisitor.add_needed_import(self.context, "tensorflow")
                shown = f"tf.compat.v1.{home.public}"
            self._report(key, node, Kind.CHANGED,
                         f"{key} -> {shown} (its public TF1 name"
                         + (f"; {home.note})" if home.note else ")"))
            return code
        if home.status is Served.NATIVE:
            self._report(key, node, Kind.NOTE, f"{key} kept: TF 1.15 gave it no public name "
                         "and TF 2.21's module still has it (a private name: it may move)")
        elif home.status is Served.MAPPED:
            self._report(key, node, Kind.NOT_CONVERTED,
                         f"{key} left as is: TF 1.15 gave it no public name and TF 2.21 has it "
                         f"only at {home.target}; it fails on TF 2.21 as written "
                         "(`tf1compat run` serves it from there)")
        else:
            self._report(key, node, Kind.NOT_CONVERTED, f"{key} left as is: {home.note}; it "
                         "fails on TF 2.21 (under `tf1compat run` too)")
        return None

    def _report(self, key: str, node, kind: Kind, message: str) -> None:
        if key not in self.reported:
            self.reported.add(key)
            self.add(node, kind, message)

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        code = self.replacements.get(original_node)
        return updated_node if code is None else cst.parse_expression(code)

    def leave_SimpleStatementLine(self, original_node: cst.SimpleStatementLine,
                                  updated_node: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """Each rebound name: its alias leaves the import, `name = <public>` follows on the line."""
        if not any(small in self.rebound for small in original_node.body):
            return updated_node
        body: list[cst.BaseSmallStatement] = []
        for original, small in zip(original_node.body, updated_node.body):
            rebound = self.rebound.get(original, {})
            kept = [alias for alias in small.names if bound_name(alias) not in rebound] \
                if rebound else None
            if kept:
                kept[-1] = kept[-1].with_changes(comma=cst.MaybeSentinel.DEFAULT)
                body.append(small.with_changes(names=kept))
            elif not rebound:
                body.append(small)
            for bound, code in rebound.items():
                body.append(cst.Assign(targets=[cst.AssignTarget(cst.Name(bound))],
                                       value=cst.parse_expression(code)))
        body = [small.with_changes(semicolon=cst.MaybeSentinel.DEFAULT) for small in body]
        return updated_node.with_changes(body=body)

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.BaseExpression:
        """A call of a rewritten or kept name, its arguments written for the function TF 2.21
        has there (`top_k(x, 2, True, "top")`: TF 2.21's takes `index_type` before `name`)."""
        callee = self.callees.get(original_node.func)
        if callee is None:
            return updated_node
        module, name, home = callee
        parameters = tf115_parameters(f"{module}:{name}", home.public)
        plan = call_plan(parameters, [home.value], rename=True) if parameters else None
        if plan is None:
            return updated_node
        return rewrite_reported(self, original_node, updated_node, plan, f"{module}.{name}")

    def leave_Name(self, original_node: cst.Name, updated_node: cst.Name) -> cst.BaseExpression:
        code = self.replacements.get(original_node)
        return updated_node if code is None else cst.parse_expression(code)


def from_module(imp) -> str:
    """The module a `from` import names ('' for a plain import)."""
    return (dotted(imp.module) or "") if isinstance(imp, cst.ImportFrom) else ""


def imports(module: cst.Module):
    """Every absolute `import tensorflow.python...` / `from tensorflow.python... import` node,
    and the imports of TF 1.15's tools TF 2.21 does not ship (`tensorflow.tools.
    graph_transforms`)."""
    import libcst.matchers as m

    for imp in m.findall(module, m.ImportFrom() | m.Import()):
        if isinstance(imp, cst.ImportFrom):
            name = dotted(imp.module) if imp.module is not None else None
            if not imp.relative and name and (name == _PACKAGE or name.startswith(_PACKAGE + ".")
                                              or _absent(name, imp.names)):
                yield imp
        elif any((dotted(alias.name) or "").startswith(_PACKAGE + ".") and alias.asname
                 for alias in imp.names):
            yield imp


def _absent(module: str, names) -> bool:
    """Whether `from <module> import <names>` imports a tool TF 2.21 does not ship."""
    if module in absent_modules.MODULES:
        return True
    return not isinstance(names, cst.ImportStar) and bool(names) and all(
        f"{module}.{alias.name.value}" in absent_modules.MODULES for alias in names)


def bound_name(alias: cst.ImportAlias) -> str:
    """The name an import alias binds ('gu' for `... as gu`, 'a.b' for `import a.b`)."""
    if alias.asname is not None:
        return alias.asname.name.value
    return dotted(alias.name) or ""


def bindings(imp):
    """(bound name, (module,) for a module or (module, name) for a name) of one import."""
    from tf1compat.runner.private_paths.homes import submodule

    if isinstance(imp, cst.Import):
        for alias in imp.names:
            module = module_path(dotted(alias.name) or "") if alias.asname else None
            if module is not None:
                yield bound_name(alias), (module,)
        return
    if isinstance(imp.names, cst.ImportStar):
        return
    package = dotted(imp.module)  # a `from` import names the module by its path, not attributes
    for alias in imp.names:
        name = alias.name.value
        inner = submodule(package, name)
        yield bound_name(alias), ((inner,) if inner is not None else (package, name))
