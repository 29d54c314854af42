-- sessions (version 32.5)
CREATE TABLE t_32_5 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_32_5 (note) VALUES ('sessions; rev 0');
INSERT INTO trace (tag) VALUES ('V32.5');
