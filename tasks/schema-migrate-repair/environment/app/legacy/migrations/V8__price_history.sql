CREATE TABLE price_history (sku TEXT NOT NULL, price_cents INTEGER NOT NULL, since TEXT NOT NULL);
INSERT INTO price_history SELECT sku, price_cents, '2025-01-01' FROM products;
