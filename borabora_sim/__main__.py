import sys

from borabora_sim.cli import main

sys.exit(main())
