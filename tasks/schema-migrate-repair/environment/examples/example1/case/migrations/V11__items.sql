-- items (version 11)
CREATE TABLE t_11 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_11 (note) VALUES ('items; rev 0');
INSERT INTO trace (tag) VALUES ('V11');
