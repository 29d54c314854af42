ALTER TABLE orders ADD COLUMN sku TEXT REFERENCES products (sku);
