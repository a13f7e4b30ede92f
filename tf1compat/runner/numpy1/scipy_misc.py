"""`scipy.misc`'s image helpers, removed in SciPy 1.2-1.3, as SciPy 1.1 documented them, on Pillow.

SciPy 1.1 built them on PIL; so does this module, to the same value ranges and dtypes:

- `imread(name, flatten=False, mode=None)`: a uint8 array (H, W) or (H, W, 3|4), as
  `np.array` of the Pillow image; palette images become RGB (RGBA with transparency), 1-bit
  ones 8-bit; `mode` converts first, `flatten=True` gives a float32 grey image.
- `bytescale(data, cmin, cmax, high=255, low=0)`: uint8 data unchanged, else data scaled from
  [cmin, cmax] (default: its min and max) to [low, high], rounded half up.
- `toimage(arr, ...)`: a Pillow image; 2-D and (H, W, 3|4) data are bytescaled first, so a float
  image in [0, 1] spans 0..255 (mode 'F' keeps float32, 'I' scales to uint32, '1' is `arr > high`).
- `imsave(name, arr, format=None)`: `toimage(arr, channel_axis=2).save(...)` (so it rescales).
- `imresize(arr, size, interp='bilinear', mode=None)`: the uint8 image resized: `size` an int
  is a percentage, a float a fraction, a tuple (height, width); interp 'nearest', 'lanczos',
  'bilinear', 'bicubic' or 'cubic'.
- `fromimage(im, flatten=False, mode=None)`: the array of a Pillow image, as imread makes it.

The other removed helpers (`imrotate`, `imfilter`, `imshow`) fail where the script calls
them, saying what to use; `scipy.misc`'s other names come from SciPy where it is installed.
"""

from __future__ import annotations

import numpy

from tf1compat.shared.errors import Tf1CompatError

PIL_HINT = "pip install 'tf1compat[numpy1]' (tf1compat run serves scipy.misc's image helpers " \
    "on Pillow)"
_RESAMPLE = {"nearest": 0, "lanczos": 1, "bilinear": 2, "bicubic": 3, "cubic": 3}


class RemovedHelperError(Tf1CompatError, AttributeError):
    """A scipy.misc helper removed in SciPy 1.2 that tf1compat does not serve."""


def _image_module():
    try:
        from PIL import Image
    except ImportError:
        raise ModuleNotFoundError(f"scipy.misc's image helpers need Pillow: {PIL_HINT}",
                                  name="PIL") from None
    return Image


def fromimage(im, flatten=False, mode=None):
    if mode is not None and mode != im.mode:
        im = im.convert(mode)
    elif im.mode == "P":  # SciPy 1.1: palette images read as the colours they show
        im = im.convert("RGBA" if "transparency" in im.info else "RGB")
    if flatten:
        im = im.convert("F")
    elif im.mode == "1":
        im = im.convert("L")
    return numpy.array(im)


def imread(name, flatten=False, mode=None):
    with _image_module().open(name) as im:
        return fromimage(im, flatten=flatten, mode=mode)


def bytescale(data, cmin=None, cmax=None, high=255, low=0):
    data = numpy.asarray(data)
    if data.dtype == numpy.uint8:
        return data
    if high > 255 or low < 0 or high < low:
        raise ValueError(f"bytescale: high={high!r}, low={low!r}: need 0 <= low <= high <= 255")
    cmin = data.min() if cmin is None else cmin
    cmax = data.max() if cmax is None else cmax
    scale = cmax - cmin
    if scale < 0:
        raise ValueError(f"bytescale: cmax={cmax!r} is below cmin={cmin!r}")
    scale = float(high - low) / (scale if scale != 0 else 1)
    scaled = (data - cmin) * scale + low
    return (scaled.clip(low, high) + 0.5).astype(numpy.uint8)


def toimage(arr, high=255, low=0, cmin=None, cmax=None, pal=None, mode=None,
            channel_axis=None):
    Image = _image_module()
    data = numpy.asarray(arr)
    if numpy.iscomplexobj(data):
        raise ValueError("toimage: cannot convert a complex array to an image")
    shape = data.shape
    if not (len(shape) == 2 or (len(shape) == 3 and (3 in shape or 4 in shape))):
        raise ValueError(f"toimage: an array of shape {shape} is no image: need (H, W) or "
                         "(H, W, 3|4)")
    if pal is not None:
        raise ValueError("toimage: pal= is not served by tf1compat run; build the palette "
                         "image with PIL.Image.fromarray(...).putpalette(pal)")
    if len(shape) == 2:
        if mode == "F":
            return Image.fromarray(data.astype(numpy.float32), "F")
        if mode in (None, "L", "P"):
            image = Image.fromarray(bytescale(data, cmin, cmax, high, low), "L")
            if mode == "P":  # SciPy 1.1: a grey palette
                image.putpalette(numpy.repeat(numpy.arange(256, dtype=numpy.uint8), 3).tobytes())
            return image
        if mode == "1":
            return Image.fromarray(data > high).convert("1")
        if mode == "I":
            cmin = data.min() if cmin is None else cmin
            cmax = data.max() if cmax is None else cmax
            scaled = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
            return Image.fromarray(scaled.astype(numpy.uint32).astype(numpy.int32), "I")
        raise ValueError(f"toimage: mode={mode!r} for a 2-D array: use 'L', 'P', 'F', 'I' or '1'")
    if channel_axis is None:  # SciPy 1.1: the first axis of 3, else the first of 4
        channel_axis = shape.index(3) if 3 in shape else shape.index(4)
    channels = shape[channel_axis]
    if channels not in (3, 4):
        raise ValueError(f"toimage: channel_axis={channel_axis} has {channels} channels: "
                         "need 3 or 4")
    data = numpy.moveaxis(bytescale(data, cmin, cmax, high, low), channel_axis, 2)
    mode = mode or ("RGB" if channels == 3 else "RGBA")
    if mode not in ("RGB", "RGBA") or (mode == "RGB") != (channels == 3):
        raise ValueError(f"toimage: mode={mode!r} with {channels} channels: use "
                         f"{'RGB' if channels == 3 else 'RGBA'}")
    return Image.fromarray(numpy.ascontiguousarray(data), mode)


def imsave(name, arr, format=None):
    image = toimage(arr, channel_axis=2)
    if format is None:
        image.save(name)
    else:
        image.save(name, format)


def imresize(arr, size, interp="bilinear", mode=None):
    if interp not in _RESAMPLE:
        raise ValueError(f"imresize: interp={interp!r}; accepted: {', '.join(_RESAMPLE)}")
    image = toimage(arr, mode=mode)
    if isinstance(size, (int, numpy.signedinteger)) and not isinstance(size, bool):
        size = tuple((numpy.array(image.size) * (size / 100.0)).astype(int))
    elif isinstance(size, (float, numpy.floating)):
        size = tuple((numpy.array(image.size) * size).astype(int))
    else:
        size = (int(size[1]), int(size[0]))  # (height, width) in, Pillow's (width, height)
    return fromimage(image.resize(size, resample=_RESAMPLE[interp]))


_INSTEAD = {
    "imrotate": "PIL.Image.fromarray(arr).rotate(angle, resample=PIL.Image.BILINEAR), or "
                "scipy.ndimage.rotate",
    "imfilter": "PIL.ImageFilter (PIL.Image.fromarray(arr).filter(PIL.ImageFilter.BLUR))",
    "imshow": "matplotlib.pyplot.imshow(arr)",
}


def removed(name: str):
    """A stand-in that fails at the script's call of a helper not served."""
    def helper(*args, **kwargs):
        raise RemovedHelperError(f"scipy.misc.{name} was removed in SciPy 1.2 and tf1compat run "
                                 f"does not serve it: use {_INSTEAD[name]}")
    helper.__name__ = name
    return helper


SERVED = ("imread", "imsave", "imresize", "toimage", "bytescale", "fromimage")
REMOVED = tuple(_INSTEAD)
