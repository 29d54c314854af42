"""Cutting each user's events into sessions."""
from sesslib import GAP


def by_time(evs):
    """Insertion sort by timestamp (stable: equal seconds keep their row order)."""
    evs = list(evs)
    for i in range(1, len(evs)):
        j = i
        while j > 0 and evs[j - 1][1] > evs[j][1]:
            evs[j - 1], evs[j] = evs[j], evs[j - 1]
            j -= 1
    return evs


def top_event(grp):
    counts = {}
    for e in grp:
        counts[e[2]] = counts.get(e[2], 0) + 1
    return max(sorted(counts), key=lambda name: counts[name]), len(counts)


def sessionize(events):
    """Sessions (dicts) of every user, users in sorted order, each user's numbered from 1."""
    users = sorted(set(e[0] for e in events))
    sessions = []
    for u in users:
        evs = by_time([e for e in events if e[0] == u])
        cur = []
        groups = []
        for e in evs:
            if cur and e[1] - cur[-1][1] > GAP:
                groups.append(cur)
                cur = []
            cur.append(e)
        if cur:
            groups.append(cur)
        for k, grp in enumerate(groups):
            top, distinct = top_event(grp)
            sessions.append(dict(user=u, session=k + 1, start=grp[0][1], end=grp[-1][1],
                                 duration=grp[-1][1] - grp[0][1], n_events=len(grp),
                                 distinct_events=distinct, top_event=top))
    return users, sessions
