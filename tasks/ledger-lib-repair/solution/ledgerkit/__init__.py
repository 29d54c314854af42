"""ledgerkit: a small double-entry ledger with multi-currency books and monthly periods.

Modules:
    money    -- exact decimal amounts, parsing and rounding
    journal  -- the plain-text journal format (parser)
    rates    -- the exchange-rate table (base units per unit of a currency)
    periods  -- calendar-month accounting periods
    book     -- loading a book folder and validating its transactions
    report   -- cumulative period balances
    revalue  -- period-end revaluation of foreign-currency balances
    audit    -- the list of rejected transactions
"""

__version__ = "0.4.0"
