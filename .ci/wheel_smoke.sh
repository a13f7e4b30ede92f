#!/usr/bin/env bash
# The installed wheel as a user gets it: built from this checkout, installed (not editable)
# into a fresh virtual environment, and run from a folder outside the checkout, so nothing
# comes from the checkout's files. Its dependencies are the test environment's (named on a
# .pth line, so the editable install there is not seen): what is checked is the wheel's own
# files: every module, the package data, the hdfs:// plugin and the console script.
# Usage: bash .ci/wheel_smoke.sh   (inside the activated test environment)
set -euo pipefail
checkout="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/tf1compat-wheel-XXXXXX")"
trap 'rm -rf "$work"' EXIT
deps="$(python3 -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"

echo "+ building the wheel"
python3 -m pip wheel --quiet --no-deps -w "$work/dist" "$checkout" \
    > "$work/build.log" 2>&1 || { tail -n 40 "$work/build.log"; exit 1; }
wheel="$(ls "$work"/dist/tf1compat-*.whl)"
echo "  $(basename "$wheel"): $(python3 -c "import sys, zipfile; print(len(zipfile.ZipFile(sys.argv[1]).namelist()))" "$wheel") files"

python3 -m venv "$work/venv"
site="$("$work/venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')"
echo "$deps" > "$site/zz-test-environment-dependencies.pth"
"$work/venv/bin/python" -m pip install --quiet --no-deps "$wheel"
export PATH="$work/venv/bin:$PATH" TF_CPP_MIN_LOG_LEVEL=2
unset PYTHONPATH
cd "$work"

step() { echo "+ $*"; "$@" > "$work/out.txt" 2>&1 || { cat "$work/out.txt"; echo "wheel smoke: '$*' failed"; exit 1; }; }

# tf1compat comes from the wheel, not from the checkout
python -c "
import sys, tf1compat, modern
for module in (tf1compat, modern):
    assert module.__file__.startswith('$site'), (module.__file__, '$site')
print('  tf1compat from', tf1compat.__file__)"
# the package data a checkout has, the wheel has
python - "$checkout" "$site" <<'PY'
import sys
from pathlib import Path
checkout, site = Path(sys.argv[1]), Path(sys.argv[2])
wanted = [p.relative_to(checkout) for package in ("tf1compat", "modern")
          for p in (checkout / package).rglob("*")
          if p.is_file() and "__pycache__" not in p.parts and p.suffix not in (".pyc", ".so")]
missing = [str(p) for p in wanted if not (site / p).is_file()]
assert not missing, f"the wheel lacks {len(missing)} files of the checkout: {missing[:10]}"
print(f"  all {len(wanted)} files of tf1compat/ and modern/ are in the wheel")
PY
step tf1compat doctor
grep -q "tf1compat" "$work/out.txt"
cat > "$work/contrib_session.py" <<'PY'
import numpy as np
import tensorflow as tf
slim = tf.contrib.slim
x = tf.placeholder(tf.float32, [None, 3])
y = tf.contrib.layers.fully_connected(x, 2, weights_initializer=tf.ones_initializer())
config = tf.ConfigProto(allow_soft_placement=True)
config.gpu_options.allow_growth = True
with tf.Session(config=config) as sess:
    sess.run(tf.global_variables_initializer())
    print("sum", float(sess.run(tf.reduce_sum(y), {x: np.ones((2, 3))})))
PY
step tf1compat run "$work/contrib_session.py"
grep -q "^sum 12.0$" "$work/out.txt" || { cat "$work/out.txt"; exit 1; }
step tf1compat migrate --diff "$work/contrib_session.py"
grep -q "tf1compat" "$work/out.txt"
cp -r "$checkout/examples" "$work/examples"
step tf1compat compare --examples "$work/examples" --only session_options --size small
step python -m tf1compat.census --report
grep -q "^census: .* TensorFlow names in" "$work/out.txt"
step python -c "
import tensorflow as tf
from tf1compat import hdfs
assert hdfs.ensure_registered(), hdfs.plugin_status()
assert hdfs.plugin_status()['path'].startswith('$site'), hdfs.plugin_status()
print('  hdfs:// plugin', hdfs.plugin_status()['plugin_version'])"
echo "wheel smoke: 8 passed, 0 failed"
