-- tags (version 32.13)
CREATE TABLE t_32_13 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_32_13 (note) VALUES ('tags; rev 0');
INSERT INTO trace (tag) VALUES ('V32.13');
