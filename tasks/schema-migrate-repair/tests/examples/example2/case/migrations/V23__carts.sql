-- carts (version 23)
CREATE TABLE t_23 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_23 (note) VALUES ('carts; rev 0');
INSERT INTO trace (tag) VALUES ('V23');
