"""``python -m botarena.train``: see :mod:`botarena.train.cli`."""

import sys

from botarena.train.cli import main

if __name__ == "__main__":
    sys.exit(main())
