-- orders (version 31)
CREATE TABLE t_31 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_31 (note) VALUES ('orders; rev 0');
INSERT INTO trace (tag) VALUES ('V31');
