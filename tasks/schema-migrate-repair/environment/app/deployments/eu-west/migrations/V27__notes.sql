-- notes (version 27)
CREATE TABLE t_27 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_27 (note) VALUES ('notes; rev 0');
INSERT INTO trace (tag) VALUES ('V27');
