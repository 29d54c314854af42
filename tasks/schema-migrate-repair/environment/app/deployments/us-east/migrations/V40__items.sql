-- items (version 40)
CREATE TABLE t_40 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_40 (note) VALUES ('items; rev 0');
INSERT INTO trace (tag) VALUES ('V40');
