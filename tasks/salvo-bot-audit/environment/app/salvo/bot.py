"""The house bot: sweeps the board in reading order. Legal, and slow to find anything."""


def play(rules, client):
    order = [c for c in rules.cells() if c not in rules.blocked]
    todo = list(order)
    while True:
        event = client.next_event()
        if event[0] == "end":
            return event[1]
        if event[0] == "game":
            todo = list(order)
        elif event[0] == "turn":
            shots, todo = todo[: event[2]], todo[event[2]:]
            client.fire(shots)
