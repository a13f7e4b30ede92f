"""The synthetic data sets now live in tf1compat.corpus.synthetic_data; this name stays for the
tests that import `synthetic_data` from this folder."""

import sys

from tf1compat.corpus import synthetic_data

sys.modules[__name__] = synthetic_data
