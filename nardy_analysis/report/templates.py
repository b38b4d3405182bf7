"""The Jinja2 templates of the HTML pages (``report/templates/*.j2``), autoescaped."""

from jinja2 import Environment, PackageLoader, StrictUndefined, Template

_ENVIRONMENT = Environment(loader=PackageLoader("nardy_analysis.report"), autoescape=True,
                           undefined=StrictUndefined, trim_blocks=True, lstrip_blocks=True)


def template(name: str) -> Template:
    """The template ``name`` of ``report/templates``; every value it shows is HTML-escaped."""
    return _ENVIRONMENT.get_template(name)
