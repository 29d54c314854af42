"""loanbook: loan agreements (plain text) -> instalment schedules and summaries."""
