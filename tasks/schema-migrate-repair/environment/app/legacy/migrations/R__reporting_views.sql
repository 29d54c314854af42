DROP VIEW IF EXISTS v_open_orders;
CREATE VIEW v_open_orders AS SELECT o.id, c.name, o.amount_cents FROM orders o JOIN customers c ON c.id = o.customer_id
  WHERE o.status = 'open';
