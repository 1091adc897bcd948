"""What is each Spirit of the Forest worth, and are the fallbacks ever the best choice? (Bamboo) Asks the built-in
question and writes reports/spirits/report.md.

    python analysis/spirits.py                 # default size: under 10 minutes on 2 cores
    python analysis/spirits.py --size full     # a real answer (hours)

The same as `borabora analyze spirits`; the question is the file
borabora_sim/games/bamboo/questions/spirits.toml (`borabora ask spirits`).
"""

import sys

from borabora_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["analyze", "spirits", "--out", "reports/spirits", *sys.argv[1:]]))
