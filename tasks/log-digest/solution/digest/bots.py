"""Automated clients (docs/DIGEST.md §5): excluded from the endpoints, counted apart."""

BOT_WORDS = ("bot", "crawl", "spider", "slurp")


def is_bot(user_agent):
    ua = (user_agent or "").lower()
    return any(w in ua for w in BOT_WORDS)
