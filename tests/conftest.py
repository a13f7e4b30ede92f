import os
import sys
from pathlib import Path

# TensorFlow's native start-up messages add nothing to test output.
os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
sys.path.insert(0, str(Path(__file__).resolve().parent))
