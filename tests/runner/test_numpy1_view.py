"""The numpy and scipy user code gets under `run --numpy 1`, in this process (no TensorFlow).

User code here is source compiled as a file under a user root, whose `__import__` is run's
import hook; libraries are this test module (not under the root) and numpy itself.
"""

import builtins
import threading
import types
import warnings

import numpy
import pytest

from tf1compat.runner import numpy1, shim


@pytest.fixture
def user(tmp_path):
    """Runs source as a user script under `run --numpy 1`; returns its namespace."""
    hook = shim.ImportHook(types.ModuleType("tf1"), [str(tmp_path)])
    numpy1.install()
    script = str(tmp_path / "train.py")

    def run(source):
        namespace = {"__name__": "__main__", "__file__": script,
                     "__builtins__": dict(vars(builtins), __import__=hook)}
        exec(compile(source, script, "exec"), namespace)
        return namespace

    run.hook, run.script = hook, script
    yield run
    numpy1.uninstall()


def test_removed_names_resolve_for_user_code_and_libraries_keep_numpy(user):
    ns = user("import numpy as np\nimport numpy\nfrom numpy import float as F, NaN\n"
              "import numpy.random as npr\nfrom numpy.random import rand\n"
              "from numpy import linalg\n"
              "x = np.zeros(3, dtype=np.float).astype(np.int)\n"
              "s = np.asscalar(np.array([2.5]))\n"
              "r = np.reshape(np.arange(6), newshape=(2, 3)), np.reshape(np.arange(4), (2, 2))\n"
              "ints = np.arange(3)\n"
              "c = np.array([1, 2], copy=False), np.array(ints, copy=False), "
              "np.array(ints, dtype=float, copy=False)\n")
    np = ns["np"]
    assert ns["r"][0].shape == (2, 3) and ns["r"][1].shape == (2, 2)
    copied, same, converted = ns["c"]  # copy=False: a copy only where one is needed (NumPy 1)
    assert copied.tolist() == [1, 2] and same is ns["ints"] and converted.dtype == float
    assert (np.float, np.int, np.bool, np.object, np.str, np.long, np.unicode, np.complex) == \
        (float, int, bool, object, str, int, str, complex)
    assert ns["F"] is float and numpy.isnan(ns["NaN"]) and ns["s"] == 2.5
    assert ns["x"].dtype == numpy.int64 and isinstance(ns["x"], np.ndarray)
    assert np.ndarray is numpy.ndarray and np.float32 is numpy.float32
    assert ns["npr"] is numpy.random and np.random is numpy.random and np.linalg is numpy.linalg
    assert ns["rand"] is numpy.random.rand and ns["linalg"] is numpy.linalg
    assert np.product([2, 3]) == 6 and np.alltrue([True]) and np.round_(1.26, 1) == 1.3
    assert np.Inf == numpy.inf and np.NINF == -numpy.inf and np.float_ is numpy.float64
    assert user.hook("numpy", {"__file__": __file__}) is numpy  # a library: the real numpy
    assert not hasattr(numpy, "float") and "float" in dir(np)
    with pytest.raises(AttributeError, match="rank"):  # NumPy 1.18 had no np.rank either
        np.rank
    used = numpy1.report()["names"]
    assert used["float"] == 3 and used["asscalar"] == 1 and used["NaN"] == 1


def test_real_attributes_are_cached_in_the_view_after_the_first_read(user):
    np = user("import numpy as np\n")["np"]
    assert "zeros" not in vars(np)
    np.zeros(1)
    assert vars(np)["zeros"] is numpy.zeros  # later reads are a dict lookup, no __getattr__
    assert "float" not in vars(np)  # removed names are counted at each read


def test_ragged_literals_become_object_arrays_with_one_warning_naming_the_line(user):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        ns = user("import numpy as np\n"
                  "rows = [np.array([[1, 2], [3]]) for _ in range(3)]\n"
                  "nested = np.asarray([[[1, 2], [3]], [[4, 5], [6]]])\n"
                  "plain = np.array([[1, 2], [3, 4]])\n")
    ragged = ns["rows"][0]
    assert ragged.dtype == object and ragged.shape == (2,) and ragged[0] == [1, 2]
    assert ns["nested"].shape == (2, 2) and ns["plain"].dtype == numpy.int64
    lines = [(w.filename, w.lineno) for w in caught
             if issubclass(w.category, numpy.exceptions.VisibleDeprecationWarning)]
    assert lines == [(user.script, 2), (user.script, 3)]  # once per line, at the script's line
    assert numpy1.report()["ragged"] == {f"{user.script}:2": 3, f"{user.script}:3": 1}
    with pytest.raises(ValueError, match="inhomogeneous"):  # a dtype given: NumPy 2's error
        user("import numpy as np\nnp.array([[1, 2], [3]], dtype=float)\n")


def _printed_in_a_thread():
    printed = []
    thread = threading.Thread(target=lambda: printed.append(repr(numpy.float32(1.5))))
    thread.start()
    thread.join()
    return printed[0]


def test_scalars_print_as_numpy_1_printed_them_until_uninstalled(user):
    assert repr(numpy.float32(1.5)) == "1.5" and str([numpy.int64(15)]) == "[15]"
    assert _printed_in_a_thread() == "1.5"  # threads start from NumPy's default options
    numpy1.uninstall()
    assert repr(numpy.float32(1.5)) == "np.float32(1.5)"
    assert _printed_in_a_thread() == "np.float32(1.5)"


def _png(tmp_path, array, mode):
    from PIL import Image

    path = str(tmp_path / f"{mode}.png")
    Image.fromarray(array, mode).save(path)
    return path


def test_scipy_misc_image_helpers_keep_scipy_1_1_ranges_and_dtypes(user, tmp_path):
    """Expected values from SciPy 1.1's documented behaviour: bytescale maps [min, max] to
    [0, 255] rounding half up; imresize's int size is a percentage, a float a fraction, a
    tuple (height, width); imsave bytescales; imread gives uint8 (palette images as RGB)."""
    rgb = numpy.arange(4 * 6 * 3, dtype=numpy.uint8).reshape(4, 6, 3) * 3
    palette = numpy.array([[0, 1], [1, 0]], dtype=numpy.uint8)
    ns = user(f"import numpy as np\nimport scipy.misc\nfrom scipy import misc\n"
              f"from scipy.misc import imread, imresize, imsave, bytescale\n"
              f"img = scipy.misc.imread({_png(tmp_path, rgb, 'RGB')!r})\n"
              f"pal = imread({_png(tmp_path, palette, 'P')!r})\n"
              f"grey = imread({_png(tmp_path, rgb, 'RGB')!r}, mode='L')\n"
              f"flat = imread({_png(tmp_path, rgb, 'RGB')!r}, flatten=True)\n"
              "half, third, exact = imresize(img, 50), imresize(img, 0.5), imresize(img, (3, 5))\n"
              "near = imresize(img, 200, interp='nearest')\n"
              "floats = imresize(np.linspace(0, 1, 16).reshape(4, 4), 100)\n"
              f"imsave({str(tmp_path / 'out.png')!r}, np.linspace(0, 1, 12).reshape(3, 4))\n"
              f"back = misc.imread({str(tmp_path / 'out.png')!r})\n"
              "scaled = bytescale(np.array([0.0, 0.5, 1.0, 2.0]))\n")
    assert ns["img"].dtype == numpy.uint8 and (ns["img"] == rgb).all()
    assert ns["pal"].shape == (2, 2, 3) and ns["pal"].dtype == numpy.uint8  # P -> RGB
    assert ns["grey"].shape == (4, 6) and ns["flat"].dtype == numpy.float32
    assert ns["half"].shape == (2, 3, 3) and ns["third"].shape == (2, 3, 3)
    assert ns["exact"].shape == (3, 5, 3) and ns["exact"].dtype == numpy.uint8
    assert (ns["near"][::2, ::2] == rgb).all()
    assert ns["floats"].dtype == numpy.uint8 and ns["floats"].min() == 0 and \
        ns["floats"].max() == 255  # a float image in [0, 1] comes back in [0, 255]
    # imsave bytescaled: value * 255 rounded half up (SciPy 1.1's formula), read back as uint8
    assert ns["back"].dtype == numpy.uint8 and ns["back"].tolist() == numpy.floor(
        numpy.linspace(0, 1, 12).reshape(3, 4) * 255 + 0.5).astype(int).tolist()
    assert ns["scaled"].tolist() == [0, 64, 128, 255]
    used = numpy1.report()["names"]
    assert used["scipy.misc.imread"] == 3 and used["scipy.misc.imresize"] == 1  # reads, not calls


def test_scipy_misc_helpers_not_served_fail_at_the_call_saying_what_to_use(user):
    with pytest.raises(AttributeError, match=r"scipy.misc.imrotate was removed in SciPy 1.2.*"
                                             r"rotate"):
        user("import scipy.misc\nimport numpy as np\nscipy.misc.imrotate(np.zeros((2, 2)), 90)\n")
    try:
        import scipy  # noqa: F401
    except ImportError:
        with pytest.raises(ModuleNotFoundError, match=r"scipy.ndimage.*SciPy is not installed"):
            user("import scipy.ndimage\n")
        with pytest.raises(ModuleNotFoundError, match=r"'scipy'.*SciPy is not installed"):
            user("import scipy\nscipy.stats\n")


def test_pillow_9_filter_names_resize_as_the_filters_pillow_10_kept(user, tmp_path):
    from PIL import Image

    rgb = (numpy.arange(8 * 6 * 3) * 7 % 256).astype(numpy.uint8).reshape(8, 6, 3)
    ns = user(f"import numpy as np\nfrom PIL import Image\nimport PIL.Image as I\nimport PIL\n"
              f"from PIL.Image import ANTIALIAS, LANCZOS\nfrom PIL import ImageDraw\n"
              f"img = Image.open({_png(tmp_path, rgb, 'RGB')!r})\n"
              f"small = np.array(img.resize((3, 4), Image.ANTIALIAS))\n"
              f"names = (I.LINEAR, PIL.Image.CUBIC, ANTIALIAS, Image.NEAREST)\n")
    with Image.open(_png(tmp_path, rgb, "RGB")) as img:
        expected = numpy.array(img.resize((3, 4), Image.LANCZOS))
    assert numpy.array_equal(ns["small"], expected)
    assert ns["names"] == (Image.BILINEAR, Image.BICUBIC, Image.LANCZOS, Image.NEAREST)
    assert ns["ImageDraw"].Draw is __import__("PIL.ImageDraw").ImageDraw.Draw
    assert ns["I"].open is Image.open and ns["PIL"].Image is ns["Image"]
    assert not hasattr(Image, "ANTIALIAS")  # libraries see Pillow as installed
    used = numpy1.report()["names"]
    assert used["PIL.Image.ANTIALIAS"] == 2 and used["PIL.Image.LINEAR"] == 1
    with pytest.raises(AttributeError, match="NO_SUCH_FILTER"):
        user("from PIL import Image\nImage.NO_SUCH_FILTER\n")
