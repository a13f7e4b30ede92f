"""Towers and strategies, measured in one run: 1 versus 2 devices.

    python benchmarks/towers.py [--size 1024] [--steps 50]

On 2 GPUs it uses them; otherwise two logical CPUs, which share the same
cores, so a ratio near 1.0x (or below) is the honest result there: the figure
shows the overhead of splitting, not a speed-up. Each measurement runs in its
own process (device setup is fixed per process).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

MATMUL = """
import json, time, numpy as np
from modern import devices, towers
import tensorflow as tf
gpus = len(tf.config.list_physical_devices("GPU"))
if gpus < 2:
    devices.split_cpu(2)
kind = "gpu" if gpus >= 2 else "cpu"
a = tf.constant(np.random.default_rng(0).normal(size=({size}, {size})).astype(np.float32))
result = {{"kind": kind}}
for count in (1, 2):
    names = [f"/{{kind}}:{{i}}" for i in range(count)]
    # the same total work: 2 products, on 1 device or spread over 2
    work = names * (2 // count)
    towers.matmul_towers(a, a, work).numpy()  # trace and warm up
    start = time.perf_counter()
    for _ in range({steps}):
        towers.matmul_towers(a, a, work).numpy()
    result[f"{{count}}"] = (time.perf_counter() - start) / {steps}
print(json.dumps(result))
"""

TRAINING = """
import json, time
from examples import common, mlp
settings = common.Settings("full", epochs={epochs})
if "{way}" == "baseline":
    run = lambda: mlp.train_baseline(settings)
elif "{way}" == "mirrored_fit":
    strategy = mlp.two_device_strategy("mirrored")
    run = lambda: mlp.train_fit(settings, strategy)
elif "{way}" == "custom_loop":
    strategy = mlp.two_device_strategy("mirrored")
    run = lambda: mlp.train_custom(settings, strategy)
else:
    run = lambda: mlp.train_tf1(settings, towers_count=2)
import tensorflow
start = time.perf_counter()
run()
x_train = mlp.load(settings)[0]
steps = (len(x_train) // mlp.GLOBAL_BATCH) * {epochs}
print(json.dumps({{"step_ms": (time.perf_counter() - start) / steps * 1e3}}))
"""


def _child(code: str) -> dict:
    env = dict(os.environ, PYTHONPATH=str(ROOT), TF_CPP_MIN_LOG_LEVEL="2")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=str(ROOT), check=False)
    if done.returncode != 0:
        raise SystemExit(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, default=1024)
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--epochs", type=int, default=3)
    args = parser.parse_args()

    matmul = _child(MATMUL.format(size=args.size, steps=args.steps))
    kind = matmul["kind"].upper()
    print(f"tower matmul, 2 products of {args.size}x{args.size} per step, on logical {kind}s")
    print(f"  1 device   {matmul['1'] * 1e3:8.2f} ms/step")
    print(f"  2 devices  {matmul['2'] * 1e3:8.2f} ms/step")
    print(f"  speed-up 2 vs 1 devices: {matmul['1'] / matmul['2']:.2f}x")

    print(f"\ntraining step time, digits MLP, global batch 64, {args.epochs} epochs")
    ways = {"baseline": "TF2 baseline loop, 1 device",
            "mirrored_fit": "TF2 Keras fit, MirroredStrategy x2",
            "custom_loop": "TF2 custom loop, MirroredStrategy x2",
            "tf1_towers": "TF1 session, 2 towers"}
    times = {way: _child(TRAINING.format(way=way, epochs=args.epochs))["step_ms"]
             for way in ways}
    for way, label in ways.items():
        print(f"  {label:<40} {times[way]:7.2f} ms/step  "
              f"({times[way] / times['baseline']:.2f}x baseline)")


if __name__ == "__main__":
    main()
