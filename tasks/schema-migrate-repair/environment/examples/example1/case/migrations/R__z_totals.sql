DROP VIEW IF EXISTS v_z_totals;
CREATE VIEW v_z_totals AS SELECT 'z_totals:1' AS g;
INSERT INTO trace (tag) VALUES ('R:z_totals:1');
