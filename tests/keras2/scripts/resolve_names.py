"""Resolves every Keras name of the census (its uses.csv, given as argv[1]) and prints, as JSON,
those that do not resolve: under Keras 2.3.1 itself, or under the Keras 2 `tf1compat run` serves."""
import csv
import importlib
import json
import sys

import keras

absent = {}
with open(sys.argv[1]) as handle:
    for row in csv.DictReader(handle):
        name = row["name"]
        value, done = keras, "keras"
        try:
            for part in name.split(".")[1:]:
                done += "." + part
                try:
                    value = getattr(value, part)
                except AttributeError:
                    value = importlib.import_module(done)  # a submodule the script imported
        except (AttributeError, ImportError) as error:
            absent[name] = type(error).__name__
print("ABSENT " + json.dumps(absent, sort_keys=True))
try:
    from keras.layers import Merge  # noqa: F401 - Keras 1's merge layer: in neither Keras 2.3 nor tf_keras
except ImportError as error:
    print("MERGE " + str(error).splitlines()[0])
