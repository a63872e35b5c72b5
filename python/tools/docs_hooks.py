"""MkDocs hooks of the docs site (mkdocs.yml names this file; run by ``mkdocs build`` in the docs venv).

- The navigation section ``Games``, whose first entry is
  ``gen/games/index.md``, gets every game page that
  python/tools/docs_pages.py wrote after that index, so that a new game needs
  no edit here or in mkdocs.yml.
- A link that leaves docs/ (``../python/README.md``, ``../policies/``) or
  names a folder (``training/``) names a part of the repository that the
  site does not hold as a page: it becomes the path in code
  (``python/README.md``, ``docs/training/``), and a link to the README
  becomes a link to the site's home page, the README itself. A path that
  does not exist is a warning (an error in strict mode). Other links are left
  to MkDocs, whose strict mode fails the build on a broken one.
- The Python package's docstrings cross-reference in reStructuredText
  (``:class:`Pool```); in the rendered API those roles are dropped, leaving
  the name in code.

Standard library only: the docs venv holds MkDocs and its plugins, not botarena.
"""

from __future__ import annotations

import logging
import posixpath
import re
from pathlib import Path
from typing import Any

_log = logging.getLogger("mkdocs.hooks.botarena")

_LINK = re.compile(r"(?<!!)\[([^\]\n]+)\]\(([^)\s]+)\)")


def on_config(config: Any) -> Any:
    """Expands the Games entry of the navigation into the generated game pages."""
    docs = Path(config["docs_dir"])
    games = sorted(p.name for p in (docs / "gen" / "games").glob("*.md") if p.name != "index.md")
    nav = config.get("nav") or []
    for item in nav:
        section = item.get("Games") if isinstance(item, dict) else None
        if isinstance(section, list) and section and section[0] == "gen/games/index.md":
            section[1:1] = [f"gen/games/{g}" for g in games]
    return config


def _repo_path(page_src: str, target: str) -> str | None:
    """Returns the repository path a relative link of the page leads to when it leaves docs/ or names a folder."""
    if re.match(r"^[a-z][a-z0-9+.-]*:|^#|^/", target):
        return None
    path = target.split("#", 1)[0]
    joined = posixpath.normpath(posixpath.join("docs", posixpath.dirname(page_src), path))
    if (joined == "docs" or joined.startswith("docs/")) and not path.endswith("/"):
        return None
    return joined + ("/" if path.endswith("/") else "")


def on_page_markdown(markdown: str, page: Any, config: Any, files: Any) -> str:
    """Rewrites the links of a page that leave docs/ or name a folder (outside fenced code blocks)."""
    src = page.file.src_uri
    depth = src.count("/")

    def rewrite(m: re.Match[str]) -> str:
        text, target = m.group(1), m.group(2)
        repo_path = _repo_path(src, target)
        if repo_path is None:
            return m.group(0)
        root = Path(config["docs_dir"]).parent
        if not (root / repo_path).exists():
            _log.warning("%s: link to %s: no such file or folder in the repository", src, repo_path)
        if repo_path == "README.md":
            return f"[{text}]({'../' * depth}gen/index.md)"
        if text.strip("`") == repo_path.rstrip("/") or text.strip("`") == repo_path:
            return f"`{repo_path}`"
        return f"{text} (`{repo_path}`)"

    parts = re.split(r"(^```.*?^```)", markdown, flags=re.M | re.S)
    return "".join(p if p.startswith("```") else _LINK.sub(rewrite, p) for p in parts)


_ROLE = re.compile(r":(?:py:)?(?:class|func|meth|mod|attr|data|exc|obj):(<code>)")


def on_page_content(html: str, page: Any, config: Any, files: Any) -> str:
    """Drops reStructuredText roles in front of code spans (what mkdocstrings leaves of ``:class:`X```)."""
    return _ROLE.sub(r"\1", html)
