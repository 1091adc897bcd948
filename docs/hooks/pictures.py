"""The pictures of the documentation, made again before the pages are read whenever what they show has changed
(docs/gen/pictures.py), so that the site never shows an old board or page. BORABORA_DOCS_PICTURES=keep leaves
them as they are (the tests build the site so, to change nothing in the tree)."""

from __future__ import annotations

import importlib.util
import logging
import os
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig

SCRIPT = Path(__file__).resolve().parents[1] / "gen" / "pictures.py"
log = logging.getLogger("mkdocs.hooks.pictures")


def on_pre_build(config: MkDocsConfig) -> None:
    if os.environ.get("BORABORA_DOCS_PICTURES") == "keep":
        return
    spec = importlib.util.spec_from_file_location("docs_pictures", SCRIPT)
    assert spec is not None and spec.loader is not None
    pictures = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = pictures               # dataclasses look their module up there
    spec.loader.exec_module(pictures)
    pictures.refresh(log.info)
