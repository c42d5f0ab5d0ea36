"""The puzzles in the admin: staff see them (kind, themes, source match, attempts and solves) and
may delete a bad one; nothing else is edited here (positions and solutions come from the engine)."""

from __future__ import annotations

from django.contrib import admin

from games.puzzles.models import Puzzle


@admin.register(Puzzle)
class PuzzleAdmin(admin.ModelAdmin):
    list_display = ["id", "kind", "variant", "match", "themes", "attempts", "solves", "created_at"]
    list_filter = ["kind", "variant"]
    search_fields = ["match__id", "themes"]
    fields = ["match", "kind", "variant", "seat", "round_number", "step", "themes", "attempts", "solves", "generator"]
    readonly_fields = fields

    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False
