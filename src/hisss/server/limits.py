"""Rate limits: token buckets, per websocket connection and per HTTP client address.

A bucket holds up to ``burst`` tokens and refills at ``rate`` tokens a second; each message or
request takes one. The buckets of HTTP clients are kept for the most recently seen addresses only
(:class:`ClientBuckets`), so their memory is bounded; losing them (a restart) only forgives.

>>> bucket = Bucket(2, 0.0)
>>> bucket.take(), bucket.take(), bucket.take()
(True, True, False)
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class Bucket:
    """A token bucket: ``burst`` takes at once, refilled at ``rate`` per second."""

    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")

    def __init__(
        self, burst: int, rate: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.clock = clock
        self.tokens = float(burst)
        self.stamp = clock()

    def take(self) -> bool:
        """Take a token; False (taking nothing) when the bucket is empty."""
        now = self.clock()
        self.tokens = min(float(self.burst), self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class ClientBuckets:
    """One bucket per client address, for the ``size`` most recently seen addresses."""

    def __init__(
        self,
        burst: int,
        rate: float,
        size: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.burst = burst
        self.rate = rate
        self.size = size
        self.clock = clock
        self._buckets: OrderedDict[str, Bucket] = OrderedDict()

    def take(self, client: str) -> bool:
        """Take a token from ``client``'s bucket."""
        bucket = self._buckets.get(client)
        if bucket is None:
            bucket = self._buckets[client] = Bucket(self.burst, self.rate, self.clock)
            if len(self._buckets) > self.size:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(client)
        return bucket.take()
