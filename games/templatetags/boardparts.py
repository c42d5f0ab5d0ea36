"""``{% part "name" %}…{% endpart %}``: a part of a board fragment that a socket may send alone.

Written inside the part's own partial (``part-<name>`` in games/table.html): it renders its content
and, when the render was asked for its parts (``games.board.fragments``), records that markup under
its name, so the fragment's parts come from the one render of the fragment, by name: nothing is
searched for in the rendered HTML.
"""

from __future__ import annotations

from django import template

register = template.Library()

SINK = "drawn_parts"  # the context's dict the parts are recorded in, when there is one


class PartNode(template.Node):
    def __init__(self, name: str, nodelist):
        self.name = name
        self.nodelist = nodelist

    def render(self, context) -> str:
        html = self.nodelist.render(context)
        sink = context.get(SINK)
        if sink is not None:
            sink[self.name] = html
        return html


@register.tag(name="part")
def part(parser, token):
    bits = token.split_contents()
    if len(bits) != 2 or bits[1][0] not in "\"'" or bits[1][0] != bits[1][-1]:
        raise template.TemplateSyntaxError('{% part "name" %} takes the part\'s name, quoted')
    nodelist = parser.parse(("endpart",))
    parser.delete_first_token()
    return PartNode(bits[1][1:-1], nodelist)
