"""``python -m tcpsim`` is the ``tcpsim`` command."""

import sys

from .cli import main

sys.exit(main())
