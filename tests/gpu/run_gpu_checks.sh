#!/usr/bin/env bash
# Runs the GPU-only checks alone, verbosely: `bash tests/gpu/run_gpu_checks.sh`.
# Needs the project installed (python3 -m pip install -e '.[test]') and an NVIDIA GPU.
set -uo pipefail
cd "$(dirname "$0")/../.."
nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv || true
python3 -m pytest tests/gpu -v -p no:cacheprovider -o addopts="" "$@"
