"""How much is a priest worth, by round? Runs the study and writes reports/priest/priest_report.md.

    python analysis/priest.py                 # default size
    python analysis/priest.py --size full

The same as `borabora analyze priest`; the study itself is borabora_sim.games.bora_bora.priest_study.
"""

import sys

from borabora_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["analyze", "priest", "--out", "reports/priest", *sys.argv[1:]]))
