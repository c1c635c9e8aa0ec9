"""A stand-in for a killed tournament: an `on_game` hook that raises after N stored games."""


class Interrupted(Exception):
    pass


def stop_after(count: int):
    """An on_game callback raising Interrupted once `count` games have been stored."""
    seen = []

    def on_game(row):
        seen.append(row)
        if len(seen) == count:
            raise Interrupted

    return on_game
