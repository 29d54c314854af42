"""arrecon: accounts-receivable close for the finance team (statements, matching, FX, allocation, aging)."""
