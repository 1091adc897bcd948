"""What is each Spirit of the Forest worth, and are the fallbacks of Balance and Improve ever best? (Bamboo)
Runs the study and writes reports/spirits/spirits_report.md.

    python analysis/spirits.py                 # default size (under 10 minutes on 2 cores)
    python analysis/spirits.py --size full

The same as `borabora analyze spirits`; the study itself is borabora_sim.games.bamboo.spirits_study.
"""

import sys

from borabora_sim.cli import main

if __name__ == "__main__":
    sys.exit(main(["analyze", "spirits", "--out", "reports/spirits", *sys.argv[1:]]))
