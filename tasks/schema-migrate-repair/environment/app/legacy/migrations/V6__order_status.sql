ALTER TABLE orders ADD COLUMN status TEXT NOT NULL DEFAULT 'open';
UPDATE orders SET status = 'closed' WHERE placed_on < '2025-03-01';
