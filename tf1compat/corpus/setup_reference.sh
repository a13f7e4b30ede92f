#!/usr/bin/env bash
# The corpus's TensorFlow 1.15 side: the project's reference interpreter (tests/tf1_reference/
# setup.sh builds or reuses it) and, beside it, the packages the corpus's programs import
# (data/tf115-extras.txt), installed with --target into a folder the reference runs put on
# PYTHONPATH: $TF1COMPAT_CORPUS_EXTRAS_DIR, default .../tf1compat/corpus-extras. Reused while
# it was built from the same list. Prints the folder on the last line.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
python="$(bash "$here/../../tests/tf1_reference/setup.sh" | tail -n 1)"
extras="${TF1COMPAT_CORPUS_EXTRAS_DIR:-$(dirname "$(dirname "$(dirname "$python")")")/corpus-extras}"
requirements="$here/data/tf115-extras.txt"
if [ "$(cat "$extras/.tf1compat-stamp" 2>/dev/null)" != "$(cat "$requirements")" ]; then
    rm -rf "$extras"
    "$python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --target "$extras" -r "$requirements" >&2
    cp "$requirements" "$extras/.tf1compat-stamp"
fi
echo "$extras"
