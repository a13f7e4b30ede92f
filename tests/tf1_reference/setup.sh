#!/usr/bin/env bash
# Builds (or reuses) the TensorFlow 1.15 reference interpreter the tests compare against, and
# prints the path of its python on the last line of stdout.
#
# The interpreter: $TF1COMPAT_TF1_PYTHON, else a Python 3.7/3.6/3.5 installed by pyenv, else
# python3.7/python3.6/python3.5 on PATH. The virtual environment: $TF1COMPAT_TF1_REFERENCE_DIR,
# default ${XDG_CACHE_HOME:-~/.cache}/tf1compat/tf1-reference; reused while it was built from
# the same interpreter version and requirements.txt. Keras 2 (keras2-requirements.txt) goes into
# a folder beside it, $TF1COMPAT_KERAS2_REFERENCE_DIR, default .../tf1compat/keras2-reference,
# reused the same way; the reference's Keras 2 runs put it on PYTHONPATH.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
requirements="$here/requirements.txt"
target="${TF1COMPAT_TF1_REFERENCE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/tf1compat/tf1-reference}"

supported() {  # a Python 3.5-3.7 interpreter?
    "$1" -c 'import sys; sys.exit(0 if (3, 5) <= sys.version_info[:2] <= (3, 7) else 1)' \
        2>/dev/null
}

find_python() {
    if [ -n "${TF1COMPAT_TF1_PYTHON:-}" ]; then
        if supported "$TF1COMPAT_TF1_PYTHON"; then echo "$TF1COMPAT_TF1_PYTHON"; return 0; fi
        echo "TF1COMPAT_TF1_PYTHON=$TF1COMPAT_TF1_PYTHON is not a Python 3.5-3.7 interpreter" \
             "(TensorFlow 1.15 has wheels for those only)" >&2
        return 1
    fi
    local root candidate
    root="$(pyenv root 2>/dev/null || echo "${PYENV_ROOT:-$HOME/.pyenv}")"
    for minor in 7 6 5; do
        for candidate in $(ls -d "$root"/versions/3."$minor".* 2>/dev/null | sort -rV); do
            if supported "$candidate/bin/python"; then echo "$candidate/bin/python"; return 0; fi
        done
    done
    for candidate in python3.7 python3.6 python3.5; do
        if command -v "$candidate" >/dev/null && supported "$candidate"; then
            command -v "$candidate"; return 0
        fi
    done
    echo "no Python 3.5-3.7 found: set TF1COMPAT_TF1_PYTHON, or install one with" \
         "'pyenv install 3.7'" >&2
    return 1
}

python="$(find_python)"
stamp="$("$python" -c 'import platform; print(platform.python_version())')
$(cat "$requirements")"
if [ -x "$target/bin/python" ] && [ "$(cat "$target/.tf1compat-stamp" 2>/dev/null)" = "$stamp" ] \
        && "$target/bin/python" -c "import tensorflow" 2>/dev/null; then
    echo "reusing the TensorFlow 1.15 reference at $target" >&2
else
    echo "building the TensorFlow 1.15 reference at $target from $python" >&2
    rm -rf "$target"
    mkdir -p "$(dirname "$target")"
    "$python" -m venv "$target"
    "$target/bin/python" -m pip install --quiet --disable-pip-version-check -r "$requirements" >&2
    "$target/bin/python" -c "import tensorflow as tf; assert tf.__version__ == '1.15.0', tf.__version__"
    printf '%s' "$stamp" > "$target/.tf1compat-stamp"
fi

keras2_requirements="$here/keras2-requirements.txt"
keras2="${TF1COMPAT_KERAS2_REFERENCE_DIR:-$(dirname "$target")/keras2-reference}"
keras2_stamp="$stamp
$(cat "$keras2_requirements")"
if [ "$(cat "$keras2/.tf1compat-stamp" 2>/dev/null)" = "$keras2_stamp" ] && \
        PYTHONPATH="$keras2" "$target/bin/python" -c "import keras" 2>/dev/null; then
    echo "reusing Keras 2 for the reference at $keras2" >&2
else
    echo "installing Keras 2 for the reference at $keras2" >&2
    rm -rf "$keras2"
    "$target/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps \
        --only-binary=:all: --target "$keras2" -r "$keras2_requirements" >&2
    PYTHONPATH="$keras2" "$target/bin/python" -c \
        "import keras; assert keras.__version__ == '2.3.1', keras.__version__" 2>/dev/null
    printf '%s' "$keras2_stamp" > "$keras2/.tf1compat-stamp"
fi
echo "$target/bin/python"
