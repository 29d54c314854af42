DROP VIEW IF EXISTS v_views;
CREATE VIEW v_views AS SELECT 'views:2' AS g;
INSERT INTO trace (tag) VALUES ('R:views:2');
