CREATE TABLE region_totals (region TEXT PRIMARY KEY, customers INTEGER NOT NULL, total_cents INTEGER NOT NULL);
INSERT INTO region_totals
  SELECT c.region, count(*), coalesce(sum(t.total_cents), 0)
  FROM customers c LEFT JOIN customer_totals t ON t.customer_id = c.id GROUP BY c.region;
