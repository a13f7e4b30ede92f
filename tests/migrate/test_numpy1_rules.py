"""`migrate`: NumPy 1 names -> NumPy 2's, ragged literals -> dtype=object, scipy.misc -> Pillow
where exactly equal (the rest reported with file and line)."""

import libcst as cst
import numpy
from libcst.codemod import CodemodContext, CodemodTest

from tf1compat.migrate.findings import Kind
from tf1compat.migrate.rules.numpy1 import NumPy1Rule, is_ragged
from tf1compat.migrate.rules.scipy_misc import ScipyMiscRule


def findings_of(rule_class, code):
    rule = rule_class(CodemodContext())
    rule.transform_module(cst.parse_module(code))
    return [(f.line, f.kind) for f in rule.findings], " ".join(f.message for f in rule.findings)


class NumPy1Names(CodemodTest):
    TRANSFORM = NumPy1Rule

    def test_removed_names_become_numpy_2_spellings_under_the_files_alias(self):
        before = ("import numpy as N\nx = N.zeros(3, dtype=N.float) + N.NaN\n"
                  "y = x.astype(N.int) * N.NINF ** 2\nz = N.asscalar(x[0] + 1)\n"
                  "p = N.product(x) if N.bool(1) else N.float_(0)\n"
                  "e = N.asscalar(N.array([1.5]))\nm = N.msort(x)\n"
                  "r = N.reshape(x, newshape=(3, 1))\nq = N.reshape(newshape=(3, 1), a=x)\n")
        after = ("import numpy as N\nx = N.zeros(3, dtype=float) + N.nan\n"
                 "y = x.astype(int) * (-N.inf) ** 2\nz = (x[0] + 1).item()\n"
                 "p = N.prod(x) if bool(1) else N.float64(0)\n"
                 "e = N.array([1.5]).item()\nm = N.sort(x, axis=0)\n"
                 "r = N.reshape(x, (3, 1))\nq = N.reshape(shape=(3, 1), a=x)\n")
        self.assertCodemod(before, after)

    def test_ragged_literals_get_dtype_object_and_everything_else_is_left(self):
        before = ("import numpy\na = numpy.array([[1, 2], [3]])\n"
                  "b = numpy.asarray(([1.0], (2.0, 3.0)), order='C')\n"
                  "c = numpy.array([[1, 2], [3, 4]])\nd = numpy.array([[1, 2], rows])\n"
                  "e = numpy.array([[1], [2, 3]], dtype=float)\nf = numpy.array([1, [2]])\n"
                  "g = other.array([[1], [2, 3]])\nh = numpy.array(x, copy=False)\n")
        after = ("import numpy\na = numpy.array([[1, 2], [3]], dtype=object)\n"
                 "b = numpy.asarray(([1.0], (2.0, 3.0)), order='C', dtype=object)\n"
                 "c = numpy.array([[1, 2], [3, 4]])\nd = numpy.array([[1, 2], rows])\n"
                 "e = numpy.array([[1], [2, 3]], dtype=float)\n"
                 "f = numpy.array([1, [2]], dtype=object)\n"
                 "g = other.array([[1], [2, 3]])\nh = numpy.array(x, copy=None)\n")
        self.assertCodemod(before, after)


def test_provably_ragged_means_what_numpy_2_refuses():
    cases = ["[[1, 2], [3]]", "[[[1, 2], [3]], [[4, 5], [6]]]", "[1, [2]]", "[[1], []]",
             "[[1, 2], [3, 4]]", "[(1, 2), [3, 4]]", "[[-1.5, 2]]", "[]", "[[], []]"]
    for case in cases:
        literal = cst.parse_expression(case)
        try:
            numpy.array(eval(case))
            refused = False
        except ValueError:
            refused = True
        assert is_ragged(literal) == refused, case
    assert not is_ragged(cst.parse_expression("[[1, 2], x]"))  # x may be an array of 2


def test_names_without_a_numpy_2_spelling_are_reported_with_their_lines():
    code = ("import numpy as np\nfrom numpy import float\nf = np.asscalar\n"
            "a = np.in1d(x, y)\nb = np.cast[np.float32](x)\nc = np.asscalar(x, y)\n")
    lines, messages = findings_of(NumPy1Rule, code)
    assert lines == [(2, Kind.NOT_CONVERTED), (3, Kind.NOT_CONVERTED),
                     (4, Kind.NOT_CONVERTED), (5, Kind.NOT_CONVERTED), (6, Kind.NOT_CONVERTED)]
    assert "np.in1d is not in NumPy 2" in messages and "np.isin(np.ravel(a), b)" in messages
    assert "from numpy import float: NumPy 2 has no float; use float" in messages


class ScipyMisc(CodemodTest):
    TRANSFORM = ScipyMiscRule

    def test_imread_with_a_mode_becomes_pillow_and_the_rest_is_left(self):
        before = ("import numpy as np\nimport scipy.misc\nfrom scipy import misc\n"
                  "a = scipy.misc.imread(path, mode='RGB')\nb = misc.imread(path)\n"
                  "c = scipy.misc.imresize(a, (3, 4))\n")
        after = ("import numpy as np\nimport scipy.misc\nfrom scipy import misc\nimport PIL.Image\n"
                 "\na = np.array(PIL.Image.open(path).convert('RGB'))\nb = misc.imread(path)\n"
                 "c = scipy.misc.imresize(a, (3, 4))\n")
        self.assertCodemod(before, after)


def test_scipy_misc_helpers_left_are_reported_with_what_to_use():
    code = ("from scipy.misc import imresize, imsave as save\nimport scipy.misc as sm\n"
            "r = imresize(x, 50)\nsave('a.png', x)\nsm.imrotate(x, 90)\nsm.face()\n")
    lines, messages = findings_of(ScipyMiscRule, code)
    assert lines == [(3, Kind.NOT_CONVERTED), (4, Kind.NOT_CONVERTED), (5, Kind.NOT_CONVERTED)]
    assert "scipy.misc.imresize is not in SciPy >= 1.3" in messages and "bytescale" not in \
        messages.split("imsave")[0] and "rescaled" in messages
