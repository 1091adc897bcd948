"""Writes the page "How fast, how strong, what the studies found" (figures.md) from the results files of the runs,
when the site is built; the page itself is made by docs/gen/figures_page.py, which the tests call without mkdocs."""

from __future__ import annotations

import sys
from pathlib import Path

import mkdocs_gen_files

sys.path.insert(0, str(Path(__file__).resolve().parent))        # figures_page beside this script

from figures_page import figures_markdown

with mkdocs_gen_files.open("figures.md", "w") as page:
    page.write(figures_markdown())
