"""loanbook: loan agreements (plain text) -> instalment schedules, summaries and statement audits."""
