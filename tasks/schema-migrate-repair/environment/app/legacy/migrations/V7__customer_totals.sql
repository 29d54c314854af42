CREATE TABLE customer_totals (
  customer_id INTEGER PRIMARY KEY,
  orders INTEGER NOT NULL,
  total_cents INTEGER NOT NULL
);
INSERT INTO customer_totals (customer_id, orders, total_cents)
  SELECT customer_id, count(*), sum(amount_cents) FROM orders GROUP BY customer_id;
