-- orders (version 21.3)
CREATE TABLE t_21_3 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_21_3 (note) VALUES ('orders; rev 0');
INSERT INTO trace (tag) VALUES ('V21.3');
