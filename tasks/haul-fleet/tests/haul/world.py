"""Seeded world generation for the haul engine: terrain, mines, trucks, prices and the event schedule."""
import random

KINDS = ("A", "B", "C")
MODES = ("plain", "fleet", "market", "closures")


def _reachable(grid, start):
    h, w = len(grid), len(grid[0])
    seen, todo = {start}, [start]
    while todo:
        x, y = todo.pop()
        for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
            nx, ny = x + dx, y + dy
            if 0 <= nx < w and 0 <= ny < h and grid[ny][nx] != "#" and (nx, ny) not in seen:
                seen.add((nx, ny))
                todo.append((nx, ny))
    return seen


def _terrain(rng, mode):
    """Size, terrain, depot and mine cells; None when too few open cells are reachable for the mines."""
    w, h = rng.randint(14, 20), rng.randint(14, 20)
    grid = [["." for _ in range(w)] for _ in range(h)]
    # Rock ridges: short straight walls.
    for _ in range(rng.randint(4, 8)):
        x, y = rng.randrange(w), rng.randrange(h)
        dx, dy = rng.choice(((1, 0), (0, 1)))
        for _ in range(rng.randint(3, 8)):
            if 0 <= x < w and 0 <= y < h:
                grid[y][x] = "#"
            x, y = x + dx, y + dy
    # Mud fields: blobs grown from random seeds.
    for _ in range(rng.randint(5, 9)):
        x, y = rng.randrange(w), rng.randrange(h)
        for _ in range(rng.randint(6, 20)):
            if 0 <= x < w and 0 <= y < h and grid[y][x] == ".":
                grid[y][x] = "~"
            x = min(w - 1, max(0, x + rng.choice((-1, 0, 1))))
            y = min(h - 1, max(0, y + rng.choice((-1, 0, 1))))
    depot = (rng.randrange(2, w - 2), rng.randrange(2, h - 2))
    grid[depot[1]][depot[0]] = "."
    reach = _reachable(grid, depot)
    ground = sorted(c for c in reach if grid[c[1]][c[0]] == "." and abs(c[0] - depot[0]) + abs(c[1] - depot[1]) >= 4)
    n_mines = rng.randint(5, 8) if mode != "fleet" else rng.randint(10, 14)
    if len(ground) < n_mines:
        return None
    return w, h, grid, depot, rng.sample(ground, n_mines), n_mines


def generate(mode, seed):
    """The whole game description for (mode, seed) as a plain dict."""
    if mode not in MODES:
        raise ValueError("unknown mode %r" % mode)
    # A depot walled in by ridges and mud can leave fewer open cells than mines: such a map is
    # drawn again from a seed of its own, so every (mode, seed) has a world and the maps that were
    # fine stay exactly as they were.
    attempt = 0
    while True:
        rng = random.Random("haul/%s/%s" % (mode, seed) if attempt == 0 else "haul/%s/%s/%d" % (mode, seed, attempt))
        drawn = _terrain(rng, mode)
        if drawn is not None:
            break
        attempt += 1
    w, h, grid, depot, cells, n_mines = drawn
    mines = []
    kinds = [KINDS[i % 3] for i in range(n_mines)] if mode == "market" else None
    for i, (x, y) in enumerate(cells):
        kind = kinds[i] if kinds else rng.choice(KINDS)
        amount = rng.randint(40, 140) if mode != "fleet" else rng.randint(10, 30)
        mines.append(dict(id=i, x=x, y=y, kind=kind, amount=amount, rate=rng.randint(2, 6)))
    n_trucks = {"plain": 1, "market": 1, "closures": 2, "fleet": 4}[mode]
    trucks = [dict(id=i, x=depot[0], y=depot[1]) for i in range(n_trucks)]
    prices = {"A": rng.randint(2, 4), "B": rng.randint(3, 6), "C": rng.randint(5, 8)}
    turns = rng.randint(150, 200)
    events = []
    if mode == "market":
        for k in KINDS:
            t = rng.randint(5, 30)
            while t < turns:
                # Booms and slumps: a kind is either nearly worthless or dear for a while.
                value = rng.randint(1, 3) if rng.random() < 0.5 else rng.randint(9, 16)
                events.append(dict(type="PRICE", t=t, kind=k, value=value))
                t += rng.randint(15, 40)
    if mode == "closures":
        # The richest mines close for long stretches, and the depot closes a few times.
        ranked = sorted(mines, key=lambda m: -prices[m["kind"]] * m["rate"])
        for m in ranked[:4]:
            t0 = rng.randint(0, turns - 100)
            events.append(dict(type="MINECLOSED", t0=t0, t1=t0 + rng.randint(50, 100), id=m["id"]))
        for _ in range(rng.randint(3, 4)):
            t0 = rng.randint(10, turns - 30)
            events.append(dict(type="DEPOTCLOSED", t0=t0, t1=t0 + rng.randint(10, 25)))
    events.sort(key=lambda e: (e.get("t", e.get("t0")), e["type"]))
    return dict(mode=mode, seed=str(seed), width=w, height=h, rows=["".join(r) for r in grid], depot=depot,
                capacity=rng.randint(12, 20), turns=turns, prices=prices, mines=mines, trucks=trucks, events=events)
