"""``python -m sotalib``: run the command line (the same as the ``sotalib`` command)."""

import sys

from .cli import main

sys.exit(main())
