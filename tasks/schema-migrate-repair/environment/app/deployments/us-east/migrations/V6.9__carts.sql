-- carts (version 6.9)
CREATE TABLE t_6_9 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_6_9 (note) VALUES ('carts; rev 0');
INSERT INTO trace (tag) VALUES ('V6.9');
