"""Repository files in the site. The guides in docs/ link to files beside docs/ with relative links
(`../benchmarks/README.md`) that work when the repository is read as it is; this hook makes the same links work in
the site:

- the Markdown files of `PAGES` (the benchmark tables) become pages of the site, read when the site is built;
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

PAGES = {"benchmarks/README.md": "benchmarks/engine.md", "benchmarks/README_players.md": "benchmarks/players.md"}
COPIES = "repository"
LINK = re.compile(r"\]\((?P<target>[^)\s#:]+)(?P<anchor>#[^)\s]*)?\)")


def _root(config: MkDocsConfig) -> Path:
    return Path(config.config_file_path).resolve().parent


def _repository_file(config: MkDocsConfig, page_uri: str, target: str) -> str | None:
    """The path in the repository of a link `target` of the page `page_uri` that leaves the docs directory to an
    existing file of the repository, else None."""
    docs = Path(config.docs_dir).resolve()
    path = (docs / posixpath.dirname(page_uri) / target).resolve()
    root = _root(config)
    if path.is_relative_to(docs) or not path.is_relative_to(root) or not path.is_file():
        return None
    return path.relative_to(root).as_posix()


def _site_uri(repository_path: str) -> str:
    return PAGES.get(repository_path, f"{COPIES}/{repository_path}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = _root(config)
    for source, page in PAGES.items():
        files.append(File.generated(config, page, content=(root / source).read_text(encoding="utf-8")))
    for file in list(files.documentation_pages()):
        if file.generated_by is not None:
            continue
        for link in LINK.finditer(file.content_string):
            found = _repository_file(config, file.src_uri, link["target"])
            if found is not None and found not in PAGES and files.get_file_from_path(_site_uri(found)) is None:
                files.append(File.generated(config, _site_uri(found), abs_src_path=str(root / found)))
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files) -> str:
    def point(link: re.Match[str]) -> str:
        found = _repository_file(config, page.file.src_uri, link["target"])
        if found is None:
            return link[0]
        target = posixpath.relpath(_site_uri(found), posixpath.dirname(page.file.src_uri) or ".")
        return f"]({target}{link['anchor'] or ''})"

    return LINK.sub(point, markdown)
