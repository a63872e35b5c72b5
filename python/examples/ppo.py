#!/usr/bin/env python3
"""PPO against a botarena game's reference bot: the example trainer.

The trainer is botarena.train (python/src/botarena/train/), importable as a
library; this file is its command line, so that

    python python/examples/ppo.py --game battlebots --minutes 10

and ``python -m botarena.train`` (and ``make train``) are the same program;
``--self-play`` trains against a league of its own snapshots and the
reference bots (see botarena.train).
Needs the training extras: ``pip install -e 'python[train]'`` (``make train-venv``).
"""

import sys

from botarena.train import main

if __name__ == "__main__":
    sys.exit(main())
