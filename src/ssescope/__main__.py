"""``python -m ssescope [FILE]``: the same as ``ssescope inspect [FILE]``."""

from __future__ import annotations

import sys

from .cli import main_module

if __name__ == "__main__":
    sys.exit(main_module())
