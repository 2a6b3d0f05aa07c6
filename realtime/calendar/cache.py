"""Rendered calendar feeds, one per counselor, kept while what they show is unchanged.

Rendering is CPU work (icalendar takes about a millisecond per event, and a busy counselor
has a thousand in the window), so a feed is rendered again only when its fingerprint
(realtime/calendar/feed.py `fingerprint`: the rows it lists and the names it shows) changes,
and then in a worker thread, so the event loop keeps serving sockets meanwhile. Each process
keeps at most MAX_FEEDS feeds, dropping the least recently used; nothing is shared between
nodes (a node renders a feed once per change).
"""

from collections import OrderedDict
from dataclasses import dataclass

MAX_FEEDS = 512


@dataclass(frozen=True)
class RenderedFeed:
    fingerprint: str
    body: bytes


class FeedCache:
    def __init__(self, size: int = MAX_FEEDS) -> None:
        self._size = size
        self._feeds: OrderedDict[str, RenderedFeed] = OrderedDict()

    def get(self, counselor_id: str, fingerprint: str) -> RenderedFeed | None:
        """The counselor's feed as rendered for this fingerprint, if kept."""
        found = self._feeds.get(counselor_id)
        if found is None or found.fingerprint != fingerprint:
            return None
        self._feeds.move_to_end(counselor_id)
        return found

    def put(self, counselor_id: str, feed: RenderedFeed) -> None:
        self._feeds[counselor_id] = feed
        self._feeds.move_to_end(counselor_id)
        while len(self._feeds) > self._size:
            self._feeds.popitem(last=False)
