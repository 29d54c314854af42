"""Source of the client probe. The grader runs it sealed as `python3 -c`, in /app, with the hidden
setup text on stdin: it exercises /app/client.py and prints what the library understood."""
PROBE = r'''
import json, sys
sys.path.insert(0, "/app")
import client
q = json.loads(sys.argv[1])
conn = client.Connection()
game = conn.read_setup()
turn = conn.read_turn()
out = {
    "mines": {str(i): [m.x, m.y, m.kind, m.amount, m.rate] for i, m in game.mines.items()},
    "steps": {d: list(client.step(q["at"][0], q["at"][1], d)) for d in "NESW"},
    "prices": {k: [game.price(k, t) for t in q["price_turns"]] for k in "ABC"},
    "mine_closed": [bool(game.mine_closed(i, t)) for i, t in q["mine_queries"]],
    "depot_closed": [bool(game.depot_closed(t)) for t in q["depot_turns"]],
    "turn": [turn.turn, {str(i): [tr.x, tr.y, tr.busy, tr.load["A"], tr.load["B"], tr.load["C"]] for i, tr in turn.trucks.items()},
             {str(i): a for i, a in turn.amounts.items()}, turn.score],
}
print(json.dumps(out))
'''
