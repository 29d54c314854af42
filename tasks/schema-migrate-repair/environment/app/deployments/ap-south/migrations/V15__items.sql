-- items (version 15)
CREATE TABLE t_15 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_15 (note) VALUES ('items; rev 0');
INSERT INTO trace (tag) VALUES ('V15');
