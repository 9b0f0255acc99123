"""Lets the Trax test modules import their shared helpers (``trax_helpers``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
