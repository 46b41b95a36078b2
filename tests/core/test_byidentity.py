"""ByIdentity: one value per live object, by identity, bounded."""

from slipstream.engine.core.byidentity import ByIdentity


def test_one_value_per_object_by_identity_and_bounded() -> None:
    made: list[list[int]] = []
    cache: ByIdentity[list[int], int] = ByIdentity(lambda obj: made.append(obj) or len(made), limit=3)
    a, b = [1], [1]  # equal, not the same object
    assert cache.get(a) == 1 and cache.get(a) == 1
    assert cache.get(b) == 2 and made == [a, b]
    cache.get([2])
    assert len(cache) == 3
    cache.get([3])  # past the limit: starts over, then holds the new one only
    assert len(cache) == 1
    assert cache.get(a) == 5  # made again
    cache.clear()
    assert len(cache) == 0
