"""HTML pages of analyses: self-contained pages rendered from the Jinja2 templates in
``report/templates``."""

from .audit import audit_html
from .match import match_html

__all__ = ["audit_html", "match_html"]
