-- every customer gets a region from its city
ALTER TABLE customers ADD COLUMN region TEXT;
UPDATE customers SET region = CASE WHEN city IN ('Porto', 'Nice', 'Bari') THEN 'C' ELSE 'N' END;
