"""Lets the Pipe Mania test modules import their shared helpers (``pipemania_helpers``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
