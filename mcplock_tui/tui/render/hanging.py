"""A row that wraps under its own text: the lead (badge, marks) on the first line only.

``  MED  ○ →tool list_pull_request_files`` in a narrow navigator wraps as::

      MED  ○ →tool list_pull_reques
                   t_files

not back to the first column, where a continued name reads as a row of its own.
"""

from __future__ import annotations

from textual.content import Content
from textual.css.styles import RulesMap
from textual.strip import Strip
from textual.style import Style
from textual.visual import RenderOptions, Visual

MIN_BODY = 12
"""Narrower than this, the body is not worth a column of its own: the row wraps whole."""


class Hanging(Visual):
    """``lead`` then ``body``, the body's wrapped lines indented by the lead's width."""

    def __init__(self, lead: Content, body: Content) -> None:
        self.lead, self.body = lead, body
        self._whole = Content.assemble(lead, body)

    def __str__(self) -> str:
        return str(self._whole)

    def _indent(self, width: int) -> int:
        indent = self.lead.cell_length
        return indent if width - indent >= MIN_BODY else 0

    def get_optimal_width(self, rules: RulesMap, container_width: int) -> int:
        return self._whole.cell_length

    def get_height(self, rules: RulesMap, width: int) -> int:
        indent = self._indent(width)
        if not indent:
            return self._whole.get_height(rules, width)
        return self.body.get_height(rules, width - indent)

    def render_strips(
        self, width: int, height: int | None, style: Style, options: RenderOptions
    ) -> list[Strip]:
        indent = self._indent(width)
        if not indent:
            return self._whole.render_strips(width, height, style, options)
        lead = self.lead.render_strips(indent, 1, style, options)[:1]
        body = self.body.render_strips(width - indent, height, style, options)
        rich = style.rich_style
        blank = Strip.blank(indent, rich)
        return [
            Strip.join([(lead[0] if i == 0 and lead else blank).crop_extend(0, indent, rich), line])
            for i, line in enumerate(body)
        ]
