"""`python -m patience` is the `patience` command."""

import sys

from patience.cli import main

sys.exit(main())
