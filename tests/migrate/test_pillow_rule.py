"""`migrate`: the filter names Pillow 10 removed -> the names of the same filters, under every
name the file binds PIL.Image to."""

from libcst.codemod import CodemodTest

from tf1compat.migrate.rules.pillow import PillowRule


class PillowNames(CodemodTest):
    TRANSFORM = PillowRule

    def test_removed_filters_become_the_kept_names_of_the_same_filters(self):
        before = ("from PIL import Image\nimport PIL.Image as I\nimport PIL\n"
                  "from PIL.Image import ANTIALIAS, BICUBIC\n"
                  "a = img.resize((2, 2), Image.ANTIALIAS)\n"
                  "b = I.LINEAR, PIL.Image.CUBIC, Image.NEAREST\n")
        after = ("from PIL import Image\nimport PIL.Image as I\nimport PIL\n"
                 "from PIL.Image import LANCZOS as ANTIALIAS, BICUBIC\n"
                 "a = img.resize((2, 2), Image.LANCZOS)\n"
                 "b = I.BILINEAR, PIL.Image.BICUBIC, Image.NEAREST\n")
        self.assertCodemod(before, after)

    def test_names_not_bound_to_pillow_are_left(self):
        code = ("import other as Image\nfrom PIL import ImageDraw\n"
                "a = Image.ANTIALIAS, ImageDraw.LINEAR, cv2.INTER_LINEAR\n")
        self.assertCodemod(code, code)
