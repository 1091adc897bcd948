"""Repository files in the site. The guides in docs/ link to files beside docs/ with relative links
(`../benchmarks/README.md`) that work when the repository is read as it is; this hook makes the same links work in
the site:

- the Markdown files of `PAGES` (the benchmark tables, the question reports) become pages of the site, read when
  the site is built; their own relative links are read from where they lie in the repository;
- a link that leaves docs/ for one of those files is pointed at its page, a link to any other file of the
  repository at a copy of that file published with the site (under `repository/`).

A link to a file that does not exist is left as it is, so that the strict build reports it."""

from __future__ import annotations

import posixpath
import re
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

ROOT = Path(__file__).resolve().parents[2]
PAGES = {"benchmarks/README.md": "benchmarks/engine.md", "benchmarks/README_players.md": "benchmarks/players.md",
         "benchmarks/README_ladder.md": "benchmarks/ladder.md",
         # the reports of the answered questions (the Strategy atlas links them)
         **{f"analysis/results/{path.parent.name}/report.md": f"atlas/{path.parent.name}.md"
            for path in sorted((ROOT / "analysis" / "results").glob("*/report.md"))}}
SOURCES = {page: source for source, page in PAGES.items()}
COPIES = "repository"
LINK = re.compile(r"\]\((?P<target>[^)\s#:]+)(?P<anchor>#[^)\s]*)?\)")


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _site_target(config: MkDocsConfig, page_uri: str, target: str) -> str | None:
    """Where in the site the link `target` of the page `page_uri` leads when it needs pointing (None: it does
    not): a repository file outside docs/ (its page, or its published copy), or a page of docs/ linked from a page
    made from a repository file."""
    root, docs = _root(config), Path(config.docs_dir).resolve()
    source = SOURCES.get(page_uri)
    base = (root / source).parent if source is not None else docs / posixpath.dirname(page_uri)
    path = (base / target).resolve()
    if path.is_relative_to(docs):
        return path.relative_to(docs).as_posix() if source is not None else None
    if not path.is_relative_to(root) or not path.is_file():
        return None
    found = path.relative_to(root).as_posix()
    return PAGES.get(found, f"{COPIES}/{found}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = _root(config)
    for source, page in PAGES.items():
        files.append(File.generated(config, page, content=(root / source).read_text(encoding="utf-8")))
    for file in list(files.documentation_pages()):
        for link in LINK.finditer(file.content_string):
            uri = _site_target(config, file.src_uri, link["target"])
            if uri is not None and uri.startswith(f"{COPIES}/") and files.get_file_from_path(uri) is None:
                files.append(File.generated(config, uri, abs_src_path=str(root / uri.removeprefix(f"{COPIES}/"))))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    def point(link: re.Match[str]) -> str:
        uri = _site_target(config, page.file.src_uri, link["target"])
        if uri is None:
            return link[0]
        return f"]({posixpath.relpath(uri, posixpath.dirname(page.file.src_uri) or '.')}{link['anchor'] or ''})"

    return LINK.sub(point, markdown)
