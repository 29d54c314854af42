-- teams (version 1)
CREATE TABLE t_1 (id INTEGER PRIMARY KEY, note TEXT);
INSERT INTO t_1 (note) VALUES ('teams; rev 1');
INSERT INTO trace (tag) VALUES ('V1');
