CREATE TABLE orders_archive AS SELECT * FROM orders WHERE status = 'closed';
DELETE FROM orders WHERE status = 'closed';
