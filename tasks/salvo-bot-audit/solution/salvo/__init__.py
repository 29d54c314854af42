"""salvo: rules, placement bookkeeping and a referee client for a battleship-style game."""
