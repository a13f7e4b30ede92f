"""TF1 names that tf_upgrade_v2 writes as a TF 2 function doing something else -> tf.compat.v1.

tf_upgrade_v2 renames some TF1 names to a TF 2 function, or keeps the name where TF 2 has one,
and TF 2's function takes the same arguments but gives another result:

- `tf.image.resize_images(images, size, method=1)` becomes `tf.image.resize(...)` (a name TF
  1.15 gave the same function, which tf_upgrade_v2 leaves as TF 2's), which
  samples at half-pixel centers (a bilinear 4 -> 6 resize gives `0, 2, 4.67, ...` where TF
  1.15 gave `0, 2.67, 5.33, ...`) and refuses TF1's integer method codes;
- `tf.while_loop(cond, body, [i])` and `tf.cond(pred, lambda: [a], lambda: [b])` return a
  list of one tensor under TF 2, where TF 1.15 returned the tensor itself;
- `tf.nn.ctc_beam_search_decoder(logits, lengths)` decodes with `merge_repeated=False` under
  TF 2 (a label repeated in the best path stays twice), where TF 1.15's merged it by default.

The `tf.compat.v1` functions are TF 1.15's on TF 2.21 (same results, same arguments), and
tf_upgrade_v2 leaves them as they are. So, before it runs, each name of `DIFFERENCES` is
written under `tf.compat.v1`, and the change is reported with its reason.
"""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

# TF1 name -> what tf_upgrade_v2's TF 2 function would do instead
DIFFERENCES = {
    "image.resize_images": "tf_upgrade_v2 renames it to tf.image.resize, which samples at "
                           "half-pixel centers (other pixels than TF 1.15's) and refuses TF1's "
                           "integer method codes (method=1)",
    "image.resize": "TF 1.15 exported resize_images under this name too; TF 2's tf.image.resize "
                    "samples at half-pixel centers and refuses TF1's integer method codes",
    "image.ResizeMethod": "TF 2's enum holds strings ('bicubic'), TF 1.15's the integer codes "
                          "TF1 code passes and compares (2)",
    "while_loop": "TF 2's returns a list of one tensor for one loop variable in a list, where "
                  "TF 1.15's returned the tensor itself",
    "cond": "TF 2's returns a list of one tensor where both branches return one, where TF "
            "1.15's returned the tensor itself (strict=False)",
    "nn.ctc_beam_search_decoder": "TF 2's decodes with merge_repeated=False (a label repeated "
                                  "in the best path stays twice), TF 1.15's merged it by "
                                  "default",
}


class V1DifferencesRule(Rule):
    NAME = "v1-differences"
    DESCRIPTION = ("TF1 names tf_upgrade_v2 writes as a TF 2 function that gives another result "
                   "(tf.image.resize_images, tf.while_loop, tf.cond) -> tf.compat.v1")
    TRIGGERS = tuple(name.rpartition(".")[2] for name in DIFFERENCES)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        path = self.names.v1_name(original_node)
        if path not in DIFFERENCES or self.names.is_compat_v1(original_node):
            return updated_node  # (already TF 1.15's: tf.compat.v1.<path>)
        if path not in self.reported:
            self.reported.add(path)
            self.add(original_node, Kind.CHANGED,
                     f"tf.{path} -> tf.compat.v1.{path}: TF 1.15's, with its results "
                     f"({DIFFERENCES[path]})")
        return cst.parse_expression(self.names.code(path))
