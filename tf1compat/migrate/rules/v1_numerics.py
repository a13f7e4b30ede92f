"""TF1 names tf_upgrade_v2 renames to a TF 2 function that computes other numbers -> tf.compat.v1.

tf_upgrade_v2 writes `tf.image.resize_images(images, size, method=1)` as
`tf.image.resize(images, size, method=1)`. TF 2's function is no drop-in: it samples at
half-pixel centers, so a bilinear 4 -> 6 resize gives `0, 2, 4.67, ...` where TF 1.15 gave
`0, 2.67, 5.33, ...`, and it refuses TF1's integer method codes ("Resize method is not
implemented: 1"). `tf.compat.v1.image.resize_images` is TF 1.15's function on TF 2.21 (the
same numbers, integer codes and TF 2's enum alike), and tf_upgrade_v2 leaves it as it is.
So, before tf_upgrade_v2 runs, each name of `OTHER_NUMBERS` is written under `tf.compat.v1`,
and the change is reported with its reason.
"""

from __future__ import annotations

import libcst as cst

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.base import Rule

# TF1 name -> what tf_upgrade_v2's TF 2 name would do instead
OTHER_NUMBERS = {
    "image.resize_images": "tf_upgrade_v2 renames it to tf.image.resize, which samples at "
                           "half-pixel centers (other pixels than TF 1.15's) and refuses TF1's "
                           "integer method codes (method=1)",
    "image.ResizeMethod": "TF 2's enum holds strings ('bicubic'), TF 1.15's the integer codes "
                          "TF1 code passes and compares (2)",
}


class V1NumericsRule(Rule):
    NAME = "v1-numerics"
    DESCRIPTION = ("TF1 names tf_upgrade_v2 renames to a TF 2 function that computes other "
                   "numbers (tf.image.resize_images) -> tf.compat.v1")
    TRIGGERS = tuple(name.rpartition(".")[2] for name in OTHER_NUMBERS)

    def visit_Module(self, node: cst.Module) -> None:
        super().visit_Module(node)
        self.reported: set[str] = set()

    def leave_Attribute(self, original_node: cst.Attribute,
                        updated_node: cst.Attribute) -> cst.BaseExpression:
        path = self.names.v1_name(original_node)
        if path not in OTHER_NUMBERS:
            return updated_node
        if path not in self.reported:
            self.reported.add(path)
            self.add(original_node, Kind.CHANGED,
                     f"tf.{path} -> tf.compat.v1.{path}: TF 1.15's, with its numbers "
                     f"({OTHER_NUMBERS[path]})")
        return cst.parse_expression(self.names.code(path))
