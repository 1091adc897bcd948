"""Is the fishing space ever worth it? Asks the built-in question and writes reports/fishing/report.md.

    python analysis/fishing.py                 # default size: under 10 minutes on 2 cores
    python analysis/fishing.py --size full     # a real answer (hours)

The same as `borabora analyze fishing`; the question is the file
borabora_sim/games/bora_bora/questions/fishing.toml (`borabora ask fishing`).
"""

import sys

from borabora_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["analyze", "fishing", "--out", "reports/fishing", *sys.argv[1:]]))
