"""The rewrite of an analysed queue-reader chain into one `input_pipeline(...)` call.

`ChainRewrite` turns a `ChainAnalysis` into the new code: the pipeline's
variable (a name the module does not use yet), the `input_pipeline(...)` call
that replaces the producer's line, the line that takes the tensors where the
batch (or decode_csv, one record per run) was, and `start_queue_runners`
called on the pipeline. `RewriteChain` applies it to the module the analysis
read, dropping the chain's other lines but keeping their comments.
"""

from __future__ import annotations

import re

import libcst as cst

from tf1compat.migrate.rules.queue_chain_analysis import ChainAnalysis

# input_pipeline's keywords in the order the call writes them.
_KEYWORD_ORDER = ("header_lines", "field_delim", "select_cols", "na_value", "use_quote_delim",
                  "num_epochs", "shuffle", "shuffle_files", "seed", "batch_size",
                  "drop_remainder", "read")


class ChainRewrite:
    """The new code for one analysed chain, and the statements it replaces or drops."""

    def __init__(self, chain: ChainAnalysis):
        code = chain.module.code
        self.producer_statement = chain.producer_statement
        self.start_call = chain.start_call
        self.removed = chain.removed
        self.variable = _fresh_name(code, "_rows")
        # `from tf1compat.input_pipeline import input_pipeline`, unless the name is taken.
        self.import_from = not re.search(r"\binput_pipeline\b", code)
        function = "input_pipeline" if self.import_from else \
            "tf1compat.input_pipeline.input_pipeline"
        # The rows stay in file order: TF1's file shuffling is shuffle_files.
        keywords = {**chain.keywords, "shuffle": "False"}
        options = [f"{k}={keywords[k]}" for k in _KEYWORD_ORDER if k in keywords]
        self.call_text = (f"{function}({chain.files_code}, {chain.defaults_code}, "
                          + ", ".join(options) + ")")
        tensors = f"{self.variable}.tensors"
        value = tensors if isinstance(chain.tensors_target, (cst.Tuple, cst.List)) else \
            f"list({tensors})"
        self.tensors_text = (f"the {'batch' if chain.batched else 'record'} tensors "
                             f"are {value} (line {chain.rule.line(chain.tensors_at)})")
        self.replaced: dict[cst.SimpleStatementLine, cst.SimpleStatementLine] = {
            self.producer_statement: _assign(self.producer_statement, cst.Name(self.variable),
                                             cst.parse_expression(self.call_text)),
        }
        self.replaced[chain.tensors_at] = _assign(chain.tensors_at, chain.tensors_target,
                                                  cst.parse_expression(value))


def _fresh_name(code: str, base: str) -> str:
    name, index = base, 1
    while re.search(rf"\b{re.escape(name)}\b", code):
        index += 1
        name = f"{base}{index}"
    return name


def _assign(statement: cst.SimpleStatementLine, target: cst.BaseAssignTargetExpression,
            value: cst.BaseExpression) -> cst.SimpleStatementLine:
    """The statement with its assignment replaced, comments and blank lines kept."""
    [assign] = statement.body
    return statement.with_changes(body=[assign.with_changes(
        targets=[assign.targets[0].with_changes(target=target)], value=value)])


class RewriteChain(cst.CSTTransformer):
    """Applies a plan to the module it was read from (nodes matched by identity)."""

    def __init__(self, plan: ChainRewrite):
        super().__init__()
        self.plan = plan

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call) -> cst.Call:
        if original_node is self.plan.start_call:
            return updated_node.with_changes(
                func=cst.parse_expression(f"{self.plan.variable}.start_queue_runners"))
        return updated_node

    def leave_SimpleStatementLine(self, original_node, updated_node):
        return self.plan.replaced.get(original_node, updated_node)

    def _block(self, original_body, updated_body) -> list:
        kept, carried = [], []
        for original, statement in zip(original_body, updated_body):
            if any(original is gone for gone in self.plan.removed):
                carried.extend(statement.leading_lines)
                comment = statement.trailing_whitespace.comment
                if comment is not None:
                    carried.append(cst.EmptyLine(comment=comment))
                continue
            if carried:
                statement = statement.with_changes(
                    leading_lines=[*carried, *statement.leading_lines])
                carried = []
            kept.append(statement)
        return kept

    def leave_IndentedBlock(self, original_node, updated_node):
        return updated_node.with_changes(body=self._block(original_node.body, updated_node.body))

    def leave_Module(self, original_node, updated_node):
        return updated_node.with_changes(body=self._block(original_node.body, updated_node.body))
