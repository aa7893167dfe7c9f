"""The game service's tasks and time functions seen from one kind of match, for the tests
written against a kind's own ids (``battle_tasks.bot_move(b.pk, seq)`` is
``play.tasks.bot_move("battle", b.pk, seq)``). Every call goes to the real ``play`` code."""

from __future__ import annotations

from play import enqueue, registry, tasks, turns


class KindTasks:
    def __init__(self, kind: str) -> None:
        self.kind = kind

    @property
    def binding(self):
        return registry.get(self.kind)

    def bot_move(self, match_id: int, seq: int) -> int:
        return tasks.bot_move(self.kind, match_id, seq)

    def flag_fall(self, match_id: int, seq: int | None = None) -> bool:
        if seq is None:
            return turns.flag_fall(self.binding, match_id)
        return tasks.flag_fall(self.kind, match_id, seq)

    def tick(self) -> list[tuple[int, int]]:
        """The beat's tick (every kind); the turns of this kind it sent again."""
        return [(pk, seq) for kind, pk, seq in tasks.tick() if kind == self.kind]

    def stalled_computer_turns(self, now=None, grace_seconds: float = 5.0):
        return turns.stalled_computer_turns(self.binding, now, grace_seconds)

    def overdue_flags(self, now=None):
        return turns.overdue_flags(self.binding, now)

    def expire_waiting(self, now=None):
        return turns.expire_waiting(self.binding, now)

    def patch(self, monkeypatch, name: str, fn) -> None:
        """Replace ``play.enqueue.<name>`` (``send_bot_move``, ``send_flag_fall``) for this
        kind with ``fn`` taking the old arguments (id, seq[, eta]); other kinds' sends are
        dropped (no broker in these tests)."""
        monkeypatch.setattr(enqueue, name,
                            lambda kind, *args: fn(*args) if kind == self.kind else None)


battle_tasks = KindTasks("battle")
campaign_tasks = KindTasks("campaign")
