INSERT INTO orders SELECT * FROM orders_archive;
DROP TABLE orders_archive;
