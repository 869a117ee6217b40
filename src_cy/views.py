"""What the typed player views share (pure Python, like the view types).

Every engine's ``player_view(player)`` returns a frozen dataclass of the
player's information (``GoldThiefView``, ``ArdillasView``, ``SaboteurView``,
``GoldNuggetView``).  Views that were dicts before they were typed keep
``view["field"]``, ``view.get("field")`` and ``"field" in view`` through
:class:`ItemAccess`, so
code written against the dicts reads the typed view unchanged.
"""
from __future__ import annotations

from typing import Any


class ItemAccess:
    """``view["name"]`` and ``view.get("name", default)`` for a view's fields."""

    __slots__ = ()

    def __getitem__(self, name: str) -> Any:
        if name not in self.__dataclass_fields__:  # type: ignore[attr-defined]
            raise KeyError(name)
        return getattr(self, name)

    def __contains__(self, name: object) -> bool:
        return name in self.__dataclass_fields__  # type: ignore[attr-defined]

    def get(self, name: str, default: Any = None) -> Any:
        """The field ``name``, or ``default`` when the view has no such field."""
        return getattr(self, name) if name in self.__dataclass_fields__ else default  # type: ignore[attr-defined]

    def keys(self) -> list[str]:
        """The field names, in declaration order."""
        return list(self.__dataclass_fields__)  # type: ignore[attr-defined]
