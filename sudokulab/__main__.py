"""`python -m sudokulab`: the same as the `sudokulab` command."""

import sys

from sudokulab.cli import main

sys.exit(main())
