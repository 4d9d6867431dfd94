"""``python -m bgpi.cli``, the same as the ``bgpi`` command."""

import sys

from bgpi.cli import main

sys.exit(main())
