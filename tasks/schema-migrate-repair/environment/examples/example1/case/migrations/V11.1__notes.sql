-- notes (version 11.1)
CREATE TABLE t_11_1 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_11_1 (note) VALUES ('notes; rev 0');
INSERT INTO trace (tag) VALUES ('V11.1');
