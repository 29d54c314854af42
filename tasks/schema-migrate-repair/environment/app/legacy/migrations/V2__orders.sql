CREATE TABLE orders (
  id INTEGER PRIMARY KEY,
  customer_id INTEGER NOT NULL REFERENCES customers (id),
  amount_cents INTEGER NOT NULL,
  placed_on TEXT NOT NULL
);
