-- notes (version 36)
CREATE TABLE t_36 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_36 (note) VALUES ('notes; rev 0');
INSERT INTO trace (tag) VALUES ('V36');
