"""How much is a priest worth, by round? Asks the built-in question and writes reports/priest/report.md.

    python analysis/priest.py                 # default size
    python analysis/priest.py --size full

The same as `borabora analyze priest`; the question is the file
borabora_sim/games/bora_bora/questions/priest.toml (`borabora ask priest`).
"""

import sys

from borabora_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["analyze", "priest", "--out", "reports/priest", *sys.argv[1:]]))
